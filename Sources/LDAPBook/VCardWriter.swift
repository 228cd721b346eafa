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
/// always gives.
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

    private static func append(_ card: VCard, to output: inout [UInt8]) {
        appendFolded(Array("BEGIN:VCARD".utf8), to: &output)
        appendFolded(Array("VERSION:\(card.version.rawValue)".utf8), to: &output)
        for property in card.properties where !["BEGIN", "END", "VERSION"].contains(property.name) {
            appendFolded(contentLine(property), to: &output)
        }
        appendFolded(Array("END:VCARD".utf8), to: &output)
    }

    /// One property as an unfolded content line.
    static func contentLine(_ property: VCardProperty) -> [UInt8] {
        var line = ""
        if let group = property.group, !group.isEmpty { line += group + "." }
        line += property.name
        for parameter in property.parameters {
            line += ";" + parameter.name + "=" + parameter.values.map(parameterValue).joined(separator: ",")
        }
        line += ":" + withoutLineBreaks(property.value)
        return Array(line.utf8)
    }

    /// A parameter value in its written form: RFC 6868 escapes, and quotes
    /// when it holds a character that would end it.
    private static func parameterValue(_ value: String) -> String {
        var encoded = String.UnicodeScalarView()
        var needsQuotes = false
        var scalars = value.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "^": encoded.append(contentsOf: "^^".unicodeScalars)
            case "\"": encoded.append(contentsOf: "^'".unicodeScalars)
            case "\r":
                encoded.append(contentsOf: "^n".unicodeScalars)
                if pending == "\n" { pending = scalars.next() }
            case "\n": encoded.append(contentsOf: "^n".unicodeScalars)
            case ":", ";", ",":
                needsQuotes = true
                encoded.append(scalar)
            default: encoded.append(scalar)
            }
        }
        return needsQuotes ? "\"" + String(encoded) + "\"" : String(encoded)
    }

    /// `value` with each line break written `\n`.
    private static func withoutLineBreaks(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { return value }
        return value.replacing("\r\n", with: "\\n").replacing("\r", with: "\\n").replacing("\n", with: "\\n")
    }

    /// Appends `line` folded into lines of at most ``maximumLineLength``
    /// octets, each ending in CRLF; continuation lines begin with a space.
    /// A fold never falls inside a UTF-8 sequence.
    static func appendFolded(_ line: [UInt8], to output: inout [UInt8]) {
        var start = 0
        var limit = maximumLineLength
        while line.count - start > limit {
            var end = start + limit
            while end > start + 1 && line[end] & 0xC0 == 0x80 { end -= 1 }
            output.append(contentsOf: line[start..<end])
            output.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = end
            limit = maximumLineLength - 1
        }
        output.append(contentsOf: line[start...])
        output.append(contentsOf: [0x0D, 0x0A])
    }
}
