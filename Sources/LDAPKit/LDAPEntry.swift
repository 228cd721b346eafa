/// An attribute of an entry: its description (type plus options, such as
/// `cn` or `userCertificate;binary`) and its values.
public struct LDAPAttribute: Sendable, Hashable {
    /// The attribute description, as the server or caller spelled it.
    public var name: String
    /// The values, in the order the server returned them.
    public var values: [LDAPValue]

    /// Creates an attribute.
    public init(name: String, values: [LDAPValue]) {
        self.name = name
        self.values = values
    }

    /// The values decoded as UTF-8; values that are not valid UTF-8 are left out.
    public var strings: [String] { values.compactMap(\.string) }

    /// Whether the attribute's description is `name`, compared as LDAP compares them:
    /// ignoring ASCII case. Only the description as a whole is compared; `cn` does not
    /// match `cn;lang-de`.
    @inlinable
    public func isNamed(_ name: String) -> Bool {
        self.name.caseInsensitiveEquals(name)
    }
}

/// An entry: its distinguished name and attributes.
public struct LDAPEntry: Sendable {
    /// The entry's distinguished name.
    public var dn: DistinguishedName
    /// The attributes, in the order the server returned them.
    public var attributes: [LDAPAttribute]

    /// Creates an entry.
    public init(dn: DistinguishedName, attributes: [LDAPAttribute] = []) {
        self.dn = dn
        self.attributes = attributes
    }

    /// Creates an entry from a dictionary of string values, for building new entries.
    public init(dn: DistinguishedName, _ attributes: KeyValuePairs<String, [String]>) {
        self.dn = dn
        self.attributes = attributes.map { LDAPAttribute(name: $0.key, values: $0.value.map { LDAPValue($0) }) }
    }

    /// The values of the attribute named `name` (compared case-insensitively),
    /// or an empty array when the entry lacks it.
    ///
    /// Only the attribute type is compared; `cn` does not match `cn;lang-de`.
    public subscript(name: String) -> [LDAPValue] {
        get {
            for index in attributes.indices where attributes[index].isNamed(name) {
                return attributes[index].values
            }
            return []
        }
        set {
            if let index = attributes.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
                if newValue.isEmpty {
                    attributes.remove(at: index)
                } else {
                    attributes[index].values = newValue
                }
            } else if !newValue.isEmpty {
                attributes.append(LDAPAttribute(name: name, values: newValue))
            }
        }
    }

    /// The UTF-8 values of the attribute named `name`.
    public func strings(_ name: String) -> [String] {
        self[name].compactMap(\.string)
    }

    /// The first UTF-8 value of the attribute named `name`, if any.
    public func string(_ name: String) -> String? {
        self[name].lazy.compactMap(\.string).first
    }

    /// Whether the entry has at least one value of the attribute named `name`.
    public func has(_ name: String) -> Bool {
        !self[name].isEmpty
    }
}

extension String {
    /// ASCII case-insensitive equality, as LDAP uses for attribute descriptions.
    @inlinable
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Most names looked for are not the one at hand, and differ in length: that check
        // costs less than comparing the strings. Names usually come back spelled as they were
        // asked for.
        let a = self.utf8, b = other.utf8
        guard a.count == b.count else { return false }
        if self == other { return true }
        let compared = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in Self.asciiCaseInsensitiveEquals(a, b) }
        }
        return compared.flatMap { $0 } ?? Self.asciiCaseInsensitiveEquals(a, b)
    }

    @inlinable
    static func asciiCaseInsensitiveEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        zip(a, b).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
        }
    }
}
