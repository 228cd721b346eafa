import LDAPKit
import SQLiteKit

extension PeopleIndex.Store {
    /// The people `matcher` may mean, as the index keeps them: everyone filed under a prefix
    /// of a query word's forms (as typed, spelt out, transliterated), its nicknames, and the
    /// words of the vocabulary within its typos, by a name or an address; or, for a phone
    /// number, under its digits. The matcher then decides who really matches, and how well.
    func candidates(for matcher: NameMatcher) throws -> [LDAPEntry] {
        var ids = Set<Int64>()
        if let number = matcher.query.phoneNumber {
            let lookups = number.indexLookups
            for prefix in lookups.prefixes { try collect(prefix: Postings.key(.phone, prefix.utf8), into: &ids) }
            for whole in lookups.wholeKeys { ids.formUnion(try list(Postings.key(.phone, whole.utf8))) }
        } else {
            var prefixes: [[UInt8]] = []
            for forms in try lookups(for: matcher) {
                for (form, _) in forms {
                    for kind in [Postings.Kind.name, .address] {
                        let prefix = IndexKeys.key(kind, form[...])
                        if prefix.count > 1 && !prefixes.contains(prefix) { prefixes.append(prefix) }
                    }
                }
            }
            for prefix in prefixes { try collect(prefix: prefix, into: &ids) }
        }
        return try ids.sorted().compactMap { try entry(id: $0) }
    }

    /// The forms each query word is looked up by, and how: as typed (an address by its local
    /// part), spelt otherwise, its nicknames, the words of the vocabulary within its typos; none
    /// for a word of which nothing is left to look up.
    func lookups(for matcher: NameMatcher) throws -> [[(form: [UInt8], lookup: IndexLookup)]] {
        try matcher.tokens.indices.map { index in
            let typed = matcher.query.tokens[index], token = matcher.tokens[index]
            let alternatives = matcher.alternatives[index]
            var forms: [(form: [UInt8], lookup: IndexLookup)] = []
            if typed.contains("@") {
                forms.append((folding.fold(IndexKeys.localPart(of: LDAPValue(typed)).lossyString).folded, .address))
            } else {
                forms.append((token.folded, .typed(accented: token.hasOwnLowered)))
            }
            guard !forms[0].form.isEmpty else { return [] }
            for spelling in alternatives.spellings { forms.append((spelling.name.folded, .spelling)) }
            for nickname in alternatives.nicknames { forms.append((nickname.word, .nickname(length: nickname.word.count))) }
            if alternatives.typos.edits > 0 {
                for word in try typoWords(alternatives) { forms.append((word, .typo(length: word.count))) }
            }
            return forms.filter { !$0.form.isEmpty }
        }
    }

    /// The words of the vocabulary a typed word may be with its typos (``Vocabulary``).
    private func typoWords(_ alternatives: NameMatcher.TokenAlternatives) throws -> [[UInt8]] {
        let typed = alternatives.letters, edits = alternatives.typos.edits
        let mask = Vocabulary.mask(of: typed)
        var found: [[UInt8]] = []
        for length in max(typed.count - edits, 1)...(typed.count + edits) {
            try forEachKey(prefix: Vocabulary.shelfKey(length: length)) { _, shelf in
                found += Vocabulary.words(in: shelf, near: typed, mask: mask, allowed: alternatives.typos)
            }
        }
        return found
    }
}

/// How a query word is looked up in the index.
enum IndexLookup {
    /// As typed (folded); `accented` when typed with letters folding changes.
    case typed(accented: Bool)
    /// An address, by its local part: anything may match.
    case address
    /// Spelt otherwise, or in Latin letters.
    case spelling
    /// A nickname of `length` bytes: a whole word of a name.
    case nickname(length: Int)
    /// A word of the vocabulary, of `length` bytes, within the word's typos.
    case typo(length: Int)
}
