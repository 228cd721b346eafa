/// Reads one unfolded content line:
/// `[group "."] name *(";" param) ":" value` (RFC 6350 section 3.3).
///
/// Names compare case-insensitively; parameter values may be quoted with
/// `"` and use RFC 6868's `^n`, `^'` and `^^`; a parameter without a name
/// (`TEL;WORK:...`, as older vCard 3.0 writers put it) is a `TYPE`.
enum VCardContentLine {
    private static let colon = UInt8(ascii: ":"), semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ",")
    private static let dot = UInt8(ascii: "."), equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")

    /// The property `line` holds.
    static func parse(_ line: VCardLogicalLine) -> Result<VCardProperty, VCardError> {
        func failure(_ message: String) -> Result<VCardProperty, VCardError> {
            .failure(VCardError(line: line.number, message: message))
        }
        var bytes = line.bytes
        if String(validating: bytes, as: UTF8.self) == nil {
            // vCard 2.1 names a line's character set (CHARSET=windows-1252): such a line is
            // read in it. Any other must be UTF-8.
            guard let transcoded = VCard21.transcoded(bytes) else {
                return failure("the line is not valid UTF-8 (vCard 3.0 and 4.0 files are UTF-8)")
            }
            bytes = transcoded
        }
        var index = 0
        func readName() -> String {
            let start = index
            while index < bytes.count && ![dot, semicolon, colon].contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        var group: String?
        var name = readName()
        if index < bytes.count && bytes[index] == dot {
            group = name
            index += 1
            name = readName()
            if index < bytes.count && bytes[index] == dot {
                return failure("\"\(shown(bytes))\" has more than one group before its name")
            }
        }
        if let group, !isName(group) {
            return failure("\"\(group.prefix(40))\" is not a group name (letters, digits and -)")
        }
        guard isName(name) else {
            if index >= bytes.count { return failure("\"\(shown(bytes))\" is not a property: it has no \":\"") }
            return failure("\"\(name.prefix(40))\" is not a property name (letters, digits and -)")
        }

        var parameters: [VCardParameter] = []
        while index < bytes.count && bytes[index] == semicolon {
            index += 1
            let start = index
            while index < bytes.count && ![equals, semicolon, colon].contains(bytes[index]) { index += 1 }
            let parameterName = String(decoding: bytes[start..<index], as: UTF8.self)
            guard isName(parameterName) else {
                return failure("\(name) has a parameter \"\(parameterName.prefix(40))\" whose name is not letters, digits and -")
            }
            guard index < bytes.count, bytes[index] == equals else {
                parameters.append(VCardParameter("TYPE", parameterName))
                continue
            }
            var values: [String] = []
            repeat {
                index += 1
                if index < bytes.count && bytes[index] == quote {
                    guard let close = bytes[(index + 1)...].firstIndex(of: quote) else {
                        return failure("\(name) has a parameter \(parameterName) whose quoted value has no closing \"")
                    }
                    values.append(decodeCircumflex(bytes[(index + 1)..<close]))
                    index = close + 1
                } else {
                    let valueStart = index
                    while index < bytes.count && ![comma, semicolon, colon].contains(bytes[index]) { index += 1 }
                    values.append(decodeCircumflex(bytes[valueStart..<index]))
                }
            } while index < bytes.count && bytes[index] == comma
            parameters.append(VCardParameter(parameterName, values))
        }
        guard index < bytes.count, bytes[index] == colon else {
            return failure("\(name) has no \":\" before its value")
        }
        let value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        return .success(VCardProperty(group: group, name: name, parameters: parameters, value: value,
                                      line: line.number))
    }

    /// Whether `text` is a name: ASCII letters, digits, `-` and `_`.
    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
    }

    /// The start of a line, for messages.
    private static func shown(_ bytes: [UInt8]) -> String {
        String(String(decoding: bytes, as: UTF8.self).prefix(40))
    }

    /// A parameter value with RFC 6868's escapes undone: `^n` is a line
    /// feed, `^'` a double quote and `^^` a circumflex; any other `^` stays.
    private static func decodeCircumflex(_ bytes: ArraySlice<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "^"), index + 1 < bytes.endIndex {
                switch bytes[index + 1] {
                case UInt8(ascii: "n"), UInt8(ascii: "N"):
                    output.append(UInt8(ascii: "\n"))
                    index += 2
                    continue
                case UInt8(ascii: "'"):
                    output.append(quote)
                    index += 2
                    continue
                case UInt8(ascii: "^"):
                    output.append(UInt8(ascii: "^"))
                    index += 2
                    continue
                default:
                    break
                }
            }
            output.append(byte)
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
