import LDAPKit

/// Which attribute a query word matched: the name attributes rank above the others.
public enum MatchedAttribute: String, Sendable, Hashable, CaseIterable {
    /// `givenName`.
    case givenName
    /// `sn`.
    case surname
    /// `cn`.
    case commonName
    /// `displayName`.
    case displayName
    /// ldapbook's nickname (`ldapbookNickname`).
    case nickname
    /// An email address (`mail`): its local part, or the address from its start.
    case email

    /// The LDAP attribute.
    public var attribute: String {
        switch self {
        case .givenName: "givenName"
        case .surname: "sn"
        case .commonName: "cn"
        case .displayName: "displayName"
        case .nickname: LDAPBookSchemaName.nickname
        case .email: "mail"
        }
    }

    /// Where it comes among the attributes, in the order they are listed here.
    var precedence: Int {
        switch self {
        case .givenName: 0
        case .surname: 1
        case .commonName: 2
        case .displayName: 3
        case .nickname: 4
        case .email: 5
        }
    }

    /// Whether it is one of a person's names, which rank above nickname and email matches.
    public var isName: Bool { self != .nickname && self != .email }

    /// The attribute in words, for `--explain`: "first name".
    public var words: String {
        switch self {
        case .givenName: "first name"
        case .surname: "last name"
        case .commonName: "full name (cn)"
        case .displayName: "display name"
        case .nickname: "nickname"
        case .email: "email address"
        }
    }
}

/// How one word of the query matched one of a person's values.
public struct WordMatch: Sendable, Hashable {
    /// The attribute the value is of.
    public let attribute: MatchedAttribute
    /// The value, as stored.
    public var value: String { stored.lossyString }
    let stored: LDAPValue
    /// Whether the word matched from the value's start (`Ada` in `Ada`), rather than from a
    /// later word of it (`Berg` in `van der Berg`).
    public let isWholeName: Bool
    /// Whether the word matched up to the end of a word of the value (`jean` in `Jean-Luc`),
    /// rather than only its beginning (`je`).
    public let isExact: Bool
    /// Whether it matched with the accents as typed, not only once folded.
    public let hasTypedAccents: Bool

    /// Better matches first: a name attribute, from the value's start, to a word's end,
    /// with the accents typed.
    /// Between matches as good, the first and last names come before the full name, and
    /// that before the display name: `ada` matched `Ada` the first name, not `Ada Lovelace`.
    func isBetter(than other: WordMatch) -> Bool {
        rank != other.rank ? rank > other.rank : attribute.precedence < other.attribute.precedence
    }

    /// The four qualities as the bits of a number, the first the highest.
    private var rank: Int {
        (attribute.isName ? 8 : 0) | (isWholeName ? 4 : 0) | (isExact ? 2 : 0) | (hasTypedAccents ? 1 : 0)
    }
}

/// Which of a person's names a query matched, for lists and JSON.
public enum NameMatch: String, Sendable, Hashable, CaseIterable {
    /// A first name and a last name (or, for one word, both).
    case both
    /// A first name only.
    case given
    /// A last name only.
    case surname
    /// The full name (`cn`) or the display name only.
    case fullName = "full-name"
    /// The nickname or the email address only.
    case other
    /// Nothing.
    case none

    /// Whether anything matched.
    public var matches: Bool { self != .none }
}

/// How well a person matches a query, comparable so that better matches come first.
///
/// In order: more of the query's words matched; more of them by a name attribute (first, last,
/// full or display name) rather than the nickname or an email address; a first and a last name
/// both matched; more words matched from a name's start rather than from a later word of it;
/// more matched up to a word's end; more with the accents as typed.
public struct NameScore: Sendable, Hashable, Comparable {
    /// Each query word's best match, in the query's order; `nil` where it matched nothing.
    public let words: [WordMatch?]

    /// How many query words matched.
    public let matchedWords: Int
    /// How many matched a name attribute.
    public let nameWords: Int
    /// How many matched from a name's start.
    public let wholeNameWords: Int
    /// How many matched up to a word's end.
    public let exactWords: Int
    /// How many matched with the accents as typed.
    public let typedAccentWords: Int
    /// Whether a first name and a last name both matched (by different words, or one word
    /// that matches both).
    public let matchesBothNames: Bool
    /// The parts in the order they count, eight bits each, so that comparing two scores is
    /// comparing two integers (ranking compares scores n log n times).
    let rank: UInt64

    init(words: [WordMatch?], matchesBothNames: Bool) {
        self.words = words
        self.matchesBothNames = matchesBothNames
        var matched = 0, names = 0, whole = 0, exact = 0, accents = 0
        for case let word? in words {
            matched += 1
            if word.attribute.isName { names += 1 }
            if word.isWholeName { whole += 1 }
            if word.isExact { exact += 1 }
            if word.hasTypedAccents { accents += 1 }
        }
        (matchedWords, nameWords, wholeNameWords, exactWords, typedAccentWords) = (matched, names, whole, exact, accents)
        var rank: UInt64 = 0
        for part in [matched, names, matchesBothNames ? 1 : 0, whole, exact, accents] {
            rank = rank << 8 | UInt64(min(part, 255))
        }
        self.rank = rank
    }

    /// Which names matched.
    public var match: NameMatch {
        if matchesBothNames { return .both }
        func matched(_ attribute: MatchedAttribute) -> Bool { words.contains { $0?.attribute == attribute } }
        if matched(.givenName) { return .given }
        if matched(.surname) { return .surname }
        if matched(.commonName) || matched(.displayName) { return .fullName }
        return words.allSatisfy { $0 == nil } ? .none : .other
    }

    /// Whether a word of the query matched one of the person's names or their nickname, not
    /// only an email address.
    public var matchesAName: Bool { words.contains { $0.map { $0.attribute != .email } ?? false } }

    /// Whether every word of the query matched a name of the person: what makes one person
    /// the one a query means, when nobody else does.
    public var isFullMatch: Bool { !words.isEmpty && nameWords == words.count }

    /// Better scores sort first.
    public static func < (lhs: NameScore, rhs: NameScore) -> Bool {
        lhs.rank > rhs.rank
    }

    /// A score of nothing matched, for `count` query words.
    static func none(words count: Int) -> NameScore {
        NameScore(words: Array(repeating: nil, count: count), matchesBothNames: false)
    }

    /// Why the person matches, in words, for `--explain`: "ada: first name Ada (exact)".
    public func explanation(tokens: [String]) -> String {
        zip(tokens, words).map { token, match -> String in
            guard let match else { return "\(token): no match" }
            var how: [String] = []
            if !match.isWholeName { how.append("a later word") }
            how.append(match.isExact ? "exact" : "prefix")
            if !match.hasTypedAccents { how.append("accents folded") }
            return "\(token): \(match.attribute.words) \(match.value) (\(how.joined(separator: ", ")))"
        }.joined(separator: "; ")
    }
}

/// The one matcher of names: what the server is asked for (``filter``), and how each person
/// it returns scores (``score(_:)``). `find`, `reach`, `show`, `set`, `photo`, `export`,
/// `query` and the terminal picker's filter all match through it.
///
/// A query word matches a value when the value's folded form, from the start of one of its
/// words, starts with the word's folded form (see ``FoldedName``): `zoe` matches `Zoë`,
/// `obrien` and `brien` match `O'Brien`, `jeanluc` and `luc` match `Jean-Luc`, `berg` matches
/// `van der Berg`. An email address is matched from the start of its local part's words
/// (`ada`, `ada@analytical`), never from its domain's alone. Values of every name attribute
/// count: `givenName`, `sn`, `cn`, `displayName`, ldapbook's nickname, `mail`.
///
/// **The server narrows.** LDAP's substring matching compares case but not accents, so the
/// filter asks, for each query word, for the values that begin with a spelling of the word's
/// first three letters, as typed or with one of them accented as it commonly is, and that hold
/// the word's further letters that no accent changes in the same order (``LetterSpellings``:
/// for `jerome`, `jer*`, `jér*`…`jeř*` then `*m*`); `sn` also
/// with an apostrophe after the first letter (`O'Brien`); and the values with a later word
/// that starts with the word: for words of four letters or more, the values that contain it
/// (`van der Berg` for `berg`), for words of three, those that contain it after a space, a
/// hyphen or an apostrophe (`Mary Ann` for `ann`, `Jean-Luc` for `luc`); a shorter inner
/// string is more than slapd's substring index answers (`index_substr_any_len`, 4), and a
/// term the index cannot answer has the server read every entry. A substring index answers the
/// prefixes and the inner words; the letters that follow are checked by the server on what the
/// index found. The server returns those people; the matcher keeps the ones whose folded names
/// really match. That search covers first, last and full names (``filter``), which directories
/// index for substrings; display names, nicknames and email addresses, which they seldom do,
/// are searched (``otherFilter``) when no name matches or the query holds an address, since an
/// unindexed term would have the server read every entry. Whoever a search returns is matched
/// on every attribute: `ada countess` finds Ada by her first name, and her display name (Ada,
/// Countess of Lovelace) then ranks her above the other Adas.
///
/// ``score(_:)`` scores each entry as it arrives; nothing is kept of those who do not match.
public struct NameMatcher: Sendable {
    /// The query.
    public let query: NameQuery
    /// The name attributes searched: the nickname only where the directory has ldapbook's schema.
    public let attributes: [MatchedAttribute]
    /// Each query word folded, in the query's order.
    let tokens: [FoldedName]

    /// The shortest word the filter also looks for inside values: what a substring index
    /// (slapd's default `index_substr_any_len`) can answer.
    static let minimumInnerLength = 4

    /// What may end the word before a later word of a name, looked for before a query word one
    /// letter shorter than ``minimumInnerLength``, to make up the length.
    static let wordSeparators = [" ", "-", "'", "\u{2019}"]

    /// A matcher for `query`; `nicknames` says whether the directory has ldapbook's nickname.
    public init(_ query: NameQuery, nicknames: Bool = true) {
        self.query = query
        attributes = MatchedAttribute.allCases.filter { nicknames || $0 != .nickname }
        let folding = NameFolding()
        tokens = query.tokens.map { folding.fold($0) }
    }

    // MARK: The server's part

    /// The attributes to read of each person, besides a field's: every name attribute
    /// searched, and what tells namesakes apart (``Person/detailAttributes``). Nothing else:
    /// a search can return much of the directory, and every attribute costs the server.
    public var readAttributes: [String] {
        attributes.map(\.attribute) + Person.detailAttributes
    }

    /// The attributes a substring index usually serves (`cn`, and `givenName` and `sn` where
    /// people are looked up by name): the filter ``filter`` asks for.
    static let indexedNames: Set<MatchedAttribute> = [.givenName, .surname, .commonName]

    /// The filter for the people whose first, last or full names may match: see the type's
    /// description.
    public var filter: LDAPFilter { filter(on: attributes.filter { Self.indexedNames.contains($0) }) }

    /// The filter for the people whose display name, nickname or email address may match,
    /// which servers seldom index for substrings: asked for only when ``filter`` finds nobody,
    /// or a word of the query is an address (``looksLikeAnAddress``), so that typing a name
    /// never has the server read every entry.
    public var otherFilter: LDAPFilter { filter(on: attributes.filter { !Self.indexedNames.contains($0) }) }

    /// Whether a word of the query has an `@`, as only an email address does.
    public var looksLikeAnAddress: Bool { query.looksLikeAnAddress }

    /// The filter for the values of `attributes` that may match.
    private func filter(on attributes: [MatchedAttribute]) -> LDAPFilter {
        var terms: [LDAPFilter] = []
        for (typed, token) in zip(query.tokens, tokens) where !token.isEmpty {
            let letters = String(decoding: token.folded, as: UTF8.self)
            let (spelt, stable) = LetterSpellings.spellings(of: letters)
            let asTyped = typed.lowercased()
            var prefixes = spelt
            if !prefixes.contains(where: { asTyped.hasPrefix($0) }) { prefixes.append(asTyped) }
            for attribute in attributes {
                var alternatives: [LDAPFilter] = []
                switch attribute {
                case .email:
                    // Addresses are ASCII: their first letters as folded, or the word as typed.
                    for prefix in Set([String(letters.prefix(3)), asTyped]).sorted() where prefix.allSatisfy(\.isASCII) {
                        alternatives.append(.prefix(attribute.attribute, LDAPValue(prefix)))
                    }
                default:
                    var spellings = prefixes.map { LDAPFilter.prefix(attribute.attribute, LDAPValue($0)) }
                    // The letters no accent changes follow, in order, whatever lies between them.
                    if !stable.isEmpty {
                        let chain = LDAPFilter.substrings(attribute.attribute, initial: nil,
                                                          any: stable.map { LDAPValue(String($0)) }, final: nil)
                        spellings = [.and([.or(spellings), chain])]
                    }
                    alternatives += spellings
                }
                if attribute == .surname, let first = letters.first, letters.count >= 2 {
                    for apostrophe in ["'", "\u{2019}"] {
                        alternatives.append(.prefix(attribute.attribute, LDAPValue(String(first) + apostrophe + letters.dropFirst())))
                    }
                }
                if attribute != .email && letters.allSatisfy(\.isASCII) {
                    if token.folded.count >= Self.minimumInnerLength {
                        alternatives.append(.contains(attribute.attribute, LDAPValue(letters)))
                    } else if token.folded.count == Self.minimumInnerLength - 1 {
                        for separator in Self.wordSeparators {
                            alternatives.append(.contains(attribute.attribute, LDAPValue(separator + letters)))
                        }
                    }
                }
                terms += alternatives
            }
        }
        return .or(terms)
    }

    // MARK: The matcher's part

    /// How `person` matches the query. A person the server returned but whose names do not
    /// really match scores no matched word.
    public func score(_ person: Person) -> NameScore {
        score(person, using: NameFolding())
    }

    /// ``score(_:)`` with the folds of earlier people's characters remembered in `folding`.
    func score(_ person: Person, using folding: NameFolding) -> NameScore {
        var words = Array(repeating: WordTally(), count: tokens.count)
        // The storage of the folded values is the previous person's, handed back at the end.
        var name = FoldedName()
        swap(&name, &folding.scratch)
        defer { swap(&name, &folding.scratch) }
        // What the person sorts by, kept as it is folded: the first value of the first
        // attribute of each name (as ``LDAPKit/LDAPEntry/subscript(_:)`` reads them).
        folding.sortNames.removeAll()
        var sawSurname = false, sawGivenName = false
        // The names first; the nickname and addresses only for words no name matched, since
        // a name's match is always the better.
        for namesOnly in Self.namesFirst {
            if !namesOnly && !words.contains(where: { $0.best == nil }) { break }
            for entryAttribute in person.entry.attributes {
                guard let attribute = attributes.first(where: {
                    $0.isName == namesOnly && $0.attribute.utf8.count == entryAttribute.name.utf8.count
                        && entryAttribute.isNamed($0.attribute)
                }) else { continue }
                var sortsBy: MatchedAttribute?
                if attribute == .surname && !sawSurname {
                    sawSurname = true
                    sortsBy = .surname
                } else if attribute == .givenName && !sawGivenName {
                    sawGivenName = true
                    sortsBy = .givenName
                }
                // An empty first value sorts as no name; the first value is folded first.
                if entryAttribute.values.first?.isEmpty != false { sortsBy = nil }
                for value in entryAttribute.values where !value.isEmpty {
                    folding.fold(value, into: &name)
                    if let kept = sortsBy {
                        if kept == .surname {
                            NameFolding.SortNames.keep(name, in: &folding.sortNames.surname)
                        } else {
                            NameFolding.SortNames.keep(name, in: &folding.sortNames.givenName)
                        }
                        sortsBy = nil
                    }
                    let starts = attribute == .email ? Self.localPartWords(of: value, in: name) : 0..<name.foldedWords.count
                    for index in tokens.indices {
                        guard let match = Self.match(tokens[index], in: name, words: starts, attribute: attribute, value: value)
                        else { continue }
                        words[index].add(match)
                    }
                }
            }
        }
        var both = false
        if tokens.count == 1 {
            both = words[0].given && words[0].surname
        } else {
            for i in tokens.indices where words[i].given {
                for j in tokens.indices where j != i && words[j].surname { both = true }
            }
        }
        return NameScore(words: words.map(\.best), matchesBothNames: both)
    }

    /// The passes of ``score(_:using:)``: names, then the others.
    private static let namesFirst = [true, false]

    /// What one query word has matched so far among a person's values.
    private struct WordTally {
        /// The word's best match.
        var best: WordMatch?
        /// Whether it matched a first name, and whether a last name.
        var given = false, surname = false

        mutating func add(_ match: WordMatch) {
            if match.attribute == .givenName { given = true }
            if match.attribute == .surname { surname = true }
            if best.map({ match.isBetter(than: $0) }) ?? true { best = match }
        }
    }

    /// Each query word folded, as text (`zoë` is `zoe`).
    public var foldedWords: [String] { tokens.map { String(decoding: $0.folded, as: UTF8.self) } }

    /// Whether `value` starts with a word of the query, as names match (folded): what makes
    /// someone found by their value alone a plausible candidate (`alan` and alan.t@example.com).
    public func startsAWord(_ value: LDAPValue) -> Bool {
        let name = NameFolding().fold(value.lossyString)
        return !name.foldedWords.isEmpty && tokens.contains { token in
            !token.isEmpty && Self.match(token, in: name, words: 0..<1, attribute: .email, value: value) != nil
        }
    }

    /// Whether every word of `typed` matches a word of one of `texts`, as a query word matches
    /// a name: the terminal picker's filter, over what a line shows and the names behind it.
    /// Text that cannot be a query (control characters) matches nothing; empty text, everything.
    public static func filter(_ typed: String, matches texts: [String]) -> Bool {
        guard !typed.allSatisfy(\.isWhitespace) else { return true }
        guard let query = try? NameQuery(typed) else { return false }
        return NameMatcher(query).matchesEveryWord(in: texts)
    }

    /// Whether every word of the query matches a word of one of `texts`.
    public func matchesEveryWord(in texts: [String]) -> Bool {
        let folding = NameFolding()
        let names = texts.map { folding.fold($0) }
        return tokens.allSatisfy { token in
            token.isEmpty || names.contains { name in
                Self.match(token, in: name, words: 0..<name.foldedWords.count, attribute: .commonName, value: LDAPValue("")) != nil
            }
        }
    }

    /// The word positions of an email address's local part (before the `@`), from which its
    /// words may match: the address's domain matches only after its local part.
    static func localPartWords(of address: LDAPValue, in name: FoldedName) -> Range<Int> {
        let bytes = address.byteSlice
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return 0..<name.foldedWords.count }
        // The words that start before the @ (addresses are ASCII: a byte is a letter).
        var words = 0, inWord = false
        for byte in bytes[..<at] {
            let letterOrDigit = (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte >= 0x80
            if letterOrDigit && !inWord { words += 1 }
            inWord = letterOrDigit
        }
        return 0..<min(max(words, 1), name.foldedWords.count)
    }

    /// How `token` matches `name` from the start of one of the words at `words`, the best such
    /// match; `nil` for none.
    static func match(_ token: FoldedName, in name: FoldedName, words: Range<Int>, attribute: MatchedAttribute,
                      value: LDAPValue) -> WordMatch? {
        var best: WordMatch?
        let lowered = (bytes: name.lowered, words: name.loweredWords)
        for word in words {
            let start = name.foldedWords[word]
            guard name.folded.count - start >= token.folded.count,
                  name.folded[start..<start + token.folded.count].elementsEqual(token.folded) else { continue }
            let end = start + token.folded.count
            let isExact = end == name.folded.count || name.foldedWords.contains(end)
            let loweredStart = lowered.words[word]
            let accents = lowered.bytes.count - loweredStart >= token.lowered.count
                && lowered.bytes[loweredStart..<loweredStart + token.lowered.count].elementsEqual(token.lowered)
            let match = WordMatch(attribute: attribute, stored: value, isWholeName: word == 0, isExact: isExact,
                                  hasTypedAccents: accents)
            if best.map({ match.isBetter(than: $0) }) ?? true { best = match }
        }
        return best
    }
}

/// The spellings of a word's first three letters that fold to them: the letters as they are,
/// or one of them written otherwise: with an accent it commonly takes in Latin scripts (`e`: `é`,
/// `è`, `ê`, `ë`, `ę`, `ě`), or as a letter that stands for it (`ø` for `o`, `ł` for `l`, `ß` for
/// `ss`, `æ` for `ae`); and the letters after those that no accent changes, which a name must
/// hold in that order.
///
/// One accent among the first three letters, not more: every spelling is a term of the
/// server's filter, times the attributes searched, and spelling every combination would make
/// 192 of them for `ala` (against 17), or fall back on two letters, which for `alan` had the
/// server send every Alice and Albert, 774 people at 100,000 entries, to keep 60. A name with
/// two accents among its first three letters (`Šťastný`) is found by its other name, or by a
/// query that types one of them.
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
    /// Letters written for two.
    static let pairs: [String: String] = ["ss": "ß", "ae": "æ", "oe": "œ", "th": "þ"]

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
            // A letter that takes accents may be spelt otherwise; so may the h of a th (þ).
            guard variants[letter] == nil, !(letter == "h" && index > 0 && characters[index - 1] == "t") else { continue }
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
        if letters.count >= 2, let pair = pairs[String(letters.prefix(2))] {
            spellings += spell(letters.dropFirst(2), otherwise: otherwise - 1).map { pair + $0 }
        }
        return spellings
    }
}
