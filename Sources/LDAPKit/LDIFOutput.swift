/// LDIF text built line by line: each value written plainly or in base64
/// as RFC 2849 requires, and lines longer than 76 bytes folded.
struct LDIFOutput {
    /// The longest line written, in bytes; longer lines are folded.
    static let lineLength = 76

    /// The text so far.
    private(set) var bytes: [UInt8] = []
    /// The line being built, reused to save allocations.
    private var line: [UInt8] = []

    /// Output that starts empty.
    init() {}

    /// Output that goes on after what `bytes` holds, which it takes over (without a copy)
    /// until ``end(into:)`` gives it back.
    init(appendingTo bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    /// Gives the text back to the buffer it was taken from.
    mutating func end(into bytes: inout [UInt8]) {
        swap(&self.bytes, &bytes)
    }

    /// Appends `name: value`, or `name:: base64` when the value is not
    /// ``isSafe(_:)``; an empty value is written as `name:`.
    mutating func appendLine(_ name: String, _ value: [UInt8]) {
        value.withUnsafeBufferPointer { appendLine(name, $0) }
    }

    /// Appends `name: value` as ``appendLine(_:_:)-([UInt8])`` does, reading the value where it is.
    mutating func appendLine(_ name: String, _ value: LDAPValue) {
        value.withUnsafeBufferPointer { appendLine(name, $0) }
    }

    /// Appends `name: value`, or `name:: base64`, from the bytes where they are.
    private mutating func appendLine(_ name: String, _ value: UnsafeBufferPointer<UInt8>) {
        // Most lines are short and printable: written straight to the output, where building
        // each in ``line`` and copying it over took a fifth of an LDIF export's instructions
        // (callgrind, 10,000 people, BENCHMARKS.md workload 5).
        if name.utf8.count + 2 + value.count <= Self.lineLength && Self.isSafe(value) {
            var name = name
            name.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(UInt8(ascii: ":"))
            if !value.isEmpty {
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: value)
            }
            bytes.append(UInt8(ascii: "\n"))
            return
        }
        line.removeAll(keepingCapacity: true)
        var name = name
        name.withUTF8 { line.append(contentsOf: $0) }
        line.append(UInt8(ascii: ":"))
        Self.appendValueSpec(value, to: &line)
        appendFolded(line)
    }

    /// Appends `name: text`, or its base64 form when the text is not safe as it is.
    mutating func appendLine(_ name: String, _ text: String) {
        appendLine(name, Array(text.utf8))
    }

    /// Appends a line of ASCII text as it is, such as `-`.
    mutating func appendLine(_ text: String) {
        appendFolded(Array(text.utf8))
    }

    /// Appends the empty line that ends a record.
    mutating func appendEmptyLine() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends the RFC 2849 `value-spec` of `value` to `line`: ` value`,
    /// `: base64`, or nothing for the empty value.
    static func appendValueSpec(_ value: [UInt8], to line: inout [UInt8]) {
        value.withUnsafeBufferPointer { appendValueSpec($0, to: &line) }
    }

    /// ``appendValueSpec(_:to:)-([UInt8],_)`` of bytes where they are.
    static func appendValueSpec(_ value: UnsafeBufferPointer<UInt8>, to line: inout [UInt8]) {
        if value.isEmpty { return }
        if Self.isSafe(value) {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: value)
        } else {
            line.append(contentsOf: ": ".utf8)
            Base64.encode(value, to: &line)
        }
    }

    /// Whether `value` may be written as it is: printable ASCII only, not
    /// starting with a space, `:` or `<`, and not ending with a space.
    ///
    /// RFC 2849 requires base64 for values starting with a space, `:` or
    /// `<`, and for NUL, CR, LF and bytes above 127 (so non-ASCII UTF-8
    /// too); it recommends it for a trailing space. Other control characters
    /// are written in base64 as well, so that the text stays readable and
    /// no tool on the way can alter them.
    static func isSafe(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, let last = value.last else { return true }
        switch first {
        case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "<"): return false
        default: break
        }
        return last != UInt8(ascii: " ") && value.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Appends `line` and a newline, folded (RFC 2849 note 2) into lines of
    /// at most ``lineLength`` bytes, each continuation starting with a space.
    /// A fold never splits a UTF-8 sequence.
    private mutating func appendFolded(_ line: [UInt8]) {
        var start = 0
        var room = Self.lineLength
        while line.count - start > room {
            var end = start + room
            while end > start, line[end] & 0xC0 == 0x80 { end -= 1 }
            if end == start { end = start + room }
            bytes.append(contentsOf: line[start..<end])
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(UInt8(ascii: " "))
            start = end
            room = Self.lineLength - 1
        }
        bytes.append(contentsOf: line[start...])
        bytes.append(UInt8(ascii: "\n"))
    }
}
