/// What a usage error says besides its message: the usage line and where to read more.
struct ErrorContext: Sendable {
    private let parser: CommandLineParser
    private let command: CommandSpec?

    /// The context for errors about the given command, or about the program when `command` is `nil`.
    init(parser: CommandLineParser, command: CommandSpec?) {
        self.parser = parser
        self.command = command
    }

    /// The error, with `Usage: ` and the usage line of the command (or of the program) and
    /// `See 'PROG help [COMMAND]' for more information.`, put together only now: a command
    /// line without errors never needs them.
    func error(_ message: String) -> UsageError {
        let helpCommand = ([parser.programName, Reserved.helpCommandName] + [command?.name].compactMap { $0 }).joined(separator: " ")
        return UsageError(message: message, usage: "Usage: " + parser.usageLine(for: command),
                          helpHint: "See '\(helpCommand)' for more information.")
    }
}
