import Foundation

/// Formatting of single LDIF attribute lines (RFC 2849).
enum LDIFLine {
    /// Returns `attribute: value`, or `attribute:: base64` when the value cannot be written
    /// as is (non-ASCII, control characters, or a leading space, colon or less-than sign).
    static func attribute(_ attribute: String, _ value: String) -> String {
        if isSafe(value) {
            return "\(attribute): \(value)"
        }
        return "\(attribute):: \(Data(value.utf8).base64EncodedString())"
    }

    /// Tells whether `value` is an LDIF SAFE-STRING that needs no Base64.
    static func isSafe(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard let first = bytes.first else { return true }
        if first == UInt8(ascii: " ") || first == UInt8(ascii: ":") || first == UInt8(ascii: "<") {
            return false
        }
        if bytes.last == UInt8(ascii: " ") {
            return false
        }
        return bytes.allSatisfy { $0 > 0 && $0 < 128 && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
    }
}
