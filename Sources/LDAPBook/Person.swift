import LDAPKit

/// A person of the address book: an `inetOrgPerson` entry seen through ldapbook's fields.
///
/// LDAP lets every name attribute hold several values; all of them count.
public struct Person: Sendable, Identifiable {
    /// The entry, with the attributes that were asked for.
    public let entry: LDAPEntry

    /// Creates a person over an entry.
    public init(entry: LDAPEntry) {
        self.entry = entry
    }

    /// The entry's distinguished name, which identifies the person.
    public var id: DistinguishedName { entry.dn }
    /// The entry's distinguished name.
    public var dn: DistinguishedName { entry.dn }
    /// First names (`givenName`).
    public var givenNames: [String] { entry.strings("givenName") }
    /// Last names (`sn`).
    public var surnames: [String] { entry.strings("sn") }
    /// Full names (`cn`).
    public var commonNames: [String] { entry.strings("cn") }
    /// The entry's object classes.
    public var objectClasses: [String] { entry.strings("objectClass") }

    /// Whether the entry has ldapbook's auxiliary class, so it can hold custom fields.
    public var hasLDAPBookClass: Bool {
        objectClasses.contains { $0.equalsIgnoringCase(LDAPBookSchemaName.objectClass) }
    }

    /// The name to show: `displayName`, else the first `cn`, else given name and surname.
    public var displayName: String {
        if let stored = storedDisplayName { return stored.lossyString }
        let parts = [givenNames.first, surnames.first].compactMap { $0 }
        return parts.isEmpty ? dn.string : parts.joined(separator: " ")
    }

    /// ``displayName`` as the value it is stored as, when it is one (`displayName`, else the
    /// first `cn`), for writing it out without making a string first; `nil` when it is made of
    /// the given name and surname, or the DN.
    public var storedDisplayName: LDAPValue? {
        // One pass for both: the first attribute of each name counts, as in ``LDAPKit/LDAPEntry/subscript(_:)``.
        var display: [LDAPValue]?, common: [LDAPValue]?
        for attribute in entry.attributes {
            if display == nil, attribute.isNamed("displayName") { display = attribute.values }
            if common == nil, attribute.isNamed("cn") { common = attribute.values }
        }
        if let display = display?.first(where: \.isUTF8), !display.isEmpty { return display }
        if let common = common?.first(where: \.isUTF8), !common.isEmpty { return common }
        return nil
    }

    /// The values of `field` (all of them, for a multi-valued field).
    public func values(of field: Field) -> [LDAPValue] {
        field.values(in: entry)
    }

    /// The text values of `field`; values that are not UTF-8 are left out.
    public func strings(of field: Field) -> [String] {
        values(of: field).compactMap(\.string)
    }

    /// The photo's bytes (`jpegPhoto`), when the entry has one and it was asked for.
    public var photo: [UInt8]? {
        entry["jpegPhoto"].first?.bytes
    }

    /// The attributes that show who a person is, always requested.
    public static let nameAttributes = ["objectClass", "givenName", "sn", "cn", "displayName", "uid"]

    /// Every value of the attributes names are matched by (``MatchedAttribute``), those the
    /// entry was read with: what a list's filter matches besides what it shows.
    public var matchableNames: [String] {
        MatchedAttribute.allCases.flatMap { entry.strings($0.attribute) }
    }

    /// The attributes that tell namesakes apart in a list: what they do, where, and for whom.
    public static let detailAttributes = ["title", "ou", "o"]

    /// What tells this person apart from others of the same name, as lists show it: their
    /// title, department and organisation (the first of each), those the entry was read with.
    public var details: [String] {
        detailValues.map(\.lossyString)
    }

    /// ``details`` as the values they are stored as.
    public var detailValues: [LDAPValue] {
        var values: [LDAPValue] = []
        forEachDetail { values.append($0) }
        return values
    }

    /// Calls `body` with each of ``detailValues``, in order, without gathering them first.
    public func forEachDetail(_ body: (LDAPValue) -> Void) {
        // One pass over the attributes for the three of ``detailAttributes`` (a list of
        // thousands shows them all); the first attribute of each name counts, as in
        // ``LDAPKit/LDAPEntry/subscript(_:)``.
        var found: (title: [LDAPValue]?, ou: [LDAPValue]?, o: [LDAPValue]?) = (nil, nil, nil)
        for attribute in entry.attributes {
            switch attribute.name.utf8.count {
            case 5 where found.title == nil && attribute.isNamed("title"): found.title = attribute.values
            case 2 where found.ou == nil && attribute.isNamed("ou"): found.ou = attribute.values
            case 1 where found.o == nil && attribute.isNamed("o"): found.o = attribute.values
            default: break
            }
        }
        func give(_ values: [LDAPValue]?) {
            if let value = values?.first(where: \.isUTF8), !value.isBlank { body(value) }
        }
        give(found.title)
        give(found.ou)
        give(found.o)
    }

    /// The attributes to request to see `fields` of a person, and no others.
    public static func attributes(for fields: [Field]) -> [String] {
        var attributes = nameAttributes
        for field in fields where !attributes.contains(where: { $0.equalsIgnoringCase(field.attribute) }) {
            attributes.append(field.attribute)
        }
        return attributes
    }
}
