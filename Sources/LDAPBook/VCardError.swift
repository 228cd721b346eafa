/// A card that could not be read or imported: where it went wrong and why.
public struct VCardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line of the file where the problem is: the offending
    /// property's first line, or the card's `BEGIN:VCARD` line.
    public var line: Int
    /// What is wrong, in words.
    public var message: String

    /// Creates an error.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line <n>: <message>`.
    public var description: String { "line \(line): \(message)" }
}
