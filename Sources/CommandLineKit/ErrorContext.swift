/// What a usage error says besides its message: the usage line and where to read more.
struct ErrorContext: Sendable {
    /// `Usage: ` and the usage line of the command, or of the program.
    let usage: String
    /// `See 'PROG help [COMMAND]' for more information.`
    let helpHint: String

    /// The context for errors about the given command, or about the program when `command` is `nil`.
    init(parser: CommandLineParser, command: CommandSpec?) {
        usage = "Usage: " + parser.usageLine(for: command)
        let helpCommand = ([parser.programName, Reserved.helpCommandName] + [command?.name].compactMap { $0 }).joined(separator: " ")
        helpHint = "See '\(helpCommand)' for more information."
    }

    /// A usage error with the given message.
    func error(_ message: String) -> UsageError {
        UsageError(message: message, usage: usage, helpHint: helpHint)
    }
}
