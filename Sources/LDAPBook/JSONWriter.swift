/// Writes JSON (RFC 8259) as it goes, into a byte buffer: no tree of values first.
///
/// Strings are escaped as JSON requires (quote, backslash, the C0 controls) and the C1
/// controls (U+0080 to U+009F) and DEL are written as `\u00XX` too, so that directory data
/// printed as JSON cannot drive a terminal (U+009B alone starts an escape sequence). Commas
/// are placed by the writer: call ``key(_:)`` before each member's value in an object.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.key("name"); json.string("Ada")
/// json.key("emails"); json.beginArray(); json.string("ada@example.com"); json.endArray()
/// json.endObject()
/// // json.bytes: {"name":"Ada","emails":["ada@example.com"]}
/// ```
public struct JSONWriter: Sendable {
    /// What has been written.
    public private(set) var bytes: [UInt8] = []
    /// Per open array or object: whether a value was written in it already.
    private var written: [Bool] = []
    /// Whether a key was just written, so the next value needs no comma.
    private var afterKey = false

    /// An empty writer.
    public init() {}

    /// Takes what has been written, leaving the buffer empty (for writing out in pieces).
    public mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = written.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            written[written.count - 1] = true
        }
    }

    /// Starts an object.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        written.append(false)
    }

    /// Ends the innermost object.
    public mutating func endObject() {
        written.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts an array.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        written.append(false)
    }

    /// Ends the innermost array.
    public mutating func endArray() {
        written.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a member's name; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string.
    public mutating func string(_ text: String) {
        separate()
        appendString(text)
    }

    /// Writes a string, or `null` for `nil`.
    public mutating func string(_ text: String?) {
        guard let text else { return null() }
        string(text)
    }

    /// Writes a whole number.
    public mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes an array of strings.
    public mutating func strings(_ texts: [String]) {
        beginArray()
        for text in texts { string(text) }
        endArray()
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F: appendEscape(UInt16(byte))
            case 0xC2:
                // U+0080...U+009F are 0xC2 0x80...0x9F in UTF-8.
                guard let next = utf8.next() else {
                    bytes.append(byte)
                    break
                }
                if (0x80...0x9F).contains(next) {
                    appendEscape(UInt16(next))
                } else {
                    bytes.append(byte)
                    bytes.append(next)
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ code: UInt16) {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                  Self.hex[Int(code >> 4)], Self.hex[Int(code & 0xF)]])
    }
}
