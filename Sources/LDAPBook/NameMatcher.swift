import LDAPKit

/// The one matcher of names: what the server is asked for (``filter``), what the local index
/// is asked for (``PeopleIndex``), and how each person found scores (``score(_:)``). `find`,
/// `reach`, `show`, `set`, `photo`, `export`, `query` and the terminal picker's filter all
/// match through it.
///
/// A query word matches a value when the value's folded form, from the start of one of its
/// words, starts with the word's folded form (see ``FoldedName``): `zoe` matches `Zoë`,
/// `obrien` and `brien` match `O'Brien`, `jeanluc` and `luc` match `Jean-Luc`, `berg` and
/// `vanderberg` match `van der Berg`. An email address is matched from the start of its local
/// part's words (`ada`, `ada@analytical`), never from its domain's alone. Values of every name
/// attribute count: `givenName`, `sn`, `cn`, `displayName`, ldapbook's nickname, `mail`.
///
/// A word also matches, ranked after matching as it is typed:
/// - a name with a letter spelt out (`mueller` for Müller, `soerensen` for Sørensen,
///   `müller` for Mueller: ``NameFolding/spelledOutLetters``);
/// - a name in another script through its Latin transliteration (`wang wei` for 王伟, `olga`
///   for Ольга: ``Transliteration``), and a word typed in another script a Latin name;
/// - a nickname or the name it stands for, as whole words (`bob` for Robert, `robert` for Bob:
///   ``Nicknames``), ranked after those;
/// - a whole word of the name with typing mistakes (`lovelcae` for Lovelace: ``Typos``), last.
///
/// A query that is a phone number (``NameQuery/phoneNumber``) matches the person whose work,
/// mobile, home or pager number it is, by its digits (``PhoneDigits``).
///
/// ``score(_:)`` scores each entry as it arrives; nothing is kept of those who do not match.
public struct NameMatcher: Sendable {
    /// The query.
    public let query: NameQuery
    /// The attributes searched: the name attributes (the nickname only where the directory has
    /// ldapbook's schema), or the phone attributes for a phone number.
    public let attributes: [MatchedAttribute]
    /// Each query word folded, in the query's order.
    let tokens: [FoldedName]
    /// What else each word may match as: its other spellings, its nicknames, its typos.
    let alternatives: [TokenAlternatives]
    /// Which words are particles (`van`, `de`, `al`) in a query that has other words too: such a
    /// word matches only with another (`vincent van gogh` is not Pieter van der Berg).
    let dependentWords: [Bool]

    /// What else one query word may match as, besides itself.
    struct TokenAlternatives: Sendable {
        /// The word spelt otherwise: its letters spelt out (`müller` as `mueller`), or in Latin
        /// letters (`Ольга` as `olga`), folded.
        var spellings: [(name: FoldedName, kind: MatchKind)] = []
        /// The names it is a nickname of, or whose nicknames it is, folded whole words.
        var nicknames: [(word: [UInt8], formalName: String)] = []
        /// The word's folded letters, for comparing with typos.
        var letters: [Unicode.Scalar] = []
        /// How many typing mistakes it may have.
        var typos: Typos.Allowance = .none

        /// Whether the word may match as anything but itself and its spellings.
        var hasApproximations: Bool { !nicknames.isEmpty || typos.edits > 0 }
    }

    /// A matcher for `query`; `nicknames` says whether the directory has ldapbook's nickname.
    public init(_ query: NameQuery, nicknames: Bool = true) {
        self.query = query
        if query.phoneNumber != nil {
            attributes = [.phone]
        } else {
            attributes = MatchedAttribute.names.filter { nicknames || $0 != .nickname }
        }
        let folding = NameFolding()
        tokens = query.tokens.map { folding.fold($0) }
        alternatives = query.phoneNumber != nil ? [TokenAlternatives()] : zip(query.tokens, tokens).map { typed, token in
            Self.alternatives(of: typed, folded: token, folding: folding)
        }
        let particles = query.phoneNumber != nil ? [false] : query.tokens.map(NameCapitalization.isParticle)
        dependentWords = particles.contains(false) ? particles : particles.map { _ in false }
    }

    /// What else `typed` (folded: `token`) may match as.
    static func alternatives(of typed: String, folded token: FoldedName, folding: NameFolding) -> TokenAlternatives {
        var found = TokenAlternatives()
        guard !token.isEmpty else { return found }
        if let spelled = NameFolding.spelledOut(typed) {
            let name = folding.fold(spelled)
            if name.folded != token.folded { found.spellings.append((name, .spelledOut)) }
        }
        if let latin = Transliteration.latin(of: typed) {
            let name = folding.fold(latin)
            if !name.isEmpty && name.folded != token.folded { found.spellings.append((name, .transliterated)) }
        }
        let word = String(decoding: token.folded, as: UTF8.self)
        // Names are words of letters: nicknames and typos are for words typed as names.
        guard token.foldedWords.count == 1, word.unicodeScalars.allSatisfy(\.properties.isAlphabetic) else { return found }
        for group in Nicknames.groups(containing: word) {
            for name in group.names where name != word && !found.nicknames.contains(where: { $0.word.elementsEqual(name.utf8) }) {
                found.nicknames.append((Array(name.utf8), group.formalName))
            }
        }
        found.letters = Array(word.unicodeScalars)
        found.typos = Typos.allowance(forLength: found.letters.count)
        return found
    }

    // MARK: The matcher's part

    /// How `person` matches the query. A person the server returned but whose names do not
    /// really match scores no matched word.
    public func score(_ person: Person) -> NameScore {
        score(person, using: NameFolding())
    }

    /// ``score(_:)`` with the folds of earlier people's characters remembered in `folding`.
    func score(_ person: Person, using folding: NameFolding) -> NameScore {
        if let number = query.phoneNumber { return phoneScore(person, number, using: folding) }
        var words = Array(repeating: WordTally(), count: tokens.count)
        // The storage of the folded values is the previous person's, handed back at the end.
        var name = FoldedName()
        swap(&name, &folding.scratch)
        defer { swap(&name, &folding.scratch) }
        folding.sortNames.removeAll()
        var sorting = SortNameTracker()
        let spellingsTyped = alternatives.contains { !$0.spellings.isEmpty }
        // The names first; the nickname and addresses only for words no name matched, since
        // a name's match is always the better.
        for namesOnly in Self.namesFirst {
            if !namesOnly && !words.contains(where: { $0.best == nil }) { break }
            forEachValue(of: person, namesOnly: namesOnly) { attribute, entryAttribute, value in
                folding.fold(value, into: &name)
                sorting.keep(name, attribute: attribute, value: value, of: entryAttribute, in: folding)
                let starts = attribute == .email ? Self.localPartWords(of: value, in: name) : 0..<name.foldedWords.count
                for index in tokens.indices {
                    if let match = Self.match(tokens[index], in: name, words: starts, attribute: attribute, value: value) {
                        words[index].add(match)
                    }
                }
                guard attribute != .email, spellingsTyped || name.hasSpelledOutLetters || name.hasOtherScripts else { return }
                let forms = Self.otherForms(of: value, folded: name, folding: folding, transliterating: false)
                for index in tokens.indices {
                    for form in forms {
                        if let match = Self.match(tokens[index], in: form.name, words: 0..<form.name.foldedWords.count,
                                                  attribute: attribute, value: value, kind: form.kind) {
                            words[index].add(match)
                        }
                    }
                    for spelling in alternatives[index].spellings {
                        for form in [(name: name, kind: MatchKind.direct)] + forms {
                            if let match = Self.match(spelling.name, in: form.name, words: 0..<form.name.foldedWords.count,
                                                      attribute: attribute, value: value,
                                                      kind: form.kind == .direct ? spelling.kind : form.kind) {
                                words[index].add(match)
                            }
                        }
                    }
                }
            }
        }
        // Nicknames and typos, for the words nothing else matched.
        if tokens.indices.contains(where: { words[$0].best == nil && alternatives[$0].hasApproximations }) {
            approximate(person, into: &words, name: &name, folding: folding)
        }
        if !words.indices.contains(where: { words[$0].best != nil && !dependentWords[$0] }) {
            return .none(words: tokens.count)
        }
        return NameScore(words: words.map(\.best), matchesBothNames: Self.matchesBoth(words))
    }

    /// Whether a first name and a last name both matched: by different words, or one word
    /// that matches both.
    private static func matchesBoth(_ words: [WordTally]) -> Bool {
        if words.count == 1 { return words[0].given && words[0].surname }
        for i in words.indices where words[i].given {
            for j in words.indices where j != i && words[j].surname { return true }
        }
        return false
    }

    /// The passes of ``score(_:using:)``: names, then the others.
    private static let namesFirst = [true, false]

    /// Calls `body` with each non-empty value of the person's attributes that are searched,
    /// the names' (`namesOnly`) or the others'.
    private func forEachValue(of person: Person, namesOnly: Bool,
                              _ body: (MatchedAttribute, LDAPAttribute, LDAPValue) -> Void) {
        for entryAttribute in person.entry.attributes {
            guard let attribute = attributes.first(where: {
                $0.isName == namesOnly && $0.attribute.utf8.count == entryAttribute.name.utf8.count
                    && entryAttribute.isNamed($0.attribute)
            }) else { continue }
            for value in entryAttribute.values where !value.isEmpty { body(attribute, entryAttribute, value) }
        }
    }

    /// What the person sorts by, kept as the scoring folds them: the first value of the first
    /// attribute of each name (as ``LDAPKit/LDAPEntry/subscript(_:)`` reads them).
    private struct SortNameTracker {
        private var sawSurname = false, sawGivenName = false

        mutating func keep(_ name: FoldedName, attribute matched: MatchedAttribute, value: LDAPValue, of entryAttribute: LDAPAttribute,
                           in folding: NameFolding) {
            // Only the first value of the attribute, and only when it is not empty.
            guard matched == .surname || matched == .givenName, entryAttribute.values.first == value,
                  matched == .surname ? !sawSurname : !sawGivenName else { return }
            if matched == .surname {
                sawSurname = true
                NameFolding.SortNames.keep(name, in: &folding.sortNames.surname)
            } else {
                sawGivenName = true
                NameFolding.SortNames.keep(name, in: &folding.sortNames.givenName)
            }
        }
    }

    /// The value's other forms worth matching: its letters spelt out, and its Latin
    /// transliteration, each folded; without `transliterating`, only a transliteration known
    /// already (``Transliteration/latin(of:computing:)``).
    static func otherForms(of value: LDAPValue, folded name: FoldedName, folding: NameFolding, transliterating: Bool = true)
        -> [(name: FoldedName, kind: MatchKind)]
    {
        guard name.hasSpelledOutLetters || name.hasOtherScripts, let text = value.string else { return [] }
        var forms: [(name: FoldedName, kind: MatchKind)] = []
        if name.hasSpelledOutLetters, let spelled = folding.spelledOutForm(of: text) {
            forms.append((spelled, .spelledOut))
        }
        if name.hasOtherScripts, let latin = Transliteration.latin(of: text, computing: transliterating) {
            let transliterated = folding.fold(latin)
            if !transliterated.isEmpty { forms.append((transliterated, .transliterated)) }
        }
        return forms
    }

    /// The nicknames and typos of the query words nothing else matched, among the person's
    /// names (their addresses are no names to make typos in).
    private func approximate(_ person: Person, into words: inout [WordTally], name: inout FoldedName, folding: NameFolding) {
        let open = tokens.indices.filter { words[$0].best == nil && alternatives[$0].hasApproximations }
        for namesOnly in Self.namesFirst {
            forEachValue(of: person, namesOnly: namesOnly) { attribute, _, value in
                guard attribute != .email else { return }
                folding.fold(value, into: &name)
                let forms = [(name: name, kind: MatchKind.direct)]
                    + Self.otherForms(of: value, folded: name, folding: folding, transliterating: false)
                for index in open {
                    for form in forms {
                        for word in form.name.foldedWords.indices {
                            if let match = approximateMatch(index, word: word, in: form.name, attribute: attribute, value: value) {
                                words[index].add(match)
                            }
                        }
                    }
                }
            }
        }
    }

    /// How query word `index` matches word `word` of `name` as a nickname or with typos.
    private func approximateMatch(_ index: Int, word: Int, in name: FoldedName, attribute: MatchedAttribute,
                                  value: LDAPValue) -> WordMatch? {
        let letters = name.word(word)
        let alternatives = alternatives[index]
        // Nicknames are given names: not last names, nor addresses.
        if attribute != .surname, let nickname = alternatives.nicknames.first(where: { $0.word.elementsEqual(letters) }) {
            return WordMatch(attribute: attribute, stored: value, isWholeName: word == 0, isExact: true, hasTypedAccents: false,
                             kind: .nickname(formalName: nickname.formalName))
        }
        guard alternatives.typos.edits > 0, abs(letters.count - alternatives.letters.count) <= 2 * alternatives.typos.edits
        else { return nil }
        let target = Array(String(decoding: letters, as: UTF8.self).unicodeScalars)
        guard let edits = Typos.edits(from: alternatives.letters, to: target, allowed: alternatives.typos) else { return nil }
        return WordMatch(attribute: attribute, stored: value, isWholeName: word == 0, isExact: true, hasTypedAccents: false,
                         kind: .typo(edits: edits))
    }

    /// The score of a phone number: whether one of the person's phone numbers is it, by its
    /// digits.
    private func phoneScore(_ person: Person, _ number: PhoneDigits, using folding: NameFolding) -> NameScore {
        folding.sortNames.removeAll()
        var sorting = SortNameTracker()
        var name = FoldedName()
        swap(&name, &folding.scratch)
        defer { swap(&name, &folding.scratch) }
        var best: WordMatch?
        for entryAttribute in person.entry.attributes {
            if entryAttribute.isNamed("sn") || entryAttribute.isNamed("givenName"), let first = entryAttribute.values.first,
               !first.isEmpty {
                folding.fold(first, into: &name)
                sorting.keep(name, attribute: entryAttribute.isNamed("sn") ? .surname : .givenName, value: first,
                             of: entryAttribute, in: folding)
                continue
            }
            guard MatchedAttribute.phoneAttributes.contains(where: { entryAttribute.isNamed($0) }) else { continue }
            for value in entryAttribute.values {
                guard let stored = value.string.flatMap(PhoneDigits.init), number.isMatched(by: stored) else { continue }
                let match = WordMatch(attribute: .phone, stored: value, isWholeName: true, isExact: stored.digits == number.digits,
                                      hasTypedAccents: true, kind: .phoneDigits)
                if best.map({ match.isBetter(than: $0) }) ?? true { best = match }
            }
        }
        return NameScore(words: [best], matchesBothNames: false)
    }

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
    /// a name (spellings and scripts included; nicknames and typos, which are guesses, not):
    /// the terminal picker's filter, over what a line shows and the names behind it. Text that
    /// cannot be a query (control characters) matches nothing; empty text, everything.
    public static func filter(_ typed: String, matches texts: [String]) -> Bool {
        guard !typed.allSatisfy(\.isWhitespace) else { return true }
        guard let query = try? NameQuery(typed) else {
            // A number narrows a list by the numbers in it.
            let digits = typed.filter(\.isNumber)
            return !digits.isEmpty && texts.contains { $0.filter(\.isNumber).contains(digits) }
        }
        return NameMatcher(query).matchesEveryWord(in: texts)
    }

    /// Whether every word of the query matches a word of one of `texts`.
    public func matchesEveryWord(in texts: [String]) -> Bool {
        if let number = query.phoneNumber {
            return texts.contains { PhoneDigits($0).map(number.isMatched(by:)) ?? false }
        }
        let folding = NameFolding()
        let names = texts.flatMap { text -> [FoldedName] in
            let name = folding.fold(text)
            return [name] + Self.otherForms(of: LDAPValue(text), folded: name, folding: folding).map(\.name)
        }
        return tokens.indices.allSatisfy { index in
            let token = tokens[index]
            return token.isEmpty || names.contains { name in
                ([token] + alternatives[index].spellings.map(\.name)).contains { form in
                    Self.match(form, in: name, words: 0..<name.foldedWords.count, attribute: .commonName, value: LDAPValue("")) != nil
                }
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
                      value: LDAPValue, kind: MatchKind = .direct) -> WordMatch? {
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
                                  hasTypedAccents: accents, kind: kind)
            if best.map({ match.isBetter(than: $0) }) ?? true { best = match }
        }
        return best
    }
}
