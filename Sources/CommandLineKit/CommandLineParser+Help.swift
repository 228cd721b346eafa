extension CommandLineParser {
    /// The width help pages are wrapped to unless told otherwise.
    public static let defaultHelpWidth = 80
    /// The narrowest width help pages are wrapped to; narrower widths are widened to it.
    public static let minimumHelpWidth = 40

    /// The width to wrap help to for a terminal whose `COLUMNS` variable has the given value:
    /// the number when it is a positive integer (at least ``minimumHelpWidth``), otherwise
    /// ``defaultHelpWidth``.
    public static func helpWidth(columns: String?) -> Int {
        guard let columns, let count = Int(columns), count > 0 else { return defaultHelpWidth }
        return max(count, minimumHelpWidth)
    }

    /// The help page the command line asked for.
    public func help(for request: HelpRequest, width: Int = defaultHelpWidth) -> String {
        switch request {
        case .overview: help(width: width)
        case .command(let command): help(for: command, width: width)
        case .version: "\(programName) \(version ?? "")"
        }
    }

    /// The program's help page: usage, abstract, the commands and the global options.
    ///
    /// - Parameter width: The width to wrap to, in characters (at least ``minimumHelpWidth``).
    /// - Returns: The page, without a final newline.
    public func help(width: Int = defaultHelpWidth) -> String {
        let width = max(width, Self.minimumHelpWidth)
        let commandRows = commands.map { (label: $0.name, text: $0.abstract) }
            + [(label: Reserved.helpCommandName, text: "Show help for a command.")]
            + (version == nil ? [] : [(label: Reserved.versionCommandName, text: "Show the version.")])
        let optionRows = Self.rows(for: globalOptions) + [Self.helpRow]
            + (version == nil ? [] : [(label: Reserved.versionOptionName, text: "Show the version.")])
        let labelWidth = TextLayout.labelWidth(for: (commandRows + optionRows).map(\.label))

        var blocks = [usageBlock(for: nil, width: width)]
        if !abstract.isEmpty { blocks.append(TextLayout.wrap(abstract, width: width)) }
        blocks.append(["COMMANDS:"] + TextLayout.rows(commandRows, labelWidth: labelWidth, width: width))
        blocks.append(["GLOBAL OPTIONS:"] + TextLayout.rows(optionRows, labelWidth: labelWidth, width: width))
        blocks.append(TextLayout.wrap("See '\(programName) \(Reserved.helpCommandName) COMMAND' for help on a command.", width: width))
        return Self.page(blocks)
    }

    /// A command's help page: usage, abstract, positional arguments, the command's options,
    /// the global options, discussion and examples.
    ///
    /// - Parameters:
    ///   - command: The command to describe.
    ///   - width: The width to wrap to, in characters (at least ``minimumHelpWidth``).
    /// - Returns: The page, without a final newline.
    public func help(for command: CommandSpec, width: Int = defaultHelpWidth) -> String {
        let width = max(width, Self.minimumHelpWidth)
        let argumentRows = command.positionals.map { (label: $0.name, text: $0.help) }
        let optionRows = Self.rows(for: command.options) + [Self.helpRow]
        let globalRows = Self.rows(for: globalOptions)
        let labelWidth = TextLayout.labelWidth(for: (argumentRows + optionRows + globalRows).map(\.label))

        var blocks = [usageBlock(for: command, width: width)]
        if !command.abstract.isEmpty { blocks.append(TextLayout.wrap(command.abstract, width: width)) }
        if !argumentRows.isEmpty {
            blocks.append(["ARGUMENTS:"] + TextLayout.rows(argumentRows, labelWidth: labelWidth, width: width))
        }
        blocks.append(["OPTIONS:"] + TextLayout.rows(optionRows, labelWidth: labelWidth, width: width))
        if !globalRows.isEmpty {
            blocks.append(["GLOBAL OPTIONS:"] + TextLayout.rows(globalRows, labelWidth: labelWidth, width: width))
        }
        let discussion = TextLayout.prose(command.discussion, width: width)
        if !discussion.isEmpty { blocks.append(["DISCUSSION:"] + discussion) }
        if !command.examples.isEmpty {
            let examples = command.examples.map { example in
                TextLayout.wrap(example.summary, width: width, prefix: TextLayout.indent)
                    + [TextLayout.indent + TextLayout.indent + example.commandLine]
            }
            blocks.append(["EXAMPLES:"] + Array(examples.joined(separator: [""])))
        }
        return Self.page(blocks)
    }

    /// The usage line without its `Usage:` label: `ldapbook find [OPTIONS] QUERY ...`, or for the
    /// program `ldapbook [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS ...]`.
    func usageLine(for command: CommandSpec?) -> String {
        usageElements(for: command).joined(separator: " ")
    }

    /// The parts of the usage line, each kept whole when the line is wrapped.
    private func usageElements(for command: CommandSpec?) -> [String] {
        guard let command else {
            let global = globalOptions.isEmpty ? [] : ["[GLOBAL OPTIONS]"]
            return [programName] + global + ["COMMAND", "[OPTIONS]", "[ARGUMENTS ...]"]
        }
        return [programName, command.name, "[OPTIONS]"] + command.positionals.map(\.usage)
    }

    /// The `USAGE:` block, wrapped under its label.
    private func usageBlock(for command: CommandSpec?, width: Int) -> [String] {
        let label = "USAGE: "
        return TextLayout.wrap(words: usageElements(for: command), width: width, prefix: label, continuation: String(repeating: " ", count: label.count))
    }

    /// The row for `-h, --help`.
    private static let helpRow = (label: "-h, --help", text: "Show help information.")

    /// The rows for the options shown in help: names and value name, and the help text.
    private static func rows(for options: [OptionSpec]) -> [(label: String, text: String)] {
        options.filter { !$0.isHidden }.map { option in
            var label = option.names.joined(separator: ", ")
            switch option.kind {
            case .flag: break
            case .value(let name): label += " \(name)"
            case .repeatedValue(let name), .remainder(let name): label += " \(name) ..."
            }
            return (label: label, text: option.help)
        }
    }

    /// Joins blocks of lines with blank lines between them.
    private static func page(_ blocks: [[String]]) -> String {
        blocks.filter { !$0.isEmpty }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }
}
