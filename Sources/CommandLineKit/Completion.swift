/// What a shell may offer for an option's value or a positional argument.
public enum Completion: Sendable, Hashable {
    /// Nothing: free text (a name, a number).
    case none
    /// One of these words.
    case choices([String])
    /// A file name.
    case files
    /// A directory name.
    case directories
    /// The lines the program prints when run with these arguments (such as the field names
    /// of the directory), together with the given words, which are offered when the program
    /// has nothing to say in time.
    case program(arguments: [String], fallback: [String])

    /// What a value named `valueName` in help suggests: `table|json` the choices (words
    /// without capitals: `N|DN` names placeholders), `FILE` files, `DIR` directories;
    /// anything else nothing.
    public init(valueName: String) {
        if valueName.contains("|") && !valueName.contains(where: \.isUppercase) {
            self = .choices(valueName.split(separator: "|").map(String.init))
        } else if valueName == "FILE" || valueName.hasSuffix("-FILE") {
            self = .files
        } else if valueName == "DIR" {
            self = .directories
        } else {
            self = .none
        }
    }
}
