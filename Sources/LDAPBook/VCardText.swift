/// The escaping of vCard text values (RFC 6350 section 3.4, RFC 2426
/// section 5): a backslash before `\`, `,` and `;`, and `\n` for a line
/// break.
///
/// Everything here works on Unicode scalars, so a combining mark after a
/// comma never hides the comma.
enum VCardText {
    /// `text` escaped for a text value: `\\`, `\,`, `\;`, and `\n` for every
    /// line break (CRLF, LF or CR).
    static func escape(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\\", ",", ";":
                output.append("\\")
                output.append(scalar)
            case "\r":
                output.append(contentsOf: "\\n".unicodeScalars)
                if pending == "\n" { pending = scalars.next() }
            case "\n":
                output.append(contentsOf: "\\n".unicodeScalars)
            default:
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// The text a raw value stands for: `\n` and `\N` become a line feed,
    /// `\\`, `\,`, `\;` and `\:` the character after the backslash. Other
    /// backslashes, which the RFCs do not allow, are kept as they are.
    static func unescape<Raw: StringProtocol>(_ raw: Raw) -> String {
        var output = String.UnicodeScalarView()
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                escaped = false
                switch scalar {
                case "n", "N": output.append("\n")
                case "\\", ",", ";", ":": output.append(scalar)
                default:
                    output.append("\\")
                    output.append(scalar)
                }
            } else if scalar == "\\" {
                escaped = true
            } else {
                output.append(scalar)
            }
        }
        if escaped { output.append("\\") }
        return String(output)
    }

    /// The pieces of a raw value between the separators that are not
    /// escaped, still escaped themselves.
    static func split<Raw: StringProtocol>(_ raw: Raw, on separator: Unicode.Scalar) -> [String] {
        var pieces: [String] = []
        var piece = String.UnicodeScalarView()
        var escaped = false
        for scalar in raw.unicodeScalars {
            if escaped {
                escaped = false
                piece.append(scalar)
            } else if scalar == "\\" {
                escaped = true
                piece.append(scalar)
            } else if scalar == separator {
                pieces.append(String(piece))
                piece = String.UnicodeScalarView()
            } else {
                piece.append(scalar)
            }
        }
        pieces.append(String(piece))
        return pieces
    }
}
