/// Makes text safe and fit to draw on a terminal.
///
/// Directory data is hostile: a `cn` may hold escape sequences that retitle the window, clear the
/// screen or move the cursor. Every string TerminalUI draws passes through `sanitized(_:)`.
public enum TerminalText {
    /// `text` with every character that could control the terminal replaced by a visible escape.
    ///
    /// - ESC becomes `^[`, the other C0 controls and DEL caret notation (`^M` for `\r`, `^?`
    ///   for DEL), as `cat -v` shows them.
    /// - C1 controls (U+0080–U+009F, such as the one-byte CSI U+009B), the bidirectional
    ///   overrides and isolates (which reorder what follows), and the line and paragraph
    ///   separators become U+FFFD.
    public static func sanitized(_ text: String) -> String {
        if isPrintableASCII(text) { return text }
        guard text.unicodeScalars.contains(where: needsReplacement) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1B:
                result.append(contentsOf: "^[".unicodeScalars)
            case 0x00..<0x20:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F:
                result.append(contentsOf: "^?".unicodeScalars)
            case _ where needsReplacement(scalar):
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The number of terminal columns `text` occupies once sanitised: wide East Asian
    /// characters and emoji take two, combining marks none.
    public static func displayWidth(_ text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        return DisplayWidth.of(sanitized(text))
    }

    /// Whether `text` is printable ASCII only, which is safe as it is and one column a byte:
    /// most names and addresses, which a table of thousands of people measures without
    /// breaking them into characters.
    static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { (0x20...0x7E).contains($0) } }
            ?? text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// `text`, sanitised and cut to at most `width` columns; when it is cut, its last column
    /// is an ellipsis (…).
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        fitted(sanitized(text), toWidth: width)
    }

    /// Sanitised `text` cut to at most `width` columns, ending with … when cut.
    static func fitted(_ clean: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard DisplayWidth.of(clean) > width else { return clean }
        var result = ""
        var used = 0
        for character in clean {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// Sanitised `text` split into lines of at most `width` columns, breaking at spaces where
    /// it can.
    static func wrapped(_ text: String, toWidth width: Int) -> [String] {
        let clean = sanitized(text)
        guard width > 0, DisplayWidth.of(clean) > width else { return [clean] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in clean.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(word)
            let separator = line.isEmpty ? 0 : 1
            if lineWidth + separator + wordWidth <= width {
                if separator == 1 { line.append(" ") }
                line += word
                lineWidth += separator + wordWidth
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            lineWidth = 0
            for character in word {
                let columns = DisplayWidth.of(character)
                if lineWidth + columns > width, !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += columns
            }
        }
        lines.append(line)
        return lines
    }

    private static func needsReplacement(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }
}
