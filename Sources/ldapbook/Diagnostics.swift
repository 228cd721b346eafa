import CommandLineKit
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

    /// Writes `message` as one line, then each of `details` as a line of its own.
    static func say(_ message: String, details: [String]) {
        say(message)
        StandardStream.error.write(details.map { TerminalText.sanitized($0) + "\n" }.joined())
    }

    /// Writes what an error says, and the details that come with it: the usage line of a
    /// usage error, the choices a command needed.
    static func say(_ error: any Error, message: String) {
        switch error {
        case let usage as UsageError: say(message, details: [usage.usage, "  " + usage.helpHint])
        case let failure as CommandFailure: say(message, details: failure.details)
        default: say(message)
        }
    }

    /// `text` as a message quotes it: whole up to `limit` characters, otherwise its
    /// beginning and an ellipsis, so that a huge name or value never floods the terminal.
    static func quoting(_ text: String, limit: Int = 60) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        return text.prefix(limit) + "…"
    }
}
