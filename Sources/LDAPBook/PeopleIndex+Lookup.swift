import LDAPKit

extension PeopleIndex.Store {
    /// The people `matcher` may mean, as the index keeps them: everyone filed under a prefix
    /// of a query word's forms (as typed, spelt out, transliterated), its nicknames, and the
    /// words of the vocabulary within its typos; or, for a phone number, under its digits.
    /// The matcher then decides who really matches, and how well.
    func candidates(for matcher: NameMatcher) throws -> [LDAPEntry] {
        var ids = Set<Int64>()
        if let number = matcher.query.phoneNumber {
            let lookups = number.indexLookups
            for prefix in lookups.prefixes { try collect(prefix: Postings.key(.phone, prefix.utf8), into: &ids) }
            for whole in lookups.wholeKeys { ids.formUnion(try list(Postings.key(.phone, whole.utf8))) }
        } else {
            var prefixes: [[UInt8]] = []
            func add(_ prefix: [UInt8]) {
                if prefix.count > 1 && !prefixes.contains(prefix) { prefixes.append(prefix) }
            }
            for (index, token) in matcher.tokens.enumerated() {
                // An address is looked up by its local part.
                let typed = matcher.query.tokens[index]
                let looked = typed.contains("@") ? folding.fold(IndexKeys.localPart(of: LDAPValue(typed)).lossyString) : token
                guard !looked.isEmpty else { continue }
                let alternatives = matcher.alternatives[index]
                add(IndexKeys.key(.name, looked.folded[...]))
                for spelling in alternatives.spellings { add(IndexKeys.key(.name, spelling.name.folded[...])) }
                for nickname in alternatives.nicknames { add(IndexKeys.key(.name, nickname.word[...])) }
                if alternatives.typos.edits > 0 {
                    for word in try typoWords(alternatives) { add(IndexKeys.key(.name, word[...])) }
                }
            }
            for prefix in prefixes { try collect(prefix: prefix, into: &ids) }
        }
        return try ids.sorted().compactMap { try entry(id: $0) }
    }

    /// The words of the vocabulary a typed word may be with its typos (``Vocabulary``).
    private func typoWords(_ alternatives: NameMatcher.TokenAlternatives) throws -> [[UInt8]] {
        let typed = alternatives.letters, edits = alternatives.typos.edits
        let mask = Vocabulary.mask(of: typed)
        var found: [[UInt8]] = []
        for length in max(typed.count - edits, 1)...(typed.count + edits) {
            try withValue(of: Vocabulary.shelfKey(length: length)) { shelf in
                found += Vocabulary.words(in: shelf, near: typed, mask: mask, allowed: alternatives.typos)
            }
        }
        return found
    }
}
