import Foundation

/// JSON for standard output: Foundation's serialisation, with the C1 control characters
/// (U+0080 to U+009F) it leaves raw written as `\u00XX` escapes too, so that directory data
/// printed as JSON cannot drive a terminal (U+009B alone starts an escape sequence).
enum JSONOutput {
    static func data(_ object: Any, options: JSONSerialization.WritingOptions) throws -> Data {
        let json = try JSONSerialization.data(withJSONObject: object, options: options)
        // C1 controls are U+0080...U+009F: in UTF-8, 0xC2 followed by 0x80...0x9F.
        guard json.contains(0xC2) else { return json }
        var escaped = Data(capacity: json.count)
        var bytes = json.makeIterator()
        var previous: UInt8?
        while let byte = bytes.next() {
            if let lead = previous {
                previous = nil
                if (0x80...0x9F).contains(byte) {
                    escaped.append(contentsOf: Array(String(format: "\\u%04x", Int(byte)).utf8))
                    continue
                }
                escaped.append(lead)
            }
            if byte == 0xC2 {
                previous = byte
            } else {
                escaped.append(byte)
            }
        }
        if let lead = previous { escaped.append(lead) }
        return escaped
    }
}
