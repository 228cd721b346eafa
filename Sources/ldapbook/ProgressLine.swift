import Synchronization

/// One line of progress on a terminal's standard error, rewritten in place and cleared with
/// spaces: a carriage return and nothing else, so no escape sequence reaches the terminal.
final class ProgressLine: Sendable {
    /// How many characters the line now shows.
    private let shown = Mutex(0)

    /// Shows `text` in place of what the line showed.
    func show(_ text: String) {
        let padding = shown.withLock { shown in
            defer { shown = text.count }
            return max(shown - text.count, 0)
        }
        StandardStream.error.write("\r" + text + String(repeating: " ", count: padding))
    }

    /// Blanks the line, if it shows anything, and leaves the cursor at its start.
    func clear() {
        let count = shown.withLock { shown in
            defer { shown = 0 }
            return shown
        }
        if count > 0 { StandardStream.error.write("\r" + String(repeating: " ", count: count) + "\r") }
    }
}
