import LDAPKit

/// Values compared as the directory compares them, closely enough to know which values a
/// person already has.
///
/// The form keeps apart whatever the server might tell apart: case is folded only for the
/// `caseIgnore…` rules, white space is squeezed only where the rules ignore it, and any
/// rule not listed compares bytes. Where the form is stricter than the server (it does not
/// normalise Unicode, say), a value the server already holds is sent again, and the server
/// keeps one; the form never makes two values equal that the server keeps apart, so no
/// value is ever left out.
enum ValueMatching {
    /// The comparable form of `value` under the equality rule `equality` (a name or OID).
    static func form(of value: LDAPValue, equality: String?) -> [UInt8] {
        guard let rule = equality.map(Rule.init), rule != .bytes, let text = value.string else { return value.bytes }
        switch rule {
        case .caseIgnore: return Array(squeezingSpaces(text).lowercased().utf8)
        case .caseExact: return Array(squeezingSpaces(text).utf8)
        case .telephoneNumber: return Array(String(text.filter { $0 != " " && $0 != "-" }).lowercased().utf8)
        case .numericString: return Array(text.filter { $0 != " " }.utf8)
        case .caseIgnoreList:
            let lines = text.split(separator: "$", omittingEmptySubsequences: false).map { line in
                squeezingSpaces(VCardPostalAddress.unescapeLine(line)).lowercased()
            }
            return Array(lines.joined(separator: "$").utf8)
        case .distinguishedName:
            guard let dn = try? DistinguishedName(parsing: text) else { return value.bytes }
            return Array(DNKey.of(dn).utf8)
        case .bytes: return value.bytes
        }
    }

    /// The rules ldapbook tells apart.
    enum Rule: Hashable {
        case caseIgnore, caseExact, telephoneNumber, numericString, caseIgnoreList, distinguishedName, bytes

        init(_ name: String) {
            switch name.lowercased() {
            case "caseignorematch", "2.5.13.2", "caseignoreia5match", "1.3.6.1.4.1.1466.109.114.2":
                self = .caseIgnore
            case "caseexactmatch", "2.5.13.5", "caseexactia5match", "1.3.6.1.4.1.1466.109.114.1":
                self = .caseExact
            case "telephonenumbermatch", "2.5.13.20": self = .telephoneNumber
            case "numericstringmatch", "2.5.13.8": self = .numericString
            case "caseignorelistmatch", "2.5.13.11": self = .caseIgnoreList
            case "distinguishednamematch", "2.5.13.1": self = .distinguishedName
            default: self = .bytes
            }
        }
    }

    /// `text` without leading and trailing spaces, and runs of spaces inside made one
    /// (the insignificant-space handling of RFC 4518).
    private static func squeezingSpaces(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}

extension Field {
    /// Whether the directory takes `first` and `second` for the same value of this field
    /// (as far as ``ValueMatching`` can tell; see there).
    func sameValue(_ first: LDAPValue, _ second: LDAPValue) -> Bool {
        first == second || ValueMatching.form(of: first, equality: equality) == ValueMatching.form(of: second, equality: equality)
    }
}

/// A DN as a key that names the same entry however its types and values are cased.
enum DNKey {
    /// `dn` with types and values in lower case and values trimmed.
    static func of(_ dn: DistinguishedName) -> String {
        dn.rdns.map { rdn in
            rdn.attributes.map { part in
                part.type.lowercased() + "=" + (part.value.string.map { $0.trimmingWhitespace().lowercased() }
                    ?? part.value.bytes.map { String($0, radix: 16) }.joined())
            }.sorted().joined(separator: "+")
        }.joined(separator: ",")
    }
}
