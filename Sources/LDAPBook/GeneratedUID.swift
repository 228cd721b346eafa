import Foundation

/// Readable, ASCII user ids for new entries: `ada.lovelace`, `dmitrij.ivanov`, `shan.tian`.
enum GeneratedUID {
    /// The longest base id (numbers for uniqueness come on top).
    static let maximumLength = 40

    /// Letters that transliteration leaves alone but that have a usual ASCII spelling.
    private static let spellings: [Character: String] = [
        "ł": "l", "ø": "o", "ß": "ss", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h",
    ]

    /// The id for a person named `given surname`: lowercase ASCII letters and
    /// digits, names joined with `.`, words within a name with `-`.
    static func base(given: String?, surname: String) -> String {
        let parts = [given, surname].compactMap { $0.map(asciiWords) }.filter { !$0.isEmpty }
        var id = parts.joined(separator: ".")
        if id.count > maximumLength {
            id = String(id.prefix(maximumLength))
            while id.last == "." || id.last == "-" { id.removeLast() }
        }
        return id.isEmpty ? "person" : id
    }

    /// `name` as ASCII words joined with `-`.
    private static func asciiWords(_ name: String) -> String {
        let latin = name.applyingTransform(.toLatin, reverse: false) ?? name
        let plain = (latin.applyingTransform(.stripDiacritics, reverse: false) ?? latin).lowercased()
        var words: [String] = []
        var word = ""
        for character in plain {
            if character.isASCII && (character.isLetter || character.isNumber) {
                word.append(character)
            } else if let spelling = spellings[character] {
                word += spelling
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: "-")
    }

    /// The first of `base`, `base.2`, `base.3`, ... that is not in `taken`
    /// (compared case-insensitively, as `uid` is).
    static func firstFree(_ base: String, taken: Set<String>) -> String {
        let lowered = Set(taken.map { $0.lowercased() })
        if !lowered.contains(base) { return base }
        var number = 2
        while lowered.contains("\(base).\(number)") { number += 1 }
        return "\(base).\(number)"
    }
}
