/// One line of a prompt: runs of sanitised text, each with a style.
///
/// Text enters a line only through `append(_:_:)`, which sanitises it, so nothing drawn can
/// carry a control character to the terminal.
struct StyledLine: Equatable, Sendable {
    /// A run of sanitised text in one style.
    struct Run: Equatable, Sendable {
        /// The text, already sanitised.
        var text: String
        /// How it is drawn.
        var style: TextStyle
    }

    /// The runs, in order.
    private(set) var runs: [Run] = []

    /// An empty line.
    init() {}

    /// A line holding `text` in `style`.
    init(_ text: String, _ style: TextStyle = []) {
        append(text, style)
    }

    /// Adds `text`, sanitised, in `style`.
    mutating func append(_ text: String, _ style: TextStyle = []) {
        let clean = TerminalText.sanitized(text)
        guard !clean.isEmpty else { return }
        runs.append(Run(text: clean, style: style))
    }

    /// The text without styles.
    var plainText: String { runs.map(\.text).joined() }

    /// The columns the line occupies.
    var width: Int { runs.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// The line as bytes for the terminal: cut to `width` columns (the last one an ellipsis when
    /// cut), each styled run wrapped in SGR sequences.
    func rendered(width: Int, usesColor: Bool) -> String {
        var output = ""
        var remaining = width
        let isCut = self.width > width
        for run in runs {
            guard remaining > 0 else { break }
            let isLastShown = isCut && DisplayWidth.of(run.text) >= remaining
            let text = isLastShown ? TerminalText.fitted(run.text + "…", toWidth: remaining) : run.text
            remaining -= DisplayWidth.of(text)
            if let parameters = run.style.graphicRendition(usesColor: usesColor) {
                output += "\u{1B}[\(parameters)m\(text)\u{1B}[0m"
            } else {
                output += text
            }
            if isLastShown { break }
        }
        return output
    }
}
