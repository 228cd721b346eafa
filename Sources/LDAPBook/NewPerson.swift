import LDAPKit

/// What is known about a person who is not in the directory yet.
public struct NewPerson: Sendable {
    /// The first name, if known.
    public var givenName: String?
    /// The last name: required, because `inetOrgPerson` requires `sn`.
    public var surname: String
    /// Field values to store with the new entry, in order. Further first or last names
    /// are values of the `given-name` and `surname` fields.
    public var values: [(field: Field, values: [LDAPValue])]
    /// The full names stored in `cn`; `nil` for ``commonName`` alone.
    public var commonNames: [String]?
    /// The entry's object classes: `inetOrgPerson`, and the classes it derives from when a
    /// file lists them (ldapbook's own class is added when a field needs it).
    public var objectClasses: [String] = ["inetOrgPerson"]
    /// The rules values are checked by: ``FieldKind/Rules/entered`` for what a person
    /// typed (names are trimmed), ``FieldKind/Rules/stored`` for what a file holds
    /// (names and values are kept exactly as written).
    public var rules: FieldKind.Rules = .entered

    /// Describes a new person.
    public init(givenName: String? = nil, surname: String, values: [(field: Field, values: [LDAPValue])] = [],
                commonNames: [String]? = nil) {
        self.givenName = givenName
        self.surname = surname
        self.values = values
        self.commonNames = commonNames
    }

    /// The full name: given name and surname, for ``commonNames`` when there are none and
    /// for messages.
    public var commonName: String {
        [givenName?.trimmingWhitespace(), surname.trimmingWhitespace()]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The values of the field kept in `attribute`, for fields that are not custom.
    func values(ofAttribute attribute: String) -> [LDAPValue] {
        values.filter { $0.field.customKey == nil && $0.field.attribute.equalsIgnoringCase(attribute) }.flatMap(\.values)
    }
}

/// How new entries are named (their RDN).
public enum EntryNaming: Sendable, Hashable {
    /// `uid=<given>.<surname>`, transliterated to ASCII and made unique with
    /// a number (`ada.lovelace.2`): the RDN stays valid when names change.
    case generatedUID
    /// `cn=<given> <surname>`; a name change renames the entry.
    case commonName
}

extension NewPerson {
    /// Refuses a name typed without a letter (`+44 20 7946`, `0001`): a phone number or a
    /// number is no one's name.
    static func checkHasLetter(_ name: String) throws(AddressBookError) {
        guard name.unicodeScalars.contains(where: \.properties.isAlphabetic) else {
            throw AddressBookError(.invalidName, "\"\(name)\" is no name: a name needs a letter")
        }
    }
}
