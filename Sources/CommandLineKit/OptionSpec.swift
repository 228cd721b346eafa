/// One option a command line accepts: its names, what it takes, and its help.
///
/// ```swift
/// OptionSpec(["-H", "--uri"], .value("URI"), help: "The LDAP server to connect to.")
/// OptionSpec(["--yes"], help: "Do not ask for confirmation.")
/// ```
///
/// Values are filed under the option's ``canonicalName``, but every accessor of
/// ``ParsedCommandLine`` accepts any of its names.
public struct OptionSpec: Sendable, Hashable {
    /// What an option takes from the command line.
    public enum Kind: Sendable, Hashable {
        /// No value: the option is given or not (`--yes`). Giving a flag again changes nothing,
        /// so `-ZZ` means the same as `-Z`.
        case flag
        /// One value, at most once: `--limit 5`, `--limit=5`, `-l 5` or `-l5`.
        /// The string names the value in help (`N` in `--limit N`).
        case value(String)
        /// One value each time the option is given; the option may be repeated
        /// (`--given ada --given grace`). The string names the value in help.
        case repeatedValue(String)
        /// Every argument that follows, verbatim (`--exec mutt -s hi {}`), so the option
        /// comes last. At least one argument must follow. The string names the arguments in help.
        case remainder(String)
    }

    /// The option's names, each `-` and one character or `--` and a word: `["-H", "--uri"]`.
    public let names: [String]
    /// What the option takes.
    public let kind: Kind
    /// One or two sentences for the help page.
    public let help: String
    /// Whether help pages leave the option out and suggestions never propose it;
    /// the option is still accepted.
    public let isHidden: Bool
    /// What a shell may offer for the option's value.
    public let completion: Completion

    /// An option with the given names, kind and help text.
    ///
    /// - Parameters:
    ///   - names: `-` and one character, or `--` and a word; at least one.
    ///   - kind: What the option takes; a flag unless said otherwise.
    ///   - help: One or two sentences for the help page.
    ///   - isHidden: Whether help pages and suggestions leave the option out.
    ///   - completion: What a shell may offer for the value; by default what the value's
    ///     name suggests (``Completion/init(valueName:)``).
    public init(_ names: [String], _ kind: Kind = .flag, help: String, isHidden: Bool = false,
                completion: Completion? = nil) {
        self.names = names
        self.kind = kind
        self.help = help
        self.isHidden = isHidden
        self.completion = completion ?? kind.valueName.map(Completion.init(valueName:)) ?? .none
    }

    /// The name the option's values are filed under: its first long name
    /// (`--uri` for `["-H", "--uri"]`), or its first name when it has no long name.
    public var canonicalName: String {
        names.first(where: { $0.hasPrefix("--") }) ?? names.first ?? ""
    }
}

extension OptionSpec.Kind {
    /// The name of the value in help, or `nil` for a flag.
    var valueName: String? {
        switch self {
        case .flag: nil
        case .value(let name), .repeatedValue(let name), .remainder(let name): name
        }
    }

    /// Whether the option takes a value from the command line.
    var takesValue: Bool { self != .flag }
}
