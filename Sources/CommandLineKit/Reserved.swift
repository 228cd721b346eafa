/// Names the parser gives a meaning of its own; no command or option may declare them.
enum Reserved {
    /// The options that ask for help, accepted everywhere an option is.
    static let helpOptionNames: Set<String> = ["-h", "--help"]
    /// The pseudo-command that asks for help: `prog help [COMMAND]`.
    static let helpCommandName = "help"
    /// The option that asks for the version, when the program has one.
    static let versionOptionName = "--version"
    /// The pseudo-command that asks for the version, when the program has one.
    static let versionCommandName = "version"
    /// Options that would put a password on the command line, where every user of the machine
    /// can read it in the process list and it stays in the shell history. They are refused.
    static let passwordOptionNames: Set<String> = ["-w", "--password"]
    /// What a refused password option is told.
    static let passwordAdvice = "passwords are read with -W (prompt) or -y FILE, never from the command line"
}
