import LDAPKit

extension Person {
    /// Every field of the person that has values, named as ldapbook names
    /// them: built-in names where one covers the attribute, custom fields by
    /// their own names, other attributes by theirs. `objectClass`, secrets
    /// (``SecretAttributes``) and the attributes the server keeps (`entryUUID`, when the
    /// entry was read with it) are left out.
    public func fieldValues(registry: FieldRegistry) -> [(field: Field, values: [LDAPValue])] {
        var result: [(field: Field, values: [LDAPValue])] = []
        forEachField(registry: registry) { result.append(($0, $1)) }
        return result
    }

    /// Calls `body` with each field of ``fieldValues(registry:)`` and its values, in the
    /// same order, without gathering them first.
    public func forEachField(registry: FieldRegistry, _ body: (Field, [LDAPValue]) -> Void) {
        forEachField(registry: registry, storedField: registry.storedField, body)
    }

    /// ``forEachField(registry:_:)``, asking `storedField` what each attribute is.
    func forEachField(registry: FieldRegistry, storedField: (String) -> StoredField, _ body: (Field, [LDAPValue]) -> Void) {
        for attribute in entry.attributes where !attribute.values.isEmpty {
            switch storedField(attribute.name) {
            case .none:
                continue
            case .field(let field):
                body(field, attribute.values)
            case .customFields:
                var keys: [String] = []
                for value in attribute.values {
                    guard let text = value.string, let equals = text.firstIndex(of: "=") else { continue }
                    let key = String(text[..<equals])
                    if !keys.contains(key) { keys.append(key) }
                }
                for key in keys {
                    if let field = try? registry.field(named: key), field.origin == .custom {
                        body(field, values(of: field))
                    }
                }
            case .unknown:
                let kind: FieldKind = attribute.values.contains { !$0.isUTF8 } ? .binary : .text
                body(Field(name: attribute.name, attribute: attribute.name, kind: kind, isSingleValued: false,
                           origin: .directorySchema), attribute.values)
            }
        }
    }
}

/// What an attribute of a person's entry is to the address book (``FieldRegistry/storedField(_:)``).
enum StoredField: Sendable {
    /// Not a field: `objectClass`, a secret, or an attribute the server keeps.
    case none
    /// The field the attribute holds.
    case field(Field)
    /// ldapbook's attribute of custom fields, each value `<key>=<value>`.
    case customFields
    /// An attribute the registry cannot name a field for.
    case unknown
}

extension FieldRegistry {
    /// What the attribute `name` of a person's entry holds: the built-in field that covers
    /// it, or the field of its own name (``field(named:)``).
    func resolveStoredField(_ name: String) -> StoredField {
        if name.equalsIgnoringCase("objectClass") || isSecret(name) || ImportRecord.operationalAttributes.contains(name.lowercased())
            || schema?.attributeType(named: name)?.isOperational == true { return .none }
        if name.equalsIgnoringCase(LDAPBookSchemaName.customField) { return .customFields }
        let builtIn = BuiltInField.all.first { $0.attribute.equalsIgnoringCase(name) }
        // An attribute of an entry is never a custom field (those are values of
        // ldapbookCustomField): without the schema, one that no built-in field covers is known
        // by its own name only.
        if builtIn == nil && schema == nil { return .unknown }
        guard let field = try? field(named: builtIn?.name ?? name) else { return .unknown }
        return .field(field)
    }
}
