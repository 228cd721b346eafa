import Foundation
import TerminalUI

/// Messages for the user on standard error, `ldapbook: ` first. They quote user input and
/// directory data, so every one goes through the terminal sanitiser: neither can drive
/// the terminal.
enum Diagnostics {
    /// Writes `message` as one line.
    static func say(_ message: String) {
        StandardStream.error.write("ldapbook: \(TerminalText.sanitized(message))\n")
    }

    /// `text` as a message quotes it: whole up to `limit` characters, otherwise its
    /// beginning and an ellipsis, so that a huge name or value never floods the terminal.
    static func quoting(_ text: String, limit: Int = 60) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        return text.prefix(limit) + "…"
    }
}
