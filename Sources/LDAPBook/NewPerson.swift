import LDAPKit

/// What is known about a person who is not in the directory yet.
public struct NewPerson: Sendable {
    /// The first name, if known.
    public var givenName: String?
    /// The last name: required, because `inetOrgPerson` requires `sn`.
    public var surname: String
    /// Field values to store with the new entry, in order.
    public var values: [(field: Field, values: [LDAPValue])]

    /// Describes a new person.
    public init(givenName: String? = nil, surname: String, values: [(field: Field, values: [LDAPValue])] = []) {
        self.givenName = givenName
        self.surname = surname
        self.values = values
    }

    /// The full name stored in `cn`: given name and surname.
    public var commonName: String {
        [givenName?.trimmingWhitespace(), surname.trimmingWhitespace()]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
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
