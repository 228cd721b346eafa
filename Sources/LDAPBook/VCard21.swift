import Foundation

/// Reading vCard 2.1 (Outlook, older phones) as the vCard 3.0 it can be written as: its
/// quoted-printable values decoded in the character set they name, `ENCODING=BASE64` as
/// `b`, bare type parameters (`TEL;CELL`) as TYPE values (as every card's are read).
enum VCard21 {
    /// The character sets a 2.1 card may name that are read (lowercased IANA names).
    private static let encodings: [String: String.Encoding] = [
        "utf-8": .utf8, "us-ascii": .ascii, "ascii": .ascii,
        "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "iso-8859-15": .isoLatin1,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252,
    ]

    /// The encoding a property's `CHARSET` names, UTF-8 when it names none; `nil` for one
    /// not read.
    static func encoding(named name: String?) -> String.Encoding? {
        guard let name else { return .utf8 }
        return encodings[name.lowercased()]
    }

    /// A content line that is not UTF-8, in UTF-8, when its parameters name the character
    /// set it is in (`N;CHARSET=ISO-8859-1:M\u{FC}ller`).
    static func transcoded(_ line: [UInt8]) -> [UInt8]? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let parameters = String(decoding: line[..<colon], as: UTF8.self)
        guard let range = parameters.range(of: "CHARSET=", options: .caseInsensitive) else { return nil }
        let name = parameters[range.upperBound...].prefix { $0 != ";" && $0 != ":" }
        guard let encoding = encoding(named: String(name)), encoding != .utf8,
              let text = String(data: Data(line), encoding: encoding) else { return nil }
        return Array(text.utf8)
    }

    /// `property` of a 2.1 card as a 3.0 property.
    ///
    /// - Throws: ``VCardError`` for a quoted-printable value that does not decode, or a
    ///   character set not read.
    static func upgraded(_ property: VCardProperty) throws(VCardError) -> VCardProperty {
        var upgraded = property
        let encoding = property.parameterValues("ENCODING").first?.lowercased()
            ?? (property.hasType("quoted-printable") ? "quoted-printable" : property.hasType("base64") ? "base64" : nil)
        let charset = property.parameterValues("CHARSET").first
        upgraded.parameters = property.parameters.compactMap { parameter -> VCardParameter? in
            switch parameter.name {
            case "ENCODING", "CHARSET": return nil
            case "TYPE":
                var kept = parameter
                kept.values = parameter.values.filter { !["quoted-printable", "base64", "8bit"].contains($0.lowercased()) }
                return kept.values.isEmpty ? nil : kept
            default: return parameter
            }
        }
        switch encoding {
        case "quoted-printable":
            guard let bytes = quotedPrintableDecoded(property.value) else {
                throw VCardError(line: property.line ?? 0, message: "\(property.name): the quoted-printable value does not decode")
            }
            guard let textEncoding = Self.encoding(named: charset), let text = String(data: Data(bytes), encoding: textEncoding) else {
                throw VCardError(line: property.line ?? 0,
                                 message: "\(property.name): CHARSET=\((charset ?? "").prefix(20)) is not a character set ldapbook reads")
            }
            // Line breaks are written as vCard 3.0 writes them; the rest stays as 2.1 wrote it.
            upgraded.value = text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\n")
        case "base64", "b":
            upgraded.parameters.append(VCardParameter("ENCODING", "b"))
        default:
            break
        }
        return upgraded
    }

    /// The bytes of a quoted-printable text (RFC 2045 6.7), soft line breaks already undone;
    /// `nil` when an `=` is not followed by two hexadecimal digits.
    static func quotedPrintableDecoded(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "=") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < input.count, let high = input[index + 1].hexDigitValue, let low = input[index + 2].hexDigitValue else {
                // A lone "=" at the very end is a soft break left over.
                if index == input.count - 1 { break }
                return nil
            }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }
}
