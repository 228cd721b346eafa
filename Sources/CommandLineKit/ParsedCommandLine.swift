/// A parsed command line: the command, the options given, and the positional arguments.
///
/// Options are read by any of their names (`parsed.value("-H")` and `parsed.value("--uri")` are
/// the same); positional arguments by their declared name. Asking for a name the command line
/// cannot have (one neither the command nor the global options declare, or one of another kind,
/// such as `value` for a flag) is a mistake in the program and stops it.
public struct ParsedCommandLine: Sendable {
    /// The command to run; `nil` only when the top-level help page was asked for.
    public let command: CommandSpec?
    /// The help page asked for with `--help`, `-h` or `help`, if any: the program prints it on
    /// standard output and exits with status 0, ignoring everything else.
    public let helpRequested: HelpRequest?

    /// The options in effect, to find an option by any of its names.
    private let table: OptionTable
    /// The options given, by canonical name.
    private let occurrences: [String: [Occurrence]]
    /// The positional arguments, by declared name.
    private let positionals: [String: [Argument]]
    /// The usage line and help hint for errors the program reports about this command line.
    private let context: ErrorContext

    /// A parsed command line with the given parts.
    init(command: CommandSpec?, helpRequested: HelpRequest?, table: OptionTable, occurrences: [String: [Occurrence]], positionals: [String: [Argument]], context: ErrorContext) {
        self.command = command
        self.helpRequested = helpRequested
        self.table = table
        self.occurrences = occurrences
        self.positionals = positionals
        self.context = context
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool {
        !occurrences(of: name, expecting: "a flag", { $0 == .flag }).isEmpty
    }

    /// The value of a single-value option, or `nil` when it was not given.
    public func value(_ name: String) -> String? {
        argument(ofOption: name)?.text
    }

    /// The values of a repeatable or single-value option, in the order given; empty when it was not given.
    public func values(_ name: String) -> [String] {
        occurrences(of: name, expecting: "an option with a value") {
            switch $0 {
            case .value, .repeatedValue: true
            case .flag, .remainder: false
            }
        }.flatMap { $0.values.map(\.text) }
    }

    /// The arguments after a remainder option (`--exec mutt -s hi {}` gives
    /// `["mutt", "-s", "hi", "{}"]`), or `nil` when it was not given.
    public func remainder(_ name: String) -> [String]? {
        occurrences(of: name, expecting: "a remainder option") {
            if case .remainder = $0 { true } else { false }
        }.first?.values.map(\.text)
    }

    /// The value of a positional argument that does not repeat, or `nil` when an optional one was left out.
    public func positional(_ name: String) -> String? {
        let spec = positionalSpec(name)
        precondition(!spec.isRepeating, "'\(name)' repeats; read it with positionals(_:)")
        return positionals[name]?.first?.text
    }

    /// The values of a positional argument, in order: any number for a repeating one, at most
    /// one for another.
    public func positionals(_ name: String) -> [String] {
        _ = positionalSpec(name)
        return positionals[name]?.map(\.text) ?? []
    }

    /// A usage error about this command line, with the command's usage line: for rules the
    /// parser cannot know, such as two options that exclude each other.
    public func usageError(_ message: String) -> UsageError {
        context.error(message)
    }

    // MARK: Lookup

    /// The argument holding the value of a single-value option or a non-repeating positional argument.
    func argument(ofOption name: String) -> Argument? {
        occurrences(of: name, expecting: "a single-value option") {
            if case .value = $0 { true } else { false }
        }.first?.values.first
    }

    /// The argument holding the value of a single-value option (`-`-prefixed name) or a
    /// non-repeating positional argument, and how messages name it.
    func argument(named name: String) -> (argument: Argument?, quotedName: String) {
        if name.hasPrefix("-") {
            return (argument(ofOption: name), "'\(option(name).canonicalName)'")
        }
        let spec = positionalSpec(name)
        precondition(!spec.isRepeating, "'\(name)' repeats and has no single value")
        return (positionals[name]?.first, name)
    }

    /// The occurrences of an option, which must be declared and of the expected kind.
    private func occurrences(of name: String, expecting kind: String, _ isExpected: (OptionSpec.Kind) -> Bool) -> [Occurrence] {
        let spec = option(name)
        precondition(isExpected(spec.kind), "'\(name)' is not \(kind)")
        return occurrences[spec.canonicalName] ?? []
    }

    /// The declared option with the given name.
    private func option(_ name: String) -> OptionSpec {
        guard let spec = table.option(named: name) else {
            preconditionFailure("'\(name)' is declared neither as a global option nor by '\(command?.name ?? "")'")
        }
        return spec
    }

    /// The command's declared positional argument with the given name.
    private func positionalSpec(_ name: String) -> PositionalSpec {
        guard let spec = command?.positionals.first(where: { $0.name == name }) else {
            preconditionFailure("'\(name)' is not a positional argument of '\(command?.name ?? "")'")
        }
        return spec
    }
}
