import LDAPKit

/// A field of the address book, resolved to where the directory keeps it.
///
/// A field is one of three things (see ``FieldRegistry``): a built-in name
/// people know (`email` is `mail`), any attribute the server's schema defines
/// (`roomNumber`), or an ad-hoc custom field kept in the generic
/// `ldapbookCustomField` attribute as `<name>=<value>`. Every value of a
/// multi-valued field counts.
public struct Field: Sendable, Hashable, CustomStringConvertible {
    /// Where a field comes from.
    public enum Origin: String, Sendable, Hashable {
        /// One of ldapbook's built-in names.
        case builtIn
        /// An attribute type of the server's schema, used by its own name.
        case directorySchema
        /// An ad-hoc custom field in `ldapbookCustomField`.
        case custom
    }

    /// The field's name as ldapbook shows it: `email`, `roomNumber`, `shoesize`.
    public let name: String
    /// The LDAP attribute that holds the values.
    public let attribute: String
    /// What kind of values the field holds.
    public let kind: FieldKind
    /// Whether the field holds at most one value.
    public let isSingleValued: Bool
    /// Where the field comes from.
    public let origin: Origin
    /// For custom fields, the key stored before `=` (always lowercase).
    public let customKey: String?
    /// Whether the directory can compare the field's values (its attribute has an
    /// equality matching rule). A directory cannot add a value beside one it cannot
    /// compare, nor delete one value by naming it, so such a field (`jpegPhoto`) is
    /// replaced or removed as a whole.
    public let comparesValues: Bool
    /// The attribute's equality matching rule (`caseIgnoreMatch`), when the server's schema
    /// names one: how the directory tells two values apart (see ``sameValue(_:_:)``).
    public let equality: String?
    /// Why ldapbook does not write the field, or writes it only when a person names it;
    /// `nil` for the fields it writes (see ``WriteRestriction``).
    public let restriction: WriteRestriction?

    init(name: String, attribute: String, kind: FieldKind, isSingleValued: Bool, origin: Origin,
         customKey: String? = nil, comparesValues: Bool = true, equality: String? = nil,
         restriction: WriteRestriction? = nil) {
        self.name = name
        self.attribute = attribute
        self.kind = kind
        self.isSingleValued = isSingleValued
        self.origin = origin
        self.customKey = customKey
        self.comparesValues = comparesValues
        self.equality = equality
        self.restriction = restriction
    }

    /// Whether the field lives in an attribute of ldapbook's own schema, so
    /// entries need the `ldapbookPerson` auxiliary class to hold it.
    public var needsLDAPBookClass: Bool {
        LDAPBookSchemaName.attributes.contains { $0.equalsIgnoringCase(attribute) }
    }

    /// A filter matching the entries in which the field is populated.
    ///
    /// For a custom field this is the (indexable) substring filter
    /// `(ldapbookCustomField=<key>=*)`.
    public var presenceFilter: LDAPFilter {
        if let customKey {
            return .substrings(attribute, initial: LDAPValue(customKey + "="), any: [], final: nil)
        }
        return .present(attribute)
    }

    /// A filter matching the entries with a value of this field that starts
    /// with `prefix` (compared as the attribute's substring rule compares).
    public func prefixFilter(_ prefix: String) -> LDAPFilter {
        if let customKey {
            return .substrings(attribute, initial: LDAPValue(customKey + "=" + prefix), any: [], final: nil)
        }
        return .prefix(attribute, LDAPValue(prefix))
    }

    /// A filter matching the entries with `value` in this field (as the attribute's equality
    /// rule compares).
    public func equalityFilter(_ value: LDAPValue) -> LDAPFilter {
        .equal(attribute, stored(value))
    }

    /// The field's values in `entry`.
    public func values(in entry: LDAPEntry) -> [LDAPValue] {
        let stored = entry[attribute]
        guard let customKey else { return stored }
        let prefix = Array((customKey + "=").utf8)
        return stored.compactMap { value in
            guard value.starts(with: prefix) else { return nil }
            return value.droppingFirst(prefix.count)
        }
    }

    /// The value as stored in the attribute (`<key>=<value>` for custom fields).
    func stored(_ value: LDAPValue) -> LDAPValue {
        guard let customKey else { return value }
        return LDAPValue(bytes: Array((customKey + "=").utf8) + value.bytes)
    }

    /// Throws unless a person may write the field: every field but those whose
    /// ``restriction`` forbids it (a reference may be written when named on the command line).
    ///
    /// - Throws: ``AddressBookError`` (`notWritable`) saying why.
    public func checkWritable() throws(AddressBookError) {
        if let restriction, !restriction.allowsExplicitWrites {
            throw AddressBookError(.notWritable, "ldapbook does not write \(name): \(restriction)")
        }
    }

    /// Checks values before they are written: the field must be writable
    /// (``checkWritable()``), each value must satisfy the field's kind as a person
    /// types it (``FieldKind/Rules/entered``) or as a directory holds it
    /// (``FieldKind/Rules/stored``, for imports), and a single-valued field takes one value.
    ///
    /// - Throws: ``AddressBookError`` naming the field and the broken rule.
    public func validate(_ values: [LDAPValue], rules: FieldKind.Rules = .entered) throws(AddressBookError) {
        try checkWritable()
        if isSingleValued && values.count > 1 {
            throw AddressBookError(.tooManyValues, "\(name) holds a single value; \(values.count) were given")
        }
        for value in values {
            if let rule = kind.violation(of: value, rules: rules) {
                let shown = kind.isBinary ? "a \(value.count)-byte value" : "\"\(value.lossyString.prefix(80))\""
                throw AddressBookError(.invalidValue, "\(name): \(shown) \(rule)")
            }
        }
    }

    /// Why `value` cannot be a value of this field, or `nil` when it can: for
    /// checking input as it is typed.
    public func problem(with value: LDAPValue) -> String? {
        do {
            try validate([value])
            return nil
        } catch {
            return error.message
        }
    }

    /// The field's name, and its attribute when that differs.
    public var description: String {
        if let customKey { return "\(customKey) (custom field in \(attribute))" }
        return name == attribute ? name : "\(name) (\(attribute))"
    }
}

extension String {
    /// Case-insensitive equality, as LDAP compares attribute names: ASCII letters compared
    /// without their case, and other text as `lowercased()` has it.
    func equalsIgnoringCase(_ other: String) -> Bool {
        if self == other { return true }
        let a = utf8, b = other.utf8
        guard a.allSatisfy({ $0 < 0x80 }) && b.allSatisfy({ $0 < 0x80 }) else { return lowercased() == other.lowercased() }
        return a.count == b.count && zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (0x61...0x7A).contains(x | 0x20))
        }
    }
}
