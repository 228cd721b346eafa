/// One argument of the command line, classified by its shape alone (the first stage of parsing).
///
/// The tokenizer does not know which options exist; the binder decides what each token means
/// for the command at hand, such as whether `-1` is the value of the option before it.
struct Token: Sendable, Hashable {
    /// The shape of an argument.
    enum Kind: Sendable, Hashable {
        /// `--name` or `--name=value`: the name without its dashes, and the text after the first `=`.
        case longOption(name: String, value: String?)
        /// `-abc`: the characters after the dash, each a short option or, after an option that
        /// takes a value, the start of that value (`-Hldap://x`).
        case shortOptions(String)
        /// `--`: every later argument is positional.
        case terminator
        /// Anything else: a command name, a positional argument or an option's value; also `-`
        /// (standard input), the empty string, and every argument after `--`.
        case value
    }

    /// The shape of the argument.
    let kind: Kind
    /// Where the argument is: 0 for the first argument after the program name.
    let index: Int
    /// The argument as given.
    let text: String

    /// The argument's number in messages: 1 for the first argument after the program name.
    var position: Int { index + 1 }

    /// Splits the arguments (without the program name) into tokens, one per argument.
    static func tokenize(_ arguments: [String]) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(arguments.count)
        var afterTerminator = false
        for (index, text) in arguments.enumerated() {
            let kind: Kind
            if afterTerminator {
                kind = .value
            } else if text == "--" {
                kind = .terminator
                afterTerminator = true
            } else if text.hasPrefix("--") {
                let body = text.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    kind = .longOption(name: String(body[..<equals]), value: String(body[body.index(after: equals)...]))
                } else {
                    kind = .longOption(name: String(body), value: nil)
                }
            } else if text.hasPrefix("-") && text.count > 1 {
                kind = .shortOptions(String(text.dropFirst()))
            } else {
                kind = .value
            }
            tokens.append(Token(kind: kind, index: index, text: text))
        }
        return tokens
    }
}
