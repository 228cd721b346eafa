import LDAPKit
import Synchronization

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
    public var schema: LDAPSchema? { known.schema }

    /// The registry of a server whose schema is not read: the built-in fields, any other field
    /// name a custom field, and any other attribute of an entry known by its own name. It
    /// names what a list of names and details shows (the built-in fields' attributes, and
    /// `cn` as `cn`) as a registry with the schema does.
    public static let builtIn = FieldRegistry(schema: nil)

    /// Creates a registry for a server with `schema`; without one, names that
    /// are not built in are taken to be custom fields.
    public init(schema: LDAPSchema?) {
        var personAttributeOIDs: Set<String>?
        if let schema, schema.objectClass(named: "inetOrgPerson") != nil {
            personAttributeOIDs = Set(PersonClasses.attributeSources.flatMap {
                (schema.requiredAttributes(of: $0) + schema.allowedAttributes(of: $0)).compactMap { schema.attributeType(named: $0)?.oid }
            })
        }
        known = KnownNames(schema: schema, personAttributeOIDs: personAttributeOIDs)
    }

    /// The OIDs of the attributes a person's entry may hold (``PersonClasses``), when the
    /// schema defines `inetOrgPerson`.
    private var personAttributeOIDs: Set<String>? { known.personAttributeOIDs }

    /// The schema and what the registry has worked out of it, in one object its copies share:
    /// a registry is handed to every writer of an export and copied with each, at the price of
    /// one reference. The answers of ``isSecret(_:)``, ``field(named:)`` and ``storedField(_:)``
    /// depend only on the name and the schema, and an export asks them of every attribute of
    /// every entry.
    private let known: KnownNames

    /// What the attribute `name` of a person's entry holds (``resolveStoredField(_:)``),
    /// worked out once per name: exports ask it of every attribute of every entry.
    func storedField(_ name: String) -> StoredField {
        if let known = known.stored.withLock({ $0.answer(for: name) }) { return known }
        let stored = resolveStoredField(name)
        known.stored.withLock { $0.remember(stored, for: name) }
        return stored
    }

    /// Whether `attribute` (a name or description) holds secrets in this directory
    /// (``SecretAttributes/isSecret(_:schema:)``), worked out once per name.
    public func isSecret(_ attribute: String) -> Bool {
        if let known = known.secrets.withLock({ $0.answer(for: attribute) }) { return known }
        let secret = SecretAttributes.isSecret(attribute, schema: schema)
        known.secrets.withLock { $0.remember(secret, for: attribute) }
        return secret
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
    ///   a directory without it; `notWritable` for a secret (``SecretAttributes``)
    ///   and for `objectClass`, which are not fields at all.
    public func field(named name: String) throws(AddressBookError) -> Field {
        if let known = known.fields.withLock({ $0.answer(for: name) }) { return try known.get() }
        let resolved = Result { () throws(AddressBookError) in try resolveField(named: name) }
        known.fields.withLock { $0.remember(resolved, for: name) }
        return try resolved.get()
    }

    private func resolveField(named name: String) throws(AddressBookError) -> Field {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw AddressBookError(.invalidFieldName, "a field name must not be empty")
        }
        let lowered = trimmed.lowercased()
        if isSecret(trimmed) {
            throw AddressBookError(.notWritable, "\(trimmed.prefix(80)) is a secret (a password or a key): ldapbook never "
                + "reads or writes secrets; change a password with ldappasswd, which the server hashes")
        }
        if lowered == "objectclass" || schema?.attributeType(named: trimmed)?.name.equalsIgnoringCase("objectClass") == true {
            throw AddressBookError(.notWritable,
                "objectClass is not a field: ldapbook adds the classes its fields need (inetOrgPerson, ldapbookPerson) itself")
        }
        if let builtIn = BuiltInField.all.first(where: { $0.name == lowered || $0.aliases.contains(lowered) }) {
            return try resolved(builtIn)
        }
        if let schema, let attribute = schema.attributeType(named: trimmed) {
            return try field(for: attribute, in: schema)
        }
        return try customField(trimmed)
    }

    /// The built-in field kept in `attribute` (a name or OID of the attribute type), if any.
    func builtInField(forAttribute attribute: String) -> BuiltInField? {
        let type = String(attribute.split(separator: ";", maxSplits: 1).first ?? "")
        let oid = schema?.attributeType(named: type)?.oid
        return BuiltInField.all.first { builtIn in
            builtIn.attribute.equalsIgnoringCase(type)
                || (oid != nil && schema?.attributeType(named: builtIn.attribute)?.oid == oid)
        }
    }

    /// The field kept in the attribute described by `description` (`mail`,
    /// `userCertificate;binary`): the built-in field that covers it, else the attribute of
    /// the schema under its own name. Options stay in the attribute the values are
    /// written to.
    ///
    /// - Throws: ``AddressBookError`` as ``field(named:)`` does.
    public func field(forAttribute description: String) throws(AddressBookError) -> Field {
        let parts = description.split(separator: ";", maxSplits: 1)
        let type = String(parts.first ?? "")
        if isSecret(description) || type.equalsIgnoringCase("objectClass") {
            return try field(named: type)
        }
        var field: Field
        if let builtIn = builtInField(forAttribute: type) {
            field = try resolved(builtIn)
        } else if let schema, let attribute = schema.attributeType(named: type) {
            field = try self.field(for: attribute, in: schema)
        } else {
            guard type.first?.isLetter == true, type.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw AddressBookError(.invalidFieldName, "\"\(description.prefix(80))\" is not an attribute name")
            }
            field = Field(name: type, attribute: type, kind: .text, isSingleValued: false, origin: .directorySchema)
        }
        guard parts.count == 2 else { return field }
        return Field(name: description, attribute: description, kind: field.kind, isSingleValued: field.isSingleValued,
                     origin: field.origin, comparesValues: field.comparesValues, equality: field.equality,
                     restriction: field.restriction)
    }

    /// The custom field whose key is `key` exactly as written (ldapbook writes keys in
    /// lower case; another writer may not have).
    ///
    /// - Throws: ``AddressBookError`` when `key` cannot be a custom field's key, or the
    ///   directory lacks ldapbook's schema.
    public func customField(exactKey key: String) throws(AddressBookError) -> Field {
        let lowered = try customField(key)
        guard key != lowered.customKey else { return lowered }
        return Field(name: key, attribute: LDAPBookSchemaName.customField, kind: .text, isSingleValued: false,
                     origin: .custom, customKey: key, equality: lowered.equality, restriction: lowered.restriction)
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
        // A schema attribute named like a built-in field (cosine's `photo`, a fax image, beside
        // the built-in `photo` kept in jpegPhoto) cannot be reached by that name: not listed.
        let builtInNames = Set(BuiltInField.all.flatMap { [$0.name] + $0.aliases })
        let excluded = builtInNames.union(["objectclass", LDAPBookSchemaName.customField.lowercased()])
        var listed = Set<String>()
        for name in personAttributes {
            let key = name.lowercased()
            guard !covered.contains(key), !excluded.contains(key), !isSecret(name),
                  listed.insert(key).inserted,
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
        var equality: String?
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
            equality = schema.resolvedEquality(of: attribute)
            compares = equality != nil
        }
        return Field(name: builtIn.name, attribute: builtIn.attribute, kind: builtIn.kind,
                     isSingleValued: single, origin: .builtIn, comparesValues: compares, equality: equality,
                     restriction: builtIn.kind == .distinguishedName ? .reference : nil)
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
        let syntax = schema.resolvedSyntax(of: attribute)
        let kind = FieldKind.forSyntax(syntax, isBinary: schema.isBinary(attribute))
        let equality = schema.resolvedEquality(of: attribute)
        return Field(name: attribute.name, attribute: attribute.name, kind: kind,
                     isSingleValued: attribute.isSingleValued, origin: .directorySchema,
                     comparesValues: equality != nil, equality: equality,
                     restriction: restriction(of: attribute, syntax: syntax))
    }

    /// The syntaxes whose values name other entries: DN, and Name and Optional UID.
    static let referenceSyntaxes: Set<String> = ["1.3.6.1.4.1.1466.115.121.1.12", "1.3.6.1.4.1.1466.115.121.1.34"]

    /// Why ldapbook does not write `attribute` freely, if it does not.
    private func restriction(of attribute: AttributeTypeDescription, syntax: String?) -> WriteRestriction? {
        if attribute.names.contains(where: { $0.equalsIgnoringCase("uid") }) { return .identity }
        if let syntax, Self.referenceSyntaxes.contains(syntax) { return .reference }
        guard let personAttributeOIDs, !personAttributeOIDs.contains(attribute.oid) else { return nil }
        return .notPersonAttribute
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
                     origin: .custom, customKey: key, equality: "caseExactMatch",
                     restriction: key == VCardIdentity.fieldName ? .identity : nil)
    }
}

extension LDAPValue {
    /// Whether the value (UTF-8) is empty or only white space, as ``Swift/String/isBlank`` tells.
    public var isBlank: Bool {
        withUnsafeBufferPointer { bytes in
            // A printable ASCII character is no white space: most values end here at once.
            if bytes.contains(where: { (0x21...0x7E).contains($0) }) { return false }
            if bytes.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) { return true }
            return String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
        }
    }
}

extension String {
    /// Whether the string is empty or only white space: printable ASCII is not, told without
    /// breaking it into characters.
    var isBlank: Bool {
        if let ascii = utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.allSatisfy { $0 < 0x80 } ? !bytes.contains { $0 != 0x20 && !(0x09...0x0D).contains($0) } : nil
        }), let ascii { return ascii }
        return allSatisfy(\.isWhitespace)
    }

    /// The string without leading and trailing white space.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}

/// The schema of a ``FieldRegistry`` and what it has worked out, shared by its copies.
private final class KnownNames: Sendable {
    let schema: LDAPSchema?
    let personAttributeOIDs: Set<String>?
    let secrets = Mutex(NameMemo<Bool>())
    let fields = Mutex(NameMemo<Result<Field, AddressBookError>>())
    let stored = Mutex(NameMemo<StoredField>())

    init(schema: LDAPSchema?, personAttributeOIDs: Set<String>?) {
        self.schema = schema
        self.personAttributeOIDs = personAttributeOIDs
    }
}
