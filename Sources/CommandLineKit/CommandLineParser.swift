#if canImport(Glibc)
import Glibc
#endif

/// Parses a command line of the form `PROG [GLOBAL OPTIONS] COMMAND [OPTIONS] ARGS...` against
/// declared options, commands and positional arguments.
///
/// Parsing has two stages, as in swift-argument-parser: the arguments are split into tokens by
/// their shape alone (`--name`, `--name=value`, `-abc`, `--`, values), then the tokens are bound
/// to the options and positional arguments of the command. Global options are accepted before
/// and after the command name; options and positional arguments may be mixed; after `--`
/// every argument is positional.
///
/// ```swift
/// let parser = CommandLineParser(programName: "ldapbook", globalOptions: connection, commands: [find, reach])
/// let parsed = try parser.parse(Array(CommandLine.arguments.dropFirst()))
/// if let help = parsed.helpRequested {
///     print(parser.help(for: help))   // exit status 0
/// }
/// ```
///
/// The names `-h`, `--help` and the command `help` ask for help; with a version, `--version`
/// and the command `version` ask for it (``HelpRequest/version``). The options `-w` and
/// `--password` are refused with a message saying that passwords are read with `-W` (prompt)
/// or `-y FILE`, never from the command line; the message does not repeat the argument after them.
public struct CommandLineParser: Sendable {
    /// The program's name in usage lines and help pages.
    public let programName: String
    /// One sentence saying what the program does, for the top-level help page.
    public let abstract: String
    /// Options every command accepts, before or after the command name.
    public let globalOptions: [OptionSpec]
    /// The commands, in the order the help page lists them.
    public let commands: [CommandSpec]
    /// The program's version, printed for `--version` and `version`; `nil` declares neither.
    public let version: String?

    /// The global options alone, for the arguments before the command name.
    let globalTable: OptionTable
    /// The global options with each command's own, by command name.
    let commandTables: [String: OptionTable]

    /// A parser for the given program, global options and commands.
    ///
    /// The declarations are checked once, here; a mistake in them (a name declared twice, an
    /// option named `-h` or `-w`, a command named `help`, two repeating positional arguments in
    /// one command) stops the program, since no command line could be parsed correctly.
    ///
    /// - Parameters:
    ///   - programName: The name in usage lines and help pages.
    ///   - abstract: One sentence for the top-level help page.
    ///   - globalOptions: Options accepted before and after the command name.
    ///   - commands: The commands, in the order the help page lists them.
    ///   - version: The version `--version` and `version` print, if any.
    public init(programName: String, abstract: String = "", version: String? = nil, globalOptions: [OptionSpec] = [],
                commands: [CommandSpec]) {
        self.programName = programName
        self.abstract = abstract
        self.version = version
        self.globalOptions = globalOptions
        self.commands = commands
        globalOptions.forEach(Self.validate)
        globalTable = OptionTable(globalOptions)
        var commandTables: [String: OptionTable] = [:]
        for command in commands {
            Self.validate(command)
            precondition(commandTables[command.name] == nil, "the command '\(command.name)' is declared twice")
            commandTables[command.name] = OptionTable(globalOptions + command.options)
        }
        self.commandTables = commandTables
    }

    /// Parses the arguments that follow the program name.
    ///
    /// - Parameter arguments: The arguments without the program name, such as
    ///   `CommandLine.arguments.dropFirst()`.
    /// - Returns: The command with its options and positional arguments, or the help page asked
    ///   for. A request for help wins over every usage error except a refused password option.
    /// - Throws: A ``UsageError`` quoting the first argument that cannot be used.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        var binder = Binder(parser: self, tokens: Token.tokenize(arguments))
        return try binder.bind()
    }

    /// Arguments as the operating system passes them, as bytes, decoded as UTF-8.
    ///
    /// Swift's `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD, so a
    /// name or value would silently become something that was never typed; here such an
    /// argument is refused instead.
    ///
    /// - Throws: A ``UsageError`` naming the first argument that is not valid UTF-8
    ///   (counted from 1 after the program name), without repeating it.
    public func decode(rawArguments: [[UInt8]]) throws(UsageError) -> [String] {
        var decoded: [String] = []
        for (index, bytes) in rawArguments.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw ErrorContext(parser: self, command: nil).error("argument \(index + 1) is not valid UTF-8")
            }
            decoded.append(text)
        }
        return decoded
    }

    /// This process's arguments after the program name, refusing any that is not valid
    /// UTF-8 (see ``decode(rawArguments:)``).
    public func processArguments() throws(UsageError) -> [String] {
        let raw = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        return try decode(rawArguments: raw)
    }

    /// The names the parser answers itself: `help`, and `version` when there is one.
    var pseudoCommandNames: [String] {
        [Reserved.helpCommandName] + (version == nil ? [] : [Reserved.versionCommandName])
    }

    /// The command with the given name, if there is one.
    func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// The options in effect once the given command is known (only the global ones before).
    func optionTable(for command: CommandSpec?) -> OptionTable {
        command.flatMap { commandTables[$0.name] } ?? globalTable
    }

    /// Checks one command's declaration.
    private static func validate(_ command: CommandSpec) {
        precondition(!command.name.isEmpty && !command.name.hasPrefix("-"), "the command name '\(command.name)' is empty or starts with '-'")
        precondition(command.name != Reserved.helpCommandName, "the command name 'help' is reserved for help")
        precondition(command.name != Reserved.versionCommandName, "the command name 'version' is reserved for the version")
        command.options.forEach(validate)
        var names: Set<String> = []
        for positional in command.positionals {
            precondition(!positional.name.isEmpty && !positional.name.hasPrefix("-"), "the positional argument '\(positional.name)' of '\(command.name)' is unnamed or starts with '-'")
            precondition(names.insert(positional.name).inserted, "the positional argument '\(positional.name)' of '\(command.name)' is declared twice")
        }
        precondition(command.positionals.count(where: \.isRepeating) <= 1, "'\(command.name)' has more than one repeating positional argument")
    }

    /// Checks one option's declaration.
    private static func validate(_ option: OptionSpec) {
        precondition(!option.names.isEmpty, "an option has no name")
        for name in option.names {
            let isShort = name.count == 2 && name.hasPrefix("-") && name != "--"
            let isLong = name.count > 2 && name.hasPrefix("--") && !name.dropFirst(2).contains("=") && !name.dropFirst(2).hasPrefix("-")
            precondition(isShort || isLong, "the option name '\(name)' is neither '-' and one character nor '--' and a word")
            precondition(!Reserved.helpOptionNames.contains(name), "the option name '\(name)' is reserved for help")
            precondition(name != Reserved.versionOptionName, "the option name '--version' is reserved for the version")
            precondition(!Reserved.passwordOptionNames.contains(name), "the option name '\(name)' would put a password on the command line")
        }
    }
}
