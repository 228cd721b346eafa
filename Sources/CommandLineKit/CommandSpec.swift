/// A command of the program (`find`, `reach`): what it does, the options and positional
/// arguments it takes, and examples for its help page.
public struct CommandSpec: Sendable, Hashable {
    /// A command line shown on the help page, with a sentence saying what it does.
    public struct Example: Sendable, Hashable {
        /// What the example does, shown above it.
        public let summary: String
        /// The command line, shown as written (never wrapped, so it can be copied).
        public let commandLine: String

        /// An example with the given summary and command line.
        public init(summary: String, commandLine: String) {
            self.summary = summary
            self.commandLine = commandLine
        }
    }

    /// The word that selects the command on the command line.
    public let name: String
    /// One sentence saying what the command does, for the command list and the help page.
    public let abstract: String
    /// More about the command for its help page: paragraphs separated by blank lines;
    /// lines that start with a space are shown as written.
    public let discussion: String
    /// The command's own options; the parser's global options are accepted as well.
    public let options: [OptionSpec]
    /// The positional arguments, in order.
    public let positionals: [PositionalSpec]
    /// Examples for the help page.
    public let examples: [Example]

    /// A command with the given name, texts, options, positional arguments and examples.
    public init(
        _ name: String,
        abstract: String,
        discussion: String = "",
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        examples: [Example] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.examples = examples
    }
}
