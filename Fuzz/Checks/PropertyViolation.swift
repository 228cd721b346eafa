/// A property that does not hold for an input: what was expected, and the
/// values involved, shown with their bytes escaped.
public struct PropertyViolation: Error, CustomStringConvertible {
    /// What went wrong, with the values involved.
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    /// Throws when `condition` is false.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyViolation) {
        if !condition { throw PropertyViolation(message()) }
    }
}

/// How bytes are shown in a violation: as a Swift string literal, with
/// anything but printable ASCII as `\u{..}` or `\x..`, cut after 300 bytes.
func shown<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    var text = "\""
    for byte in bytes.prefix(300) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += "\\" + String(UnicodeScalar(byte))
        case 0x20...0x7E: text += String(UnicodeScalar(byte))
        default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return text + (bytes.count > 300 ? "\"… (\(bytes.count) bytes)" : "\"")
}

/// How text is shown in a violation; see ``shown(_:)-(Bytes)``.
func shown(_ text: String) -> String {
    shown(Array(text.utf8))
}
