/// The second stage of parsing: binds tokens to the command, its options and its positional
/// arguments, from left to right.
///
/// The first usage error is kept and binding goes on, so that a later `--help` still shows the
/// help page; a refused password option ends parsing at once.
struct Binder {
    /// How far the command name has been resolved.
    private enum CommandState {
        /// No command name yet.
        case pending
        /// The command is known.
        case known(CommandSpec)
        /// The pseudo-command `help`; its positional arguments name the command to explain.
        case help
        /// The pseudo-command `version`.
        case version
        /// The command name was not recognised, for the given reason; later arguments cannot be interpreted.
        case unknown(UsageError)
    }

    private let parser: CommandLineParser
    private let tokens: [Token]
    /// The index of the next token to bind.
    private var next = 0
    private var state = CommandState.pending
    /// The options in effect: the global ones, and the command's once it is known.
    private var table: OptionTable
    private var helpOptionGiven = false
    private var versionOptionGiven = false
    private var firstError: UsageError?
    /// The options given, by canonical name.
    private var occurrences: [String: [Occurrence]] = [:]
    /// The positional arguments after the command name, in order.
    private var positionals: [Argument] = []

    /// A binder for the given tokens.
    init(parser: CommandLineParser, tokens: [Token]) {
        self.parser = parser
        self.tokens = tokens
        self.table = parser.globalTable
    }

    /// Binds every token and checks the positional arguments.
    mutating func bind() throws(UsageError) -> ParsedCommandLine {
        while next < tokens.count {
            let token = tokens[next]
            next += 1
            switch token.kind {
            case .terminator:
                while next < tokens.count {
                    takePositional(tokens[next])
                    next += 1
                }
            case .value:
                takePositional(token)
            case .longOption(let name, let value):
                try bindLongOption("--" + name, attachedValue: value, token: token)
            case .shortOptions(let letters):
                try bindShortOptions(letters, token: token)
            }
        }
        return try finish()
    }

    // MARK: Options

    /// Binds `--name` or `--name=value`.
    private mutating func bindLongOption(_ name: String, attachedValue: String?, token: Token) throws(UsageError) {
        if Reserved.passwordOptionNames.contains(name) {
            throw passwordRefused(name, position: token.position)
        }
        if Reserved.helpOptionNames.contains(name) {
            if attachedValue == nil {
                helpOptionGiven = true
            } else {
                fail("the flag '\(name)' (argument \(token.position)) takes no value")
            }
            return
        }
        if name == Reserved.versionOptionName && parser.version != nil && attachedValue == nil {
            versionOptionGiven = true
            return
        }
        guard let option = table.option(named: name) else {
            unknownOption(name, position: token.position, suggestionFrom: name)
            return
        }
        try bind(option, spelling: name, token: token, attachedValue: attachedValue)
    }

    /// Binds a bundle of short options (`-xZ`), the last of which may take a value attached
    /// (`-xHldap://x`) or from the next argument.
    private mutating func bindShortOptions(_ letters: String, token: Token) throws(UsageError) {
        var rest = Substring(letters)
        while let letter = rest.first {
            rest = rest.dropFirst()
            let name = "-\(letter)"
            if Reserved.passwordOptionNames.contains(name) {
                throw passwordRefused(name, position: token.position)
            }
            if Reserved.helpOptionNames.contains(name) {
                helpOptionGiven = true
                continue
            }
            guard let option = table.option(named: name) else {
                unknownOption(name, position: token.position, suggestionFrom: letters.count > 1 ? "--" + letters : nil)
                return
            }
            if option.kind.takesValue {
                try bind(option, spelling: name, token: token, attachedValue: rest.isEmpty ? nil : String(rest))
                return
            }
            record(option, Occurrence(spelling: name, position: token.position, values: []))
        }
    }

    /// Binds one known option, taking its value from the same argument or the ones after it.
    private mutating func bind(_ option: OptionSpec, spelling: String, token: Token, attachedValue: String?) throws(UsageError) {
        let attached = attachedValue.map { Argument(text: $0, position: token.position) }
        switch option.kind {
        case .flag:
            if attached == nil {
                record(option, Occurrence(spelling: spelling, position: token.position, values: []))
            } else {
                fail("the flag '\(spelling)' (argument \(token.position)) takes no value")
            }
        case .value, .repeatedValue:
            let value = if let attached { attached } else { try takeValue(for: spelling, at: token) }
            if let value {
                record(option, Occurrence(spelling: spelling, position: token.position, values: [value]))
            }
        case .remainder:
            let values = (attached.map { [$0] } ?? []) + tokens[next...].map { Argument(text: $0.text, position: $0.position) }
            next = tokens.count
            if values.isEmpty {
                fail("missing value for '\(spelling)' (argument \(token.position))")
            } else {
                record(option, Occurrence(spelling: spelling, position: token.position, values: values))
            }
        }
    }

    /// Takes the next argument as the value of the option written at `token`.
    ///
    /// Any argument can be a value (`-1`, `-`, the empty string) except one starting with `--`,
    /// which is an option or the end of options; a value starting with `--` is given as
    /// `--name=--value`. An argument starting with `-w` is refused as a password option.
    private mutating func takeValue(for spelling: String, at token: Token) throws(UsageError) -> Argument? {
        guard next < tokens.count, !tokens[next].text.hasPrefix("--") else {
            fail("missing value for '\(spelling)' (argument \(token.position))")
            return nil
        }
        let value = tokens[next]
        if value.text.hasPrefix("-w") {
            throw passwordRefused("-w", position: value.position)
        }
        next += 1
        return Argument(text: value.text, position: value.position)
    }

    /// Files an option under its canonical name; a value option may be given only once.
    private mutating func record(_ option: OptionSpec, _ occurrence: Occurrence) {
        let key = option.canonicalName
        if case .value = option.kind, let earlier = occurrences[key]?.first {
            fail("option '\(key)' given twice: '\(earlier.spelling)' (argument \(earlier.position)) and '\(occurrence.spelling)' (argument \(occurrence.position))")
            return
        }
        occurrences[key, default: []].append(occurrence)
    }

    /// Reports an option that is not declared: with a suggestion when one is close, or saying that
    /// a command's option was given before the command name.
    private mutating func unknownOption(_ name: String, position: Int, suggestionFrom word: String?) {
        if case .pending = state, parser.commands.contains(where: { parser.optionTable(for: $0).option(named: name) != nil }) {
            fail("option '\(name)' (argument \(position)) must follow the command name")
            return
        }
        var message = "unknown option '\(name)' (argument \(position))"
        if let word, let suggestion = Suggestion.closest(to: word, among: table.suggestibleNames + ["--help"] + (parser.version == nil ? [] : [Reserved.versionOptionName])) {
            message += "; did you mean '\(suggestion)'?"
        }
        fail(message)
    }

    // MARK: Command and positional arguments

    /// Takes a positional argument: the command name first, then the command's arguments.
    private mutating func takePositional(_ token: Token) {
        switch state {
        case .pending:
            if token.text == Reserved.helpCommandName {
                state = .help
            } else if token.text == Reserved.versionCommandName && parser.version != nil {
                state = .version
            } else if let command = parser.command(named: token.text) {
                state = .known(command)
                table = parser.optionTable(for: command)
            } else {
                let unknown = error(unknownCommand(token.text, position: token.position))
                state = .unknown(unknown)
                firstError = firstError ?? unknown
            }
        case .known, .help, .version:
            positionals.append(Argument(text: token.text, position: token.position))
        case .unknown:
            break
        }
    }

    /// The message for a command name that is not declared.
    private func unknownCommand(_ name: String, position: Int) -> String {
        let names = parser.commands.map(\.name) + parser.pseudoCommandNames
        if let suggestion = Suggestion.closest(to: name, among: names) {
            return "unknown command '\(name)' (argument \(position)); did you mean '\(suggestion)'?"
        }
        return "unknown command '\(name)' (argument \(position)); expected one of: \(names.joined(separator: ", "))"
    }

    /// Decides the outcome once every token is bound.
    private mutating func finish() throws(UsageError) -> ParsedCommandLine {
        if helpOptionGiven {
            return result(help: helpTarget().map(HelpRequest.command) ?? .overview)
        }
        if let firstError {
            throw firstError
        }
        if versionOptionGiven {
            return result(help: .version)
        }
        switch state {
        case .pending:
            let names = parser.commands.map(\.name) + parser.pseudoCommandNames
            throw error("missing command; expected one of: \(names.joined(separator: ", "))")
        case .unknown(let unknown):
            throw unknown
        case .version:
            if let extra = positionals.first {
                throw error("unexpected argument '\(extra.text)' (argument \(extra.position)); 'version' takes no arguments")
            }
            return result(help: .version)
        case .help:
            if positionals.count > 1 {
                throw error("unexpected argument '\(positionals[1].text)' (argument \(positionals[1].position))")
            }
            guard let first = positionals.first, first.text != Reserved.helpCommandName else {
                return result(help: .overview)
            }
            guard let command = parser.command(named: first.text) else {
                throw error(unknownCommand(first.text, position: first.position))
            }
            return result(help: .command(command))
        case .known(let command):
            let bound = try bindPositionals(of: command)
            return ParsedCommandLine(command: command, helpRequested: nil, table: table, occurrences: occurrences, positionals: bound, context: context)
        }
    }

    /// The command whose help page `--help` asks for: the command given, or the one named after `help`.
    private func helpTarget() -> CommandSpec? {
        switch state {
        case .known(let command): command
        case .help: positionals.first.flatMap { parser.command(named: $0.text) }
        case .pending, .unknown, .version: nil
        }
    }

    /// The positional arguments bound to the command's declared ones, or the error saying why they do not fit.
    private func bindPositionals(of command: CommandSpec) throws(UsageError) -> [String: [Argument]] {
        do {
            return try command.distribute(positionals)
        } catch let mismatch {
            switch mismatch {
            case .missing(let positional):
                throw error("missing argument \(positional.name) for '\(command.name)'")
            case .unexpected(let extra):
                var message = "unexpected argument '\(extra.text)' (argument \(extra.position))"
                if command.positionals.isEmpty {
                    message += "; '\(command.name)' takes no arguments"
                }
                throw error(message)
            }
        }
    }

    // MARK: Results and errors

    /// The parsed command line for a help request: the options bound so far, no positional arguments.
    private func result(help: HelpRequest) -> ParsedCommandLine {
        let command = helpTarget()
        return ParsedCommandLine(
            command: command,
            helpRequested: help,
            table: parser.optionTable(for: command),
            occurrences: occurrences,
            positionals: [:],
            context: ErrorContext(parser: parser, command: command)
        )
    }

    /// The command the errors are about, if known.
    private var currentCommand: CommandSpec? {
        if case .known(let command) = state { command } else { nil }
    }

    /// The usage line and help hint for errors at this point.
    private var context: ErrorContext {
        ErrorContext(parser: parser, command: currentCommand)
    }

    /// A usage error with the given message.
    private func error(_ message: String) -> UsageError {
        context.error(message)
    }

    /// Keeps the first usage error; binding goes on in case help is asked for later.
    private mutating func fail(_ message: String) {
        if firstError == nil {
            firstError = error(message)
        }
    }

    /// The error for a password option. It names the option and its argument number only,
    /// never the text after it.
    private func passwordRefused(_ name: String, position: Int) -> UsageError {
        error("'\(name)' (argument \(position)) is not accepted: \(Reserved.passwordAdvice)")
    }
}
