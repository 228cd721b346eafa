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
    /// description.
    public var filter: LDAPFilter {
        if let number = query.phoneNumber { return Self.phoneFilter(number) }
        return filter(on: attributes.filter { Self.indexedNames.contains($0) })
    }

    /// The filter for the people whose display name, nickname or email address may match,
    /// which servers seldom index for substrings: asked for only when a word of the query is
    /// an address (``looksLikeAnAddress``), and then under a size and time limit, so that
    /// typing a name never has the server read every entry. (A nickname's formal names are
    /// in ``filter``, on the indexed first names: `bob` asks for `robert*`.)
    public var otherFilter: LDAPFilter { filter(on: attributes.filter { !Self.indexedNames.contains($0) && $0 != .phone }) }

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
        // The names a nickname stands for (and a name's nicknames), as first or full names.
        var nicknames: [String] = []
        for alternative in alternatives {
            for nickname in alternative.nicknames where !nicknames.contains(where: { $0.utf8.elementsEqual(nickname.word) }) {
                nicknames.append(String(decoding: nickname.word, as: UTF8.self))
            }
        }
        for attribute in attributes where attribute == .givenName || attribute == .commonName {
            terms += nicknames.map { .prefix(attribute.attribute, LDAPValue($0)) }
        }
        return .or(terms)
    }
}
