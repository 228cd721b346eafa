/// A distinguished name parsed as RFC 4514 writes it, enough to build the suffix entry
/// and to compare the DN slapd reports with the configured one.
struct DistinguishedName: Equatable {
    /// One `type=value` pair of a relative distinguished name.
    struct Attribute: Equatable {
        /// The attribute type as written, e.g. `dc`.
        var type: String
        /// The value with escapes (`\,` and `\2C`) resolved.
        var value: String
    }

    /// The relative distinguished names, leftmost first; each holds one pair, or several
    /// for a multi-valued RDN such as `cn=a+sn=b`.
    var relativeNames: [[Attribute]]

    /// Parses `text`; returns `nil` when it is not a distinguished name.
    init?(_ text: String) {
        var relativeNames: [[Attribute]] = []
        var current: [Attribute] = []
        var type: [UInt8] = []
        var value: [UInt8] = []
        var readingValue = false
        var escapedValueEnd = 0
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else {
            self.relativeNames = []
            return
        }

        func finishAttribute() -> Bool {
            let typeText = Self.trimmingTrailingSpaces(type, keepingFirst: 0)
            let valueText = Self.trimmingTrailingSpaces(value, keepingFirst: escapedValueEnd)
            guard readingValue, !typeText.isEmpty, typeText.utf8.allSatisfy(Self.isTypeCharacter) else { return false }
            current.append(Attribute(type: typeText, value: valueText))
            type = []
            value = []
            readingValue = false
            escapedValueEnd = 0
            return true
        }

        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "=") where !readingValue:
                readingValue = true
            case UInt8(ascii: "\\") where readingValue:
                guard index + 1 < bytes.count else { return nil }
                if index + 2 < bytes.count,
                   let high = Self.hexValue(bytes[index + 1]),
                   let low = Self.hexValue(bytes[index + 2]) {
                    value.append(high << 4 | low)
                    index += 2
                } else {
                    value.append(bytes[index + 1])
                    index += 1
                }
                escapedValueEnd = value.count
            case UInt8(ascii: "+"):
                guard finishAttribute() else { return nil }
            case UInt8(ascii: ","), UInt8(ascii: ";"):
                guard finishAttribute() else { return nil }
                relativeNames.append(current)
                current = []
            case UInt8(ascii: " ") where readingValue ? value.isEmpty : type.isEmpty:
                break
            default:
                if readingValue {
                    value.append(byte)
                } else {
                    type.append(byte)
                }
            }
            index += 1
        }
        guard finishAttribute() else { return nil }
        relativeNames.append(current)
        self.relativeNames = relativeNames
    }

    /// The DN in a form equal for DNs that differ only in letter case, escaping, or
    /// spaces around separators.
    var canonicalForm: String {
        relativeNames.map { relativeName in
            relativeName.map { "\($0.type.lowercased())=\($0.value.lowercased())" }.joined(separator: "+")
        }.joined(separator: ",")
    }

    /// The decoded bytes without trailing spaces, keeping the first `kept` bytes (which
    /// end with the last escaped character) whatever they are.
    private static func trimmingTrailingSpaces(_ bytes: [UInt8], keepingFirst kept: Int) -> String {
        var end = bytes.count
        while end > kept, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    private static func isTypeCharacter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
