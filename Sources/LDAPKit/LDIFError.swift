/// A problem reading LDIF: what is wrong and on which line.
///
/// The message names attributes and quotes short pieces of the text, but
/// never a whole value, so it is safe to show even for binary or secret data:
///
///     line 12: invalid base64 value for jpegPhoto
public struct LDIFError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based number of the offending line; for a folded line, the
    /// number of its first physical line. 0 when the problem is not on a
    /// line, as when the file cannot be opened.
    public var line: Int

    /// What is wrong, without the line number.
    public var message: String

    /// Creates an error.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// The message after `line N: `, or the message alone when ``line`` is 0.
    public var description: String {
        line > 0 ? "line \(line): \(message)" : message
    }
}

extension LDIFError {
    /// How a piece of LDIF text is quoted in a message: in single quotes,
    /// at most 40 characters, with anything but printable ASCII shown as `?`.
    static func excerpt<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let limit = 40
        var text = "'"
        for byte in bytes.prefix(limit) {
            text.append((0x20...0x7E).contains(byte) ? Character(Unicode.Scalar(byte)) : "?")
        }
        text += bytes.count > limit ? "…'" : "'"
        return text
    }
}
