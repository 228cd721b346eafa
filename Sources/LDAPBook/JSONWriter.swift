import LDAPKit

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

    /// A writer that goes on after what `bytes` holds, which it takes over (without a copy)
    /// until ``end(into:)`` gives it back: each record of an export is written straight
    /// into the output, as a value of its own.
    public init(appendingTo bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    /// Gives what has been written back to the buffer it was taken from.
    public mutating func end(into bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

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

    /// Writes the text of `value` as a string; bytes that are not UTF-8 become U+FFFD, as in
    /// ``LDAPKit/LDAPValue/lossyString``.
    public mutating func string(_ value: LDAPValue) {
        guard value.isUTF8 else { return string(value.lossyString) }
        separate()
        value.withUnsafeBufferPointer { appendString($0) }
    }

    /// Writes the text of `value` as a string when it is UTF-8, else its bytes in base64
    /// (``base64(_:)``), checking its bytes once.
    public mutating func textOrBase64(_ value: LDAPValue) {
        guard value.isUTF8 else { return base64(value) }
        separate()
        value.withUnsafeBufferPointer { appendString($0) }
    }

    /// Writes `value`'s bytes in base64 as a string.
    public mutating func base64(_ value: LDAPValue) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        Base64.encode(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
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

    /// Writes the elements of `array`, a JSON array another writer wrote (`[…]`), as the next
    /// elements of the array being written: parts of one array written at once, put together.
    public mutating func elements(ofArray array: [UInt8]) {
        precondition(array.first == UInt8(ascii: "[") && array.last == UInt8(ascii: "]"), "not a JSON array")
        guard array.count > 2 else { return }
        separate()
        bytes.append(contentsOf: array[1..<(array.count - 1)])
    }

    /// Writes `value`, a whole JSON value another writer wrote, as the next value.
    public mutating func value(json value: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: value)
    }

    /// Writes an array of strings.
    public mutating func strings(_ texts: [String]) {
        beginArray()
        for text in texts { string(text) }
        endArray()
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString($0) }
    }

    /// Appends `utf8` (valid UTF-8) as a JSON string: the runs that need no escape are
    /// copied whole. Read in place rather than through `String.UTF8View`'s iterator: the JSON
    /// export of 100,000 people spent 14% of its time in the iterator's escaping
    /// (BENCHMARKS.md, workload 5).
    private mutating func appendString(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var run = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            let escape: UInt8?
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape = byte
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            case 0x09: escape = UInt8(ascii: "t")
            case 0x00..<0x20, 0x7F: escape = 0
            // U+0080...U+009F are 0xC2 0x80...0x9F in UTF-8.
            case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]): escape = 0
            default: escape = nil
            }
            guard let escape else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
            if escape != 0 {
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(escape)
                index += 1
            } else if byte == 0xC2 {
                appendEscape(UInt16(utf8[index + 1]))
                index += 2
            } else {
                appendEscape(UInt16(byte))
                index += 1
            }
            run = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ code: UInt16) {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                  Self.hex[Int(code >> 4)], Self.hex[Int(code & 0xF)]])
    }
}
