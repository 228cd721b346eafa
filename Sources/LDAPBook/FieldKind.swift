import Foundation
import LDAPKit

/// What kind of value a field holds: decides how a value is checked before
/// it is written, and how it is shown.
public enum FieldKind: String, Sendable, Hashable, CaseIterable {
    /// Free text (Directory String): non-empty UTF-8 without control characters.
    case text
    /// An email address: a plausible IA5 (ASCII) addr-spec, `local@domain`.
    case email
    /// A telephone number (RFC 4517 Telephone Number: PrintableString) with at least one digit.
    case phone
    /// A URI, optionally followed by a space and a label (`labeledURI`).
    case url
    /// A calendar date: `YYYY-MM-DD`, or `--MM-DD` when the year is unknown.
    case date
    /// A distinguished name, such as a manager's entry.
    case distinguishedName
    /// A whole number.
    case integer
    /// `TRUE` or `FALSE`.
    case boolean
    /// A JPEG photo.
    case photo
    /// Bytes with no text form (certificates, audio, ...).
    case binary

    /// Whether values are bytes rather than text.
    public var isBinary: Bool { self == .photo || self == .binary }

    /// The kind of an attribute with the given LDAP syntax OID (RFC 4517).
    public static func forSyntax(_ oid: String?, isBinary: Bool) -> FieldKind {
        switch oid {
        case "1.3.6.1.4.1.1466.115.121.1.50": .phone
        case "1.3.6.1.4.1.1466.115.121.1.12": .distinguishedName
        case "1.3.6.1.4.1.1466.115.121.1.27": .integer
        case "1.3.6.1.4.1.1466.115.121.1.7": .boolean
        case "1.3.6.1.4.1.1466.115.121.1.28": .photo
        default: isBinary ? .binary : .text
        }
    }
}

extension FieldKind {
    /// Which rules a value is checked by.
    public enum Rules: Sendable, Hashable {
        /// What a person types (`add`, `set`, `reach`): the kind's own rules, stricter than
        /// the directory's (an email address is a plausible `local@domain`, text has no
        /// control characters, a telephone number has a digit), to catch mistakes before
        /// they are written.
        case entered
        /// What a directory may hold (import): the rules of the attribute's LDAP syntax
        /// (RFC 4517), so that whatever a directory exported comes back in, odd characters
        /// included: UTF-8 text, an IA5 (ASCII) address, a PrintableString telephone
        /// number, a distinguished name that parses. A photo is still a JPEG.
        case stored
    }

    /// Checks one value; the error message says which rule it breaks.
    ///
    /// - Returns: `nil` when the value is acceptable, otherwise the rule it breaks.
    func violation(of value: LDAPValue, rules: Rules = .entered) -> String? {
        if isBinary {
            if value.isEmpty { return "must not be empty" }
            if self == .photo && !FieldKind.isJPEG(value.bytes) {
                return "must be a JPEG image (it does not start with the JPEG marker FF D8 FF)"
            }
            return nil
        }
        guard let text = value.string else { return "must be valid UTF-8 text" }
        if text.isEmpty { return "must not be empty" }
        if rules == .stored { return storedViolation(text) }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters"
        }
        switch self {
        case .text, .photo, .binary:
            return nil
        case .email:
            return FieldKind.emailViolation(text)
        case .phone:
            return FieldKind.phoneViolation(text)
        case .url:
            return FieldKind.urlViolation(text)
        case .date:
            return FieldKind.isDate(text) ? nil : "must be a date written YYYY-MM-DD (or --MM-DD without a year)"
        case .distinguishedName:
            guard let dn = try? DistinguishedName(parsing: text), !dn.isRoot else {
                return "must be a distinguished name such as uid=ada,ou=people,dc=example,dc=com"
            }
            return nil
        case .integer:
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            return !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? nil : "must be a whole number"
        case .boolean:
            return text == "TRUE" || text == "FALSE" ? nil : "must be TRUE or FALSE"
        }
    }

    /// The rule of the attribute's LDAP syntax that `text` (valid, non-empty UTF-8) breaks.
    private func storedViolation(_ text: String) -> String? {
        switch self {
        case .text, .url, .photo, .binary:
            return nil
        case .email, .date:
            return text.utf8.allSatisfy { $0 < 0x80 } ? nil : "must be ASCII (IA5): write an internationalised domain in its xn-- form"
        case .phone:
            return text.allSatisfy({ FieldKind.printableCharacters.contains($0) })
                ? nil : "may contain only digits, letters, spaces and ' ( ) + , - . / : ?"
        case .distinguishedName, .integer, .boolean:
            return violation(of: LDAPValue(text), rules: .entered)
        }
    }

    /// JPEG files start with the SOI marker followed by another marker.
    static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    private static let atomCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")

    /// A dot-atom addr-spec (RFC 5322 section 3.4.1) in ASCII, with a domain of
    /// at least one dot-separated label of letters, digits and hyphens.
    static func emailViolation(_ text: String) -> String? {
        guard text.allSatisfy(\.isASCII) else {
            return "must be ASCII (IA5): write an internationalised domain in its xn-- form"
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "must have exactly one @, as in name@example.com" }
        let local = parts[0], domain = parts[1]
        guard !local.isEmpty, local.count <= 64,
              local.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ atom in
                  !atom.isEmpty && atom.allSatisfy { atomCharacters.contains($0) }
              })
        else { return "has an invalid part before the @" }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard domain.count <= 253, !labels.isEmpty, labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }) else { return "has an invalid domain after the @" }
        return nil
    }

    static let printableCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+,-./:? ")

    /// RFC 4517 Telephone Number: a PrintableString; we also ask for a digit.
    static func phoneViolation(_ text: String) -> String? {
        guard text.allSatisfy({ printableCharacters.contains($0) }) else {
            return "may contain only digits, letters, spaces and ' ( ) + , - . / : ?"
        }
        guard text.contains(where: { $0.isASCII && $0.isNumber }) else { return "must contain a digit" }
        return nil
    }

    /// `scheme:rest`, optionally followed by a space and a label (RFC 2079 labeledURI).
    static func urlViolation(_ text: String) -> String? {
        let uri = text.split(separator: " ", maxSplits: 1).first ?? ""
        guard let colon = uri.firstIndex(of: ":"), colon != uri.startIndex else {
            return "must be a URI with a scheme, such as https://example.com"
        }
        let scheme = uri[..<colon]
        guard scheme.first!.isASCII && scheme.first!.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              uri.index(after: colon) != uri.endIndex,
              uri.allSatisfy({ $0.isASCII && !$0.isWhitespace })
        else { return "must be a URI with a scheme, such as https://example.com" }
        return nil
    }

    /// `YYYY-MM-DD` (a real calendar date) or `--MM-DD`.
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        let year: Int?
        let rest: Int
        if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") {
            guard let y = number(0..<4) else { return false }
            year = y
            rest = 5
        } else if bytes.count == 7, bytes[0] == UInt8(ascii: "-"), bytes[1] == UInt8(ascii: "-"),
                  bytes[4] == UInt8(ascii: "-") {
            year = nil
            rest = 2
        } else {
            return false
        }
        guard let month = number(rest..<rest + 2), let day = number(rest + 3..<rest + 5),
              (1...12).contains(month), day >= 1 else { return false }
        let leap = year.map { ($0 % 4 == 0 && $0 % 100 != 0) || $0 % 400 == 0 } ?? true
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }
}
