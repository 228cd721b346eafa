/// The vCard versions ldapbook reads and writes.
///
/// vCard 2.1 (Outlook's, with its quoted-printable values, `CHARSET` and nameless
/// parameters) is read as the 3.0 card it can be written as, and never written.
public enum VCardVersion: String, Sendable, Hashable, CaseIterable {
    /// vCard 3.0 (RFC 2426): what Evolution, Apple Contacts and most CardDAV
    /// servers exchange.
    case v3 = "3.0"
    /// vCard 4.0 (RFC 6350).
    case v4 = "4.0"
}

extension VCardVersion {
    /// A `TYPE` value as this version spells it: uppercase in 3.0, as
    /// RFC 2426's examples and Evolution write it, lowercase in 4.0.
    func typeValue(_ type: String) -> String {
        self == .v3 ? type.uppercased() : type.lowercased()
    }
}
