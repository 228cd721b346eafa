import LDAPKit

/// The spellings of a word that fold to it, for the server's filter: the letters as they are,
/// or one of them written otherwise: with an accent it commonly takes in Latin scripts (`e`: `é`,
/// `è`, `ê`, `ë`, `ę`, `ě`), or as a letter that stands for it (`ø` for `o`, `ł` for `l`, `ß` for
/// `ss`, `ü` for `ue`).
///
/// One letter written otherwise, not more: every spelling is a term of the server's filter,
/// times the attributes searched, and spelling every combination would make 192 of them for
/// `ala` (against 17). A name with two accents (`Jérôme`, `Nguyễn`) is found through the local
/// index, or by a query that types one of them.
///
/// ``spellings(ofWhole:)`` spells the whole word, each spelling as selective as the word: what
/// a lookup asks. ``spellings(of:)`` spells only the first three letters, for a search that
/// forgives the rest (an accent or a typo further on), which costs the server every name that
/// starts with those letters: asked only before a new entry is offered.
enum LetterSpellings {
    /// How many letters are spelt out.
    static let spelt = 3

    /// The other spellings of each letter.
    static let variants: [Character: [String]] = [
        "a": ["à", "á", "â", "ã", "ä", "å", "ą"], "c": ["ç", "č", "ć"], "d": ["ď", "đ"],
        "e": ["è", "é", "ê", "ë", "ę", "ě"], "g": ["ğ"], "i": ["ì", "í", "î", "ï", "ı"], "l": ["ł", "ľ"],
        "n": ["ñ", "ń", "ň"], "o": ["ò", "ó", "ô", "õ", "ö", "ø", "ő"], "r": ["ř"], "s": ["š", "ś", "ş"],
        "t": ["ť", "ţ"], "u": ["ù", "ú", "û", "ü", "ů", "ű"], "y": ["ý", "ÿ"], "z": ["ž", "ź", "ż"],
    ]
    /// Letters written for two, and two spelling out one (`ue` for `ü`).
    static let pairs: [String: [String]] = [
        "ss": ["ß"], "ae": ["æ", "ä"], "oe": ["œ", "ö"], "ue": ["ü"], "aa": ["å"], "th": ["þ"],
    ]

    /// The spellings of the whole of `letters` (folded), the letters as they are first.
    static func spellings(ofWhole letters: String) -> [String] {
        spell(Array(letters)[...], otherwise: 1)
    }

    /// The spellings of the first ``spelt`` letters of `letters` (folded), the letters as they
    /// are first; and the letters of the rest that every spelling of them leaves as they are (not
    /// `a`, `e`, `n`..., nor the `h` of a `th`), in order.
    static func spellings(of letters: String) -> (prefixes: [String], stable: [Character]) {
        let characters = Array(letters)
        let length = min(spelt, characters.count)
        let prefixes = spell(characters[..<length], otherwise: 1)
        var stable: [Character] = []
        for index in length..<characters.count {
            let letter = characters[index]
            // A letter that takes accents may be spelt otherwise; so may the h of a th (þ). A
            // letter of another script may carry an accent the fold dropped (the tonos of
            // Greek's ό): only a plain Latin letter is the same on the server as folded.
            guard letter.isASCII, variants[letter] == nil, !(letter == "h" && index > 0 && characters[index - 1] == "t")
            else { continue }
            stable.append(letter)
        }
        return (prefixes, stable)
    }

    /// The spellings of `letters` with at most `otherwise` of them written otherwise, the
    /// letters as they are first.
    private static func spell(_ letters: ArraySlice<Character>, otherwise: Int) -> [String] {
        guard let first = letters.first else { return [""] }
        var spellings = spell(letters.dropFirst(), otherwise: otherwise).map { String(first) + $0 }
        guard otherwise > 0 else { return spellings }
        for variant in variants[first] ?? [] {
            spellings += spell(letters.dropFirst(), otherwise: otherwise - 1).map { variant + $0 }
        }
        for pair in letters.count >= 2 ? pairs[String(letters.prefix(2))] ?? [] : [] {
            spellings += spell(letters.dropFirst(2), otherwise: otherwise - 1).map { pair + $0 }
        }
        return spellings
    }
}
