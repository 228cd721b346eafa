/// One record of an LDIF file (RFC 2849): an entry's content, or a change
/// to apply to the directory.
///
/// Content records are what `ldapsearch` writes and `ldapadd` reads; change
/// records are what `ldapmodify` reads. Change records carry the controls
/// given on their `control:` lines, in order.
///
/// ```swift
/// for record in try LDIFReader(text: ldif).records() {
///     switch record {
///     case .content(let entry): print(entry.dn)
///     case .modify(let dn, let changes, _): print(dn, changes.count)
///     default: break
///     }
/// }
/// ```
public enum LDIFRecord: Sendable {
    /// An entry as it is: its DN and attributes (a record without `changetype:`).
    case content(LDAPEntry)

    /// `changetype: add`: create the entry.
    case add(LDAPEntry, controls: [LDAPControl] = [])

    /// `changetype: delete`: delete the entry with this DN.
    case delete(DistinguishedName, controls: [LDAPControl] = [])

    /// `changetype: modify`: apply the changes, in order, to the entry with this DN.
    case modify(DistinguishedName, [LDAPModification], controls: [LDAPControl] = [])

    /// `changetype: modrdn` (or `moddn`): rename the entry with this DN.
    ///
    /// - `newRDN`: the entry's new RDN.
    /// - `deleteOldRDN`: whether the values of the old RDN are removed from the entry.
    /// - `newSuperior`: the DN of the entry's new parent, or `nil` to keep it where it is.
    case rename(
        DistinguishedName,
        newRDN: RelativeDistinguishedName,
        deleteOldRDN: Bool,
        newSuperior: DistinguishedName? = nil,
        controls: [LDAPControl] = []
    )
}

extension LDIFRecord {
    /// The DN of the entry the record describes or changes.
    public var dn: DistinguishedName {
        switch self {
        case .content(let entry), .add(let entry, _): entry.dn
        case .delete(let dn, _), .modify(let dn, _, _), .rename(let dn, _, _, _, _): dn
        }
    }

    /// The controls of a change record; empty for a content record.
    public var controls: [LDAPControl] {
        switch self {
        case .content: []
        case .add(_, let controls), .delete(_, let controls), .modify(_, _, let controls),
             .rename(_, _, _, _, let controls):
            controls
        }
    }

    /// Whether this is a change record, written with a `changetype:` line.
    public var isChange: Bool {
        if case .content = self { false } else { true }
    }
}
