import LDAPKit

extension Person {
    /// Every field of the person that has values, named as ldapbook names
    /// them: built-in names where one covers the attribute, custom fields by
    /// their own names, other attributes by theirs. `objectClass` and secrets
    /// (``SecretAttributes``) are left out.
    public func fieldValues(registry: FieldRegistry) -> [(field: Field, values: [LDAPValue])] {
        var result: [(field: Field, values: [LDAPValue])] = []
        for attribute in entry.attributes where !attribute.name.equalsIgnoringCase("objectClass")
            && !SecretAttributes.isSecret(attribute.name, schema: registry.schema) {
            if attribute.name.equalsIgnoringCase(LDAPBookSchemaName.customField) {
                var keys: [String] = []
                for value in attribute.values {
                    guard let text = value.string, let equals = text.firstIndex(of: "=") else { continue }
                    let key = String(text[..<equals])
                    if !keys.contains(key) { keys.append(key) }
                }
                for key in keys {
                    if let field = try? registry.field(named: key), field.origin == .custom {
                        result.append((field, values(of: field)))
                    }
                }
                continue
            }
            let builtIn = BuiltInField.all.first { $0.attribute.equalsIgnoringCase(attribute.name) }
            let field = (try? registry.field(named: builtIn?.name ?? attribute.name))
                ?? Field(name: attribute.name, attribute: attribute.name,
                         kind: attribute.values.contains { $0.string == nil } ? .binary : .text,
                         isSingleValued: false, origin: .directorySchema)
            if !attribute.values.isEmpty {
                result.append((field, attribute.values))
            }
        }
        return result
    }
}
