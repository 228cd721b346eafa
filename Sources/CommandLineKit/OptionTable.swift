/// The options in effect for one command line: the global options, plus a command's own once
/// the command is known. Finds an option by any of its names.
struct OptionTable: Sendable {
    /// The options, in the order they were declared.
    let options: [OptionSpec]
    /// Every name of every option, with the option it belongs to.
    private let byName: [String: OptionSpec]

    /// A table of the given options; their names must be distinct.
    init(_ options: [OptionSpec]) {
        self.options = options
        var byName: [String: OptionSpec] = [:]
        for option in options {
            for name in option.names {
                precondition(byName[name] == nil, "the option name '\(name)' is declared twice")
                byName[name] = option
            }
        }
        self.byName = byName
    }

    /// The option with the given name (`-H` or `--uri`), if there is one.
    func option(named name: String) -> OptionSpec? { byName[name] }

    /// The long names of the options shown in help, as candidates for "did you mean".
    var suggestibleNames: [String] {
        options.filter { !$0.isHidden }.flatMap { $0.names.filter { $0.hasPrefix("--") } }
    }
}
