import Foundation
import LDAPKit

/// A person's name as someone typed it: white-space separated tokens, each the start of a
/// word of one of the person's names (``NameMatcher``). `Lovelace, Ada` is read as last name,
/// then first names. A phone number (`+44 20 7946 0001`) is a query too: it finds its holder
/// by the number's digits (``phoneNumber``).
public struct NameQuery: Sendable, Hashable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// The tokens, first names before the last name when the text said `Last, First`; a phone
    /// number is one token.
    public let tokens: [String]
    /// Whether the text was written `Last, First`.
    public let isSurnameFirst: Bool
    /// The number, when the text is a phone number rather than a name.
    public let phoneNumber: PhoneDigits?
    /// How many of the last tokens the text named as the last name (`van der Berg, Pieter`).
    private let surnameTokens: Int

    /// The longest query accepted, in characters.
    public static let maximumLength = 256

    /// Reads a name, or a phone number.
    ///
    /// - Throws: ``AddressBookError`` (`invalidName`) when the text is empty, all white space,
    ///   too long, contains control characters, or has no letter and is no phone number.
    public init(_ text: String) throws(AddressBookError) {
        self.text = text
        guard text.count <= Self.maximumLength else {
            throw AddressBookError(.invalidName, "a name may have at most \(Self.maximumLength) characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) else {
            throw AddressBookError(.invalidName, "a name must not contain control characters")
        }
        if let number = PhoneDigits.typed(text) {
            phoneNumber = number
            tokens = [text.trimmingWhitespace()]
            isSurnameFirst = false
            surnameTokens = 0
            return
        }
        phoneNumber = nil
        // Commas separate words as white space does, once the first has told which name is last.
        let words: (Substring) -> [String] = { $0.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init) }
        if let comma = text.firstIndex(of: ","), !text[text.index(after: comma)...].allSatisfy(\.isWhitespace) {
            let last = words(text[..<comma])
            let first = words(text[text.index(after: comma)...])
            tokens = first + last
            isSurnameFirst = !last.isEmpty
            surnameTokens = last.count
        } else {
            tokens = words(text[...])
            isSurnameFirst = false
            surnameTokens = 0
        }
        guard !tokens.isEmpty else {
            throw AddressBookError(.invalidName, "a name must not be empty")
        }
        guard text.unicodeScalars.contains(where: \.properties.isAlphabetic) else {
            throw AddressBookError(.invalidName, "\"\(text)\" has no letter: a name needs one (a phone number needs "
                + "\(PhoneDigits.minimumDigits) digits or more)")
        }
    }

    /// Whether a word has an `@`, as only an email address does.
    public var looksLikeAnAddress: Bool { tokens.contains { $0.contains("@") } }

    /// Whether the text is a person's name, as a new entry could be called: not a phone number
    /// nor an address.
    public var isAName: Bool { phoneNumber == nil && !looksLikeAnAddress }

    /// The names a new entry would get, written as people write names (``NameCapitalization``):
    /// the last token is the surname, with the particles before it (`ludwig van beethoven` is
    /// Ludwig and van Beethoven), the others the given name; `Lovelace, Ada` gives the same.
    /// A phone number or an address suggests no name (an empty surname).
    public var guessedNames: (given: String?, surname: String) {
        guard isAName else { return (nil, "") }
        let written = NameCapitalization.written(tokens)
        var surnameStart = written.count - max(surnameTokens, 1)
        if surnameTokens == 0 {
            while surnameStart > 1 && NameCapitalization.isParticle(written[surnameStart - 1]) { surnameStart -= 1 }
        }
        let given = written[..<surnameStart].joined(separator: " ")
        return (given.isEmpty ? nil : given, written[surnameStart...].joined(separator: " "))
    }

    /// The text as given.
    public var description: String { text }
}

/// Names as people write them, from words typed in lower case: `ada lovelace` is Ada
/// Lovelace, `o'brien` O'Brien, `jean-luc` Jean-Luc, `mcdonald` McDonald, and particles after
/// the first word stay in lower case (`van`, `de`, `da`, `von`, `al`…: Pieter van der Berg).
/// A word typed with a capital anywhere is kept as typed (`DeWitt`, `MacLeod`, `von Trapp`).
enum NameCapitalization {
    /// Words that stay in lower case within a name.
    static let particles: Set<String> = [
        "van", "von", "der", "den", "de", "del", "della", "dei", "di", "da", "das", "do", "dos", "du", "la", "le", "les",
        "ten", "ter", "te", "zu", "zur", "af", "av", "al", "el", "bin", "ibn", "bint", "y", "e",
    ]

    /// Whether `word` is a particle (in any case).
    static func isParticle(_ word: String) -> Bool { particles.contains(word.lowercased()) }

    /// `words` written as a name.
    static func written(_ words: [String]) -> [String] {
        words.enumerated().map { index, word in
            guard word == word.lowercased() else { return word }
            if index > 0 && particles.contains(word) { return word }
            return capitalized(word)
        }
    }

    /// `word` with a capital at its start and after each hyphen or apostrophe, and after `Mc`.
    static func capitalized(_ word: String) -> String {
        var result = ""
        var startsPart = true
        for character in word {
            result += startsPart ? character.uppercased() : String(character)
            startsPart = character == "-" || character == "'" || character == "\u{2019}"
        }
        if result.count > 3, result.hasPrefix("Mc"), let third = result.dropFirst(2).first, third.isLowercase {
            result = "Mc" + third.uppercased() + result.dropFirst(3)
        }
        return result
    }
}
