import LDAPKit

extension NameMatcher {
    // MARK: The server's part

    /// The shortest word the filter also looks for inside values: what a substring index
    /// (slapd's default `index_substr_any_len`) can answer.
    static let minimumInnerLength = 4

    /// What may end the word before a later word of a name, looked for before a query word one
    /// letter shorter than ``minimumInnerLength``, to make up the length.
    static let wordSeparators = [" ", "-", "'", "\u{2019}"]

    /// The attributes to read of each person, besides a field's: every name attribute
    /// searched, and what tells namesakes apart (``Person/detailAttributes``). Nothing else:
    /// a search can return much of the directory, and every attribute costs the server.
    public var readAttributes: [String] {
        var read = attributes.flatMap(\.attributes) + Person.detailAttributes
        // A number's holder is shown by name.
        if query.phoneNumber != nil { read += ["givenName", "sn", "cn", "displayName"] }
        return read
    }

    /// The attributes a substring index usually serves (`cn`, and `givenName` and `sn` where
    /// people are looked up by name): the filter ``filter`` asks for.
    static let indexedNames: Set<MatchedAttribute> = [.givenName, .surname, .commonName]

    /// The filter for the people whose first, last or full names may match: see the type's
    /// description. Each term is about as selective as the word typed, so that the server reads
    /// little more than a plain prefix search would (BENCHMARKS.md, workload 6d): the word, or
    /// the word with one letter written otherwise (``LetterSpellings``), at the start of a first
    /// or last name (of a full name, the word as typed);
    /// from four letters anywhere in it, at three after a space, hyphen or apostrophe; a
    /// nickname's formal names. With several words, a word found only inside a name or by a
    /// nickname counts for whom another word finds too (`john smith` asks for the Jacks among
    /// the Smiths, not every Jack). A typo, or an accent on a letter the query did not spell
    /// otherwise, is forgiven by the local index, and by ``forgivingFilter`` before a new
    /// entry is offered.
    public var filter: LDAPFilter {
        if let number = query.phoneNumber { return Self.phoneFilter(number) }
        return filter(on: attributes.filter { Self.indexedNames.contains($0) }, forgiving: false)
    }

    /// The filter of ``filter`` that also forgives a typo or an accent after the third letter:
    /// the people whose names start with a spelling of each word's first three letters (`lov*`
    /// for `lovelcae`), which may be many (673 people at 1,000,000 entries, 9 ms of slapd's
    /// CPU). Asked only when the lookup found nobody and a new entry is to be offered, under a
    /// size and time limit: never per keystroke.
    public var forgivingFilter: LDAPFilter {
        if let number = query.phoneNumber { return Self.phoneFilter(number) }
        return filter(on: attributes.filter { Self.indexedNames.contains($0) }, forgiving: true)
    }

    /// The filter for the people whose display name, nickname or email address may match,
    /// which servers seldom index for substrings: asked for only when a word of the query is
    /// an address (``looksLikeAnAddress``), and then under a size and time limit, so that
    /// typing a name never has the server read every entry. (A nickname's formal names are
    /// in ``filter``, on the indexed first names: `bob` asks for `robert*`.)
    public var otherFilter: LDAPFilter {
        filter(on: attributes.filter { !Self.indexedNames.contains($0) && $0 != .phone }, forgiving: true)
    }

    /// The filter for the people with a phone number ending in the last digits of `number`
    /// (at most ``phoneFilterDigits`` of them: the number's other digits may be written
    /// otherwise, as a trunk prefix or a country code). Directories compare numbers ignoring
    /// spaces and hyphens (`telephoneNumberSubstringsMatch`); the digits are checked again here.
    static func phoneFilter(_ number: PhoneDigits) -> LDAPFilter {
        let ending = LDAPValue(String(number.description.suffix(phoneFilterDigits)))
        return .or(MatchedAttribute.phoneAttributes.map { .substrings($0, initial: nil, any: [], final: ending) })
    }

    /// The most trailing digits the phone filter asks for.
    static let phoneFilterDigits = 7

    /// Whether a word of the query has an `@`, as only an email address does.
    public var looksLikeAnAddress: Bool { query.looksLikeAnAddress }

    /// The filter for the values of `attributes` that may match; `forgiving` spells only the
    /// first three letters of each word, and lets every word count alone.
    private func filter(on attributes: [MatchedAttribute], forgiving: Bool) -> LDAPFilter {
        // Each word's terms: the word at the start of a name (`plain`), and found otherwise.
        var plain: [[LDAPFilter]] = [], other: [[LDAPFilter]] = []
        for (index, (typed, token)) in zip(query.tokens, tokens).enumerated() where !token.isEmpty {
            let letters = String(decoding: token.folded, as: UTF8.self)
            let asTyped = typed.lowercased()
            var prefixes: [String], stable: [Character] = []
            if forgiving {
                (prefixes, stable) = LetterSpellings.spellings(of: letters)
            } else {
                prefixes = LetterSpellings.spellings(ofWhole: letters)
            }
            if !prefixes.contains(where: { asTyped.hasPrefix($0) }) { prefixes.append(asTyped) }
            var starts: [LDAPFilter] = [], elsewhere: [LDAPFilter] = []
            for attribute in attributes {
                if attribute == .email {
                    // Addresses are ASCII: their first letters as folded, or the word as typed.
                    for prefix in Set([String(letters.prefix(3)), asTyped]).sorted() where prefix.allSatisfy(\.isASCII) {
                        starts.append(.prefix(attribute.attribute, LDAPValue(prefix)))
                    }
                    continue
                }
                // A full name starts with the first or the last name, whose spellings are asked
                // for on givenName and sn: on cn, the word only (a third fewer terms, each of
                // which costs slapd a few index reads: 2.2x to 1.7x ldapsearch's CPU for
                // `lovelcae` at 1,000,000 entries).
                let spelt = forgiving || attribute != .commonName ? prefixes : prefixes.filter { $0 == letters || $0 == asTyped }
                var spellings = spelt.map { LDAPFilter.prefix(attribute.attribute, LDAPValue($0)) }
                // The letters no accent changes follow, in order, whatever lies between them.
                if !stable.isEmpty {
                    let chain = LDAPFilter.substrings(attribute.attribute, initial: nil,
                                                      any: stable.map { LDAPValue(String($0)) }, final: nil)
                    spellings = [.and([.or(spellings), chain])]
                }
                starts += spellings
                if attribute == .surname, let first = letters.first, letters.count >= 2 {
                    for apostrophe in ["'", "\u{2019}"] {
                        elsewhere.append(.prefix(attribute.attribute, LDAPValue(String(first) + apostrophe + letters.dropFirst())))
                    }
                }
                if letters.allSatisfy(\.isASCII) {
                    if token.folded.count >= Self.minimumInnerLength {
                        elsewhere.append(.contains(attribute.attribute, LDAPValue(letters)))
                    } else if token.folded.count == Self.minimumInnerLength - 1 {
                        for separator in Self.wordSeparators {
                            elsewhere.append(.contains(attribute.attribute, LDAPValue(separator + letters)))
                        }
                    }
                }
            }
            // The names a nickname stands for (and a name's nicknames), as first or full names.
            for attribute in attributes where attribute == .givenName || attribute == .commonName {
                elsewhere += alternatives[index].nicknames.map { .prefix(attribute.attribute, LDAPValue(String(decoding: $0.word, as: UTF8.self))) }
            }
            plain.append(starts)
            other.append(elsewhere)
        }
        var terms = plain.flatMap { $0 }
        if forgiving || plain.count == 1 { return .or(terms + other.flatMap { $0 }) }
        // A word found otherwise, with another word found at all.
        for first in plain.indices {
            for second in plain.indices where second > first && !(other[first].isEmpty && other[second].isEmpty) {
                terms.append(.and([.or(plain[first] + other[first]), .or(plain[second] + other[second])]))
            }
        }
        return .or(terms)
    }
}
