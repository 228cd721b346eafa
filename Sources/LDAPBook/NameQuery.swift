import Foundation
import LDAPKit

/// A person's name as someone typed it: white-space separated tokens, each the start of a
/// word of one of the person's names (``NameMatcher``). `Lovelace, Ada` is read as last name,
/// then first names.
public struct NameQuery: Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// The tokens, first names before the last name when the text said `Last, First`.
    public let tokens: [String]
    /// Whether the text was written `Last, First`.
    public let isSurnameFirst: Bool

    /// The longest query accepted, in characters.
    public static let maximumLength = 256

    /// Reads a name.
    ///
    /// - Throws: ``AddressBookError`` (`invalidName`) when the text is empty,
    ///   all white space, too long, or contains control characters.
    public init(_ text: String) throws(AddressBookError) {
        self.text = text
        guard text.count <= Self.maximumLength else {
            throw AddressBookError(.invalidName, "a name may have at most \(Self.maximumLength) characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) else {
            throw AddressBookError(.invalidName, "a name must not contain control characters")
        }
        // Commas separate words as white space does, once the first has told which name is last.
        let words: (Substring) -> [String] = { $0.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init) }
        if let comma = text.firstIndex(of: ","), !text[text.index(after: comma)...].allSatisfy(\.isWhitespace) {
            let last = words(text[..<comma])
            let first = words(text[text.index(after: comma)...])
            tokens = first + last
            isSurnameFirst = !last.isEmpty
        } else {
            tokens = words(text[...])
            isSurnameFirst = false
        }
        guard !tokens.isEmpty else {
            throw AddressBookError(.invalidName, "a name must not be empty")
        }
    }

    /// Whether a word has an `@`, as only an email address does.
    public var looksLikeAnAddress: Bool { tokens.contains { $0.contains("@") } }

    /// The names a new entry would get: the last token is the surname, the
    /// others the given name (`Lovelace, Ada` gives the same).
    public var guessedNames: (given: String?, surname: String) {
        guard tokens.count > 1 else { return (nil, tokens[0]) }
        return (tokens.dropLast().joined(separator: " "), tokens[tokens.count - 1])
    }

    /// The text as given.
    public var description: String { text }
}
