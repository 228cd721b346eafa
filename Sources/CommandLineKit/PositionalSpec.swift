/// One argument a command takes by position, such as the query of `find`.
///
/// Positional arguments are bound in the order the command declares them. A repeating one
/// takes every argument the ones after it do not need; an optional one takes an argument only
/// when there are more than the required ones need.
public struct PositionalSpec: Sendable, Hashable {
    /// The name shown in help and usage lines (`QUERY`), and the name its values are read by.
    public let name: String
    /// One or two sentences for the help page.
    public let help: String
    /// Whether the argument takes one or more values (`QUERY ...`).
    public let isRepeating: Bool
    /// Whether the argument may be left out (`[QUERY]`).
    public let isOptional: Bool
    /// What a shell may offer for the argument.
    public let completion: Completion

    /// A positional argument with the given name and help text.
    ///
    /// - Parameters:
    ///   - name: The name in help and usage lines, and for reading the values; it does not start with `-`.
    ///   - help: One or two sentences for the help page.
    ///   - isRepeating: Whether it takes one or more values.
    ///   - isOptional: Whether it may be left out.
    ///   - completion: What a shell may offer for it; nothing by default.
    public init(_ name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false,
                completion: Completion = .none) {
        self.name = name
        self.help = help
        self.isRepeating = isRepeating
        self.isOptional = isOptional
        self.completion = completion
    }

    /// How the argument appears in a usage line: `QUERY`, `[QUERY]`, `QUERY ...` or `[QUERY ...]`.
    var usage: String {
        let text = isRepeating ? "\(name) ..." : name
        return isOptional ? "[\(text)]" : text
    }
}
