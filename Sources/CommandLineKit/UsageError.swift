/// A command line that cannot be used as given: the program prints ``description`` on
/// standard error and exits with ``exitCode``.
///
/// Messages quote the offending argument and say where it is ("argument 3" is the third
/// argument after the program name). They quote option names but never the values given to
/// options, so a secret typed in the wrong place is not repeated on the terminal.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The exit status for a usage error: `EX_USAGE` from `sysexits.h`.
    public static let exitCode: Int32 = 64

    /// What is wrong, in one line: `unknown option '--limt' (argument 3); did you mean '--limit'?`.
    public let message: String
    /// The usage line of the command (or of the program, when no command was recognised):
    /// `Usage: ldapbook find [OPTIONS] QUERY ...`.
    public let usage: String
    /// Where to read more: `See 'ldapbook help find' for more information.`.
    public let helpHint: String

    /// A usage error with the given message, usage line and pointer to the help page.
    public init(message: String, usage: String, helpHint: String) {
        self.message = message
        self.usage = usage
        self.helpHint = helpHint
    }

    /// The text for standard error, after the program's name and a colon: the message, the
    /// usage line, and the help hint (indented), on three lines.
    ///
    /// ```
    /// ldapbook: unknown option '--limt' (argument 3); did you mean '--limit'?
    /// Usage: ldapbook find [OPTIONS] QUERY ...
    ///   See 'ldapbook help find' for more information.
    /// ```
    public var description: String {
        "\(message)\n\(usage)\n  \(helpHint)"
    }
}
