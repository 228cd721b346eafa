/// A text taken from the command line, with the argument it came from.
struct Argument: Sendable, Hashable {
    /// The text: a positional argument or an option's value.
    let text: String
    /// The argument's number: 1 for the first argument after the program name.
    let position: Int
}

/// One appearance of an option on the command line.
struct Occurrence: Sendable, Hashable {
    /// The name as written (`-l` or `--limit`).
    let spelling: String
    /// The number of the argument that holds the name.
    let position: Int
    /// The values the option took: none for a flag, one for a value option, any number for a remainder.
    let values: [Argument]
}
