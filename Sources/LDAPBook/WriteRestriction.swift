/// Why ldapbook does not write a field, or writes it only when a person names it.
///
/// Only address-book data is written: the built-in fields, the attributes a person's entry
/// may hold (`inetOrgPerson` and its superclasses, `ldapbookPerson`) and custom fields.
/// Never written, by any command: secrets (``SecretAttributes``, refused when the field is
/// named), object classes other than those ldapbook adds itself, what identifies an entry
/// (`uid`, the card UID), the server's operational attributes, and attributes of other
/// classes (`uidNumber`, `member`). References to other entries (`manager`, `seeAlso`,
/// `secretary`: attributes whose values are DNs) are written when a person names them on
/// the command line (`set`, `add`), never from a file unless the import is told to.
public enum WriteRestriction: Sendable, Hashable, CustomStringConvertible {
    /// What identifies the entry (its `uid`, the card UID of ``VCardIdentity``): written
    /// only when an entry is created, never changed on one that exists.
    case identity
    /// A reference to another entry (a DN-valued attribute), which access controls often
    /// trust: written only when a person names it on the command line.
    case reference
    /// An attribute that no class of a person entry allows, such as `uidNumber` or `member`.
    case notPersonAttribute

    /// Whether a command line that names the field may write it all the same.
    public var allowsExplicitWrites: Bool { self == .reference }

    /// The reason, for messages: "identifies the entry".
    public var description: String {
        switch self {
        case .identity: "it identifies the entry, and ldapbook never changes who an entry is"
        case .reference: "it refers to another entry"
        case .notPersonAttribute: "it is not an attribute of a person: neither inetOrgPerson nor ldapbookPerson allows it"
        }
    }
}

/// The object classes ldapbook writes: `inetOrgPerson` and the classes it derives from
/// (which an entry may list or leave implied), and ldapbook's auxiliary class.
public enum PersonClasses {
    /// The classes, in lower case.
    public static let names: Set<String> = ["top", "person", "organizationalperson", "inetorgperson",
                                            LDAPBookSchemaName.objectClass.lowercased()]

    /// The classes whose attributes a person's entry may hold.
    static let attributeSources = ["inetOrgPerson", LDAPBookSchemaName.objectClass]
}
