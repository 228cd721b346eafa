import Foundation
import TerminalUI

/// Messages for the user on standard error, `ldapbook: ` first. They quote user input and
/// directory data, so every one goes through the terminal sanitiser: neither can drive
/// the terminal.
enum Diagnostics {
    /// Writes `message` as one line.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("ldapbook: \(TerminalText.sanitized(message))\n".utf8))
    }
}
