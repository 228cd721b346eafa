import LDAPKit

/// Resolves the field names people type to the directory's attributes.
///
/// A name (compared case-insensitively) is, in this order:
/// 1. a built-in name or alias (``BuiltInField/all``): `email` is `mail`;
/// 2. an attribute type of the server's schema, by any of its names:
///    `roomNumber`, `carLicense`, ldapbook's own attributes;
/// 3. anything else: an ad-hoc custom field, kept in `ldapbookCustomField`
///    as `<name>=<value>`.
public struct FieldRegistry: Sendable {
    /// The server's schema, when it was read.
    public let schema: LDAPSchema?

    /// Creates a registry for a server with `schema`; without one, names that
    /// are not built in are taken to be custom fields.
    public init(schema: LDAPSchema?) {
        self.schema = schema
    }

    /// Whether the directory has ldapbook's schema (assumed when the schema is unknown).
    public var hasLDAPBookSchema: Bool {
        guard let schema else { return true }
        return schema.objectClass(named: LDAPBookSchemaName.objectClass) != nil
            && schema.attributeType(named: LDAPBookSchemaName.customField) != nil
    }

    /// Resolves `name` to a field.
    ///
    /// - Throws: ``AddressBookError`` when the name cannot name a field, names
    ///   an attribute the server manages itself, or needs ldapbook's schema on
    ///   a directory without it.
    public func field(named name: String) throws(AddressBookError) -> Field {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw AddressBookError(.invalidFieldName, "a field name must not be empty")
        }
        let lowered = trimmed.lowercased()
        if let builtIn = BuiltInField.all.first(where: { $0.name == lowered || $0.aliases.contains(lowered) }) {
            return try resolved(builtIn)
        }
        if let schema, let attribute = schema.attributeType(named: trimmed) {
            return try field(for: attribute, in: schema)
        }
        return try customField(trimmed)
    }

    /// Every built-in field this directory can hold, then the other
    /// attributes a person entry may have (those `inetOrgPerson` and
    /// `ldapbookPerson` allow), in the schema's order.
    public var knownFields: [Field] {
        var fields = BuiltInField.all.compactMap { try? resolved($0) }
        guard let schema else { return fields }
        let covered = Set(fields.map { $0.attribute.lowercased() })
        let personAttributes = ["inetOrgPerson", LDAPBookSchemaName.objectClass].flatMap {
            schema.requiredAttributes(of: $0) + schema.allowedAttributes(of: $0)
        }
        let excluded: Set<String> = ["objectclass", "userpassword", LDAPBookSchemaName.customField.lowercased()]
        var listed = Set<String>()
        for name in personAttributes {
            let key = name.lowercased()
            guard !covered.contains(key), !excluded.contains(key), listed.insert(key).inserted,
                  let attribute = schema.attributeType(named: name), !attribute.isObsolete,
                  let field = try? field(for: attribute, in: schema) else { continue }
            fields.append(field)
        }
        return fields
    }

    private func resolved(_ builtIn: BuiltInField) throws(AddressBookError) -> Field {
        var single = builtIn.isSingleValued
        // Without a schema to ask, the photo is known to have no equality rule (RFC 2798).
        var compares = builtIn.kind != .photo
        if let schema {
            guard let attribute = schema.attributeType(named: builtIn.attribute) else {
                if LDAPBookSchemaName.attributes.contains(where: { $0.equalsIgnoringCase(builtIn.attribute) }) {
                    throw AddressBookError(.schemaMissing,
                        "\(builtIn.name) needs ldapbook's schema, which this directory lacks: "
                        + LDAPBookSchemaName.installHint)
                }
                throw AddressBookError(.schemaMissing,
                    "\(builtIn.name) is kept in \(builtIn.attribute), which this directory's schema does not define")
            }
            single = attribute.isSingleValued
            compares = schema.resolvedEquality(of: attribute) != nil
        }
        return Field(name: builtIn.name, attribute: builtIn.attribute, kind: builtIn.kind,
                     isSingleValued: single, origin: .builtIn, comparesValues: compares)
    }

    private func field(for attribute: AttributeTypeDescription, in schema: LDAPSchema) throws(AddressBookError) -> Field {
        if attribute.isOperational || !attribute.isUserModifiable {
            throw AddressBookError(.invalidFieldName,
                "\(attribute.name) is an operational attribute the server manages; it is not an address-book field")
        }
        if attribute.name.equalsIgnoringCase(LDAPBookSchemaName.customField) {
            throw AddressBookError(.invalidFieldName,
                "\(attribute.name) holds custom fields; name the custom field itself instead")
        }
        let kind = FieldKind.forSyntax(schema.resolvedSyntax(of: attribute), isBinary: schema.isBinary(attribute))
        return Field(name: attribute.name, attribute: attribute.name, kind: kind,
                     isSingleValued: attribute.isSingleValued, origin: .directorySchema,
                     comparesValues: schema.resolvedEquality(of: attribute) != nil)
    }

    /// The longest custom field name.
    public static let maximumCustomNameLength = 64

    private func customField(_ name: String) throws(AddressBookError) -> Field {
        let key = name.lowercased()
        guard key.count <= Self.maximumCustomNameLength,
              let first = key.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first),
              key.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) })
        else {
            throw AddressBookError(.invalidFieldName,
                "\"\(name.prefix(80))\" is not a field: custom field names are letters, digits, - _ and ., "
                + "start with a letter or digit, and have at most \(Self.maximumCustomNameLength) characters")
        }
        guard hasLDAPBookSchema else {
            throw AddressBookError(.schemaMissing,
                "\(key) is not a field of this directory; custom fields need ldapbook's schema: "
                + LDAPBookSchemaName.installHint)
        }
        return Field(name: key, attribute: LDAPBookSchemaName.customField, kind: .text, isSingleValued: false,
                     origin: .custom, customKey: key)
    }
}

extension String {
    /// The string without leading and trailing white space.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
