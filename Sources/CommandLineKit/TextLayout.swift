/// Lays out help text: wraps paragraphs to a width and sets two-column rows.
///
/// Widths count characters (grapheme clusters); a word longer than a line gets a line of its own.
enum TextLayout {
    /// Where rows start.
    static let indent = "  "
    /// Space between a row's label and its text.
    static let gap = 2
    /// The widest label that still shares its line with the text; longer labels get a line of their own.
    static let maximumLabelWidth = 24
    /// The narrowest text column beside the labels; on a page too narrow for it, every text goes
    /// below its label, indented by ``stackedIndent``.
    static let minimumTextWidth = 20
    /// Where texts start when they go below their labels.
    static let stackedIndent = 6

    /// Wraps text to the width: each line of the text (lines are separated by `\n`) becomes one
    /// or more lines of words. The first line starts with `prefix`, the others with `continuation`
    /// (`prefix` when not given).
    static func wrap(_ text: String, width: Int, prefix: String = "", continuation: String? = nil) -> [String] {
        let continuation = continuation ?? prefix
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            lines += wrap(words: words, width: width, prefix: lines.isEmpty ? prefix : continuation, continuation: continuation)
        }
        return lines
    }

    /// Sets words on lines of at most the width, one space apart; a word is never broken.
    /// The first line starts with `prefix`, the others with `continuation`.
    static func wrap(words: [String], width: Int, prefix: String, continuation: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = (lines.isEmpty ? prefix : continuation) + word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = continuation + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The width of the label column for the given labels: the widest label that shares its line
    /// with the text (labels wider than ``maximumLabelWidth`` get lines of their own).
    static func labelWidth(for labels: [String]) -> Int {
        labels.map(\.count).filter { $0 <= maximumLabelWidth }.max() ?? 0
    }

    /// Rows of a label and its text: the texts start in one column after `labelWidth` and wrap
    /// within it; a wider label has a line of its own, with its text below. When the page leaves
    /// less than ``minimumTextWidth`` beside the labels, every text goes below its label.
    static func rows(_ rows: [(label: String, text: String)], labelWidth: Int, width: Int) -> [String] {
        let besideColumn = indent.count + labelWidth + gap
        let isStacked = width - besideColumn < minimumTextWidth
        let column = isStacked ? stackedIndent : besideColumn
        let margin = String(repeating: " ", count: column)
        let textWidth = width - column
        var lines: [String] = []
        for row in rows {
            let label = indent + row.label
            var text = wrap(row.text, width: textWidth)
            if let first = text.first, !isStacked, row.label.count <= labelWidth {
                lines.append(label + String(repeating: " ", count: column - label.count) + first)
                text.removeFirst()
            } else {
                lines.append(label)
            }
            lines += text.map { margin + $0 }
        }
        return lines
    }

    /// Free text such as a discussion, indented: runs of lines form paragraphs that are wrapped;
    /// lines starting with a space or tab are kept as written; blank lines separate paragraphs.
    static func prose(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var paragraph: [Substring] = []
        func endParagraph() {
            if !paragraph.isEmpty {
                lines += wrap(paragraph.joined(separator: " "), width: width, prefix: indent)
                paragraph = []
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                endParagraph()
                if lines.last.map({ !$0.isEmpty }) ?? false { lines.append("") }
            } else if line.first == " " || line.first == "\t" {
                endParagraph()
                lines.append(indent + line)
            } else {
                paragraph.append(line)
            }
        }
        endParagraph()
        while lines.last == "" { lines.removeLast() }
        return lines
    }
}
