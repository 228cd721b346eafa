import LDAPKit

/// Writes vCards as files other address books read: `BEGIN:VCARD`, then
/// `VERSION`, the properties in order, and `END:VCARD`; UTF-8, CRLF line
/// endings, and lines folded at 75 octets (RFC 6350 section 3.2) without
/// splitting a UTF-8 sequence.
///
/// Property values are written as they are (``VCardProperty/value`` is
/// already escaped; build text values with ``VCardProperty/init(group:name:parameters:text:)``),
/// except that a line break, which would end the line, is written `\n`.
/// Parameter values are quoted when they hold `:`, `;` or `,`, with RFC
/// 6868's `^` escapes for line breaks, `"` and `^`.
///
/// The writer does not add properties: a card needs `FN` (and, for vCard
/// 3.0, `N`) to be valid, which ``VCard/init(person:registry:version:)``
/// always gives. People are written straight into an output by ``VCardExport``,
/// through the same content lines.
public enum VCardWriter {
    /// The longest line in octets, without its CRLF.
    public static let maximumLineLength = 75

    /// `card` as text.
    public static func write(_ card: VCard) -> String {
        var output: [UInt8] = []
        append(card, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `cards` as the text of one file, one after the other.
    public static func write(_ cards: [VCard]) -> String {
        var output: [UInt8] = []
        for card in cards { append(card, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `card` to `output`.
    public static func append(_ card: VCard, to output: inout [UInt8]) {
        var line = VCardContentLineWriter()
        line.beginCard(version: card.version, to: &output)
        for property in card.properties where !["BEGIN", "END", "VERSION"].contains(property.name) {
            line.write(property, to: &output)
        }
        line.endCard(to: &output)
    }

    /// One property as an unfolded content line.
    static func contentLine(_ property: VCardProperty) -> [UInt8] {
        var line = VCardContentLineWriter()
        line.begin(property.name, group: property.group)
        for parameter in property.parameters {
            line.parameter(parameter.name, parameter.values)
        }
        line.value(rawWithLineBreaks: Array(property.value.utf8))
        return line.bytes
    }
}

/// Writes content lines (`group.NAME;PARAM=value:value`) one piece at a time into a
/// line it keeps, and folds each whole line into an output: properties, parameters and
/// values go from the directory's bytes into the file without a `String` or a
/// ``VCardProperty`` in between.
///
/// ```swift
/// var line = VCardContentLineWriter()
/// line.begin("TEL")
/// line.parameter("TYPE", ["work", "voice"])
/// line.value(text: number)        // escaped: \, ; and , and line breaks
/// line.end(to: &output)           // folded at 75 octets, CRLF
/// ```
struct VCardContentLineWriter {
    /// The line being written, unfolded and without its CRLF.
    private(set) var bytes: [UInt8] = []
    /// Whether the value has begun (its `:` is written).
    private var inValue = false

    /// Starts a content line: the group, if any, and the name in uppercase.
    mutating func begin(_ name: String, group: String? = nil) {
        bytes.removeAll(keepingCapacity: true)
        inValue = false
        if let group, !group.isEmpty {
            bytes.append(contentsOf: group.utf8)
            bytes.append(UInt8(ascii: "."))
        }
        appendUppercased(name)
    }

    /// Adds a parameter: `;NAME=value,value`, each value with RFC 6868's escapes, quoted
    /// when it holds `:`, `;` or `,`.
    mutating func parameter(_ name: String, _ values: [String]) {
        bytes.append(UInt8(ascii: ";"))
        appendUppercased(name)
        bytes.append(UInt8(ascii: "="))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendParameterValue(value)
        }
    }

    /// Adds a parameter with one value.
    mutating func parameter(_ name: String, _ value: String) {
        parameter(name, [value])
    }

    /// Appends a text value (or one more piece of a list or structured value) escaped:
    /// `\` before `\`, `,` and `;`, and `\n` for each line break (CRLF, LF or CR). Byte by byte
    /// is scalar by scalar here: the characters escaped are ASCII, which UTF-8 never uses
    /// inside another character.
    mutating func value(text: LDAPValue) {
        text.withUnsafeBufferPointer { value(text: $0) }
    }

    /// Appends a text value given as a string, escaped as ``value(text:)-(LDAPValue)``.
    mutating func value(text: String) {
        var text = text
        text.withUTF8 { value(text: $0) }
    }

    private mutating func value(text: UnsafeBufferPointer<UInt8>) {
        startValue()
        // The runs between the characters escaped are copied whole.
        var run = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: ";"):
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0D, 0x0A:
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "n"))
                if byte == 0x0D, index + 1 < text.count, text[index + 1] == 0x0A { index += 1 }
            default:
                index += 1
                continue
            }
            index += 1
            run = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[run..<index]))
    }

    /// Appends a separator of a list (`,`) or of a structured value's components (`;`).
    mutating func value(separator: UInt8) {
        startValue()
        bytes.append(separator)
    }

    /// Appends a value as it is written (already escaped, a URI or a date), with each line
    /// break, which would end the line, written `\n`.
    mutating func value(rawWithLineBreaks raw: [UInt8]) {
        startValue()
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == 0x0D || byte == 0x0A {
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                if byte == 0x0D, index + 1 < raw.count, raw[index + 1] == 0x0A { index += 1 }
            } else {
                bytes.append(byte)
            }
            index += 1
        }
    }

    /// Appends `raw` as it is: ASCII that needs no escape (`data:image/jpeg;base64,`).
    mutating func value(ascii raw: String) {
        startValue()
        bytes.append(contentsOf: raw.utf8)
    }

    /// Appends ASCII `raw` in lower case, as it is otherwise (an `entryUUID`).
    mutating func value(asciiLowercased raw: LDAPValue) {
        startValue()
        raw.withUnsafeBufferPointer { raw in
            for byte in raw { bytes.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte) }
        }
    }

    /// Appends the base64 of `data`.
    mutating func value(base64 data: LDAPValue) {
        startValue()
        Base64.encode(data, to: &bytes)
    }

    /// Writes a property of a card as ``VCardWriter`` writes it.
    mutating func write(_ property: VCardProperty, to output: inout [UInt8]) {
        begin(property.name, group: property.group)
        for parameter in property.parameters {
            self.parameter(parameter.name, parameter.values)
        }
        value(rawWithLineBreaks: Array(property.value.utf8))
        end(to: &output)
    }

    /// `BEGIN:VCARD` and the `VERSION` line.
    func beginCard(version: VCardVersion, to output: inout [UInt8]) {
        output.append(contentsOf: version == .v4 ? Self.beginning4 : Self.beginning3)
    }

    /// `END:VCARD`.
    func endCard(to output: inout [UInt8]) {
        output.append(contentsOf: Self.ending)
    }

    private static let beginning4 = Array("BEGIN:VCARD\r\nVERSION:4.0\r\n".utf8)
    private static let beginning3 = Array("BEGIN:VCARD\r\nVERSION:3.0\r\n".utf8)
    private static let ending = Array("END:VCARD\r\n".utf8)

    /// Ends the line: appends it to `output` folded into lines of at most
    /// ``VCardWriter/maximumLineLength`` octets, each ending in CRLF; continuation lines
    /// begin with a space. A fold never falls inside a UTF-8 sequence.
    mutating func end(to output: inout [UInt8]) {
        startValue()
        var start = 0
        var limit = VCardWriter.maximumLineLength
        while bytes.count - start > limit {
            var end = start + limit
            while end > start + 1 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            output.append(contentsOf: bytes[start..<end])
            output.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = end
            limit = VCardWriter.maximumLineLength - 1
        }
        output.append(contentsOf: bytes[start...])
        output.append(contentsOf: [0x0D, 0x0A])
    }

    private mutating func startValue() {
        if !inValue {
            bytes.append(UInt8(ascii: ":"))
            inValue = true
        }
    }

    /// Appends `name` in uppercase: ASCII letters by themselves, anything else as
    /// `uppercased()` has it.
    private mutating func appendUppercased(_ name: String) {
        var name = name
        let ascii = name.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 >= 0x80 }) else { return false }
            for byte in utf8 { bytes.append((UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 0x20 : byte) }
            return true
        }
        if !ascii { bytes.append(contentsOf: name.uppercased().utf8) }
    }

    /// A parameter value in its written form: RFC 6868 escapes, and quotes when it holds a
    /// character that would end it.
    private mutating func appendParameterValue(_ value: String) {
        let needsQuotes = value.utf8.contains { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") }
        if needsQuotes { bytes.append(UInt8(ascii: "\"")) }
        var utf8 = value.utf8.makeIterator()
        var pending = utf8.next()
        while let byte = pending {
            pending = utf8.next()
            switch byte {
            case UInt8(ascii: "^"): bytes.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "^")])
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "'")])
            case 0x0D:
                bytes.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "n")])
                if pending == 0x0A { pending = utf8.next() }
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "^"), UInt8(ascii: "n")])
            default: bytes.append(byte)
            }
        }
        if needsQuotes { bytes.append(UInt8(ascii: "\"")) }
    }
}
