import LDAPKit

/// Who a vCard is: its `UID`, the identity vCard readers and sync tools (vdirsyncer, khard,
/// CardDAV) give a card.
///
/// ldapbook's export writes as the `UID` the card UID an entry was imported with, else the
/// entry's `entryUUID` as a `urn:uuid:` URI (vCard 4.0) or as it is (3.0), else its DN. An
/// import finds the entry a card names by all three: an `entryUUID` (in either form), a
/// stored card UID, or a DN of the directory. A person created from a card keeps its UID
/// in the custom field ``fieldName`` (`ldapbookCustomField: vcard-uid=<UID>`), so that the
/// next import of the same card finds them again, whatever else changed on the card.
public enum VCardIdentity {
    /// The custom field that keeps the card UID a person was imported with.
    public static let fieldName = "vcard-uid"

    /// The `entryUUID` a card UID names: `urn:uuid:<uuid>` or a bare UUID, in lower case.
    public static func entryUUID(in uid: String) -> String? {
        var text = uid.lowercased()
        if text.hasPrefix("urn:uuid:") { text.removeFirst("urn:uuid:".count) }
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12],
              text.allSatisfy({ $0 == "-" || $0.isHexDigit }) else { return nil }
        return text
    }

    /// What a stored card UID starts with: `vcard-uid=`.
    private static let prefix = Array((fieldName + "=").utf8)

    /// The card UID kept on `entry`, if any.
    public static func storedUID(of entry: LDAPEntry) -> String? {
        storedUID(in: entry[LDAPBookSchemaName.customField])
    }

    /// The UID ldapbook's export writes for `entry` (see the type's description).
    public static func exportedUID(of entry: LDAPEntry, version: VCardVersion) -> (value: String, isText: Bool)? {
        exportedUID(stored: storedUID(of: entry), entryUUID: entry.string("entryUUID"), dn: entry.dn, version: version)
    }

    /// The UID ldapbook's export writes for an entry at `dn` that keeps the card UID
    /// `stored` and has the `entryUUID` `entryUUID`.
    static func exportedUID(stored: String?, entryUUID: String?, dn: DistinguishedName,
                            version: VCardVersion) -> (value: String, isText: Bool)? {
        if let stored, !stored.isEmpty { return (stored, true) }
        if let uuid = entryUUID?.lowercased(), !uuid.isEmpty {
            return (version == .v4 ? "urn:uuid:" + uuid : uuid, false)
        }
        return dn.isRoot ? nil : (dn.string, true)
    }

    /// The card UID kept in the custom-field values `values`, if any.
    static func storedUID(in values: [LDAPValue]) -> String? {
        for value in values where value.starts(with: prefix) {
            return value.droppingFirst(prefix.count).string
        }
        return nil
    }
}
