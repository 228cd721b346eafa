/// The vCard versions ldapbook reads and writes.
///
/// vCard 2.1 (with its quoted-printable values and nameless parameters) is
/// not one of them: the parser reports such cards as errors.
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
