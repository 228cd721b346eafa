/// Which help page the command line asked for, with `--help`, `-h` or `help`.
///
/// The program prints the page from `CommandLineParser.help(for:width:)` on standard output
/// and exits with status 0.
public enum HelpRequest: Sendable, Hashable {
    /// The program's own page: `prog --help`, `prog help`.
    case overview
    /// A command's page: `prog help CMD`, `prog CMD --help`.
    case command(CommandSpec)
    /// The program's name and version: `prog --version`, `prog version`.
    case version
}
