import LDAPKit
import SQLiteKit

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
            for forms in try lookups(for: matcher) {
                for (form, _) in forms {
                    let prefix = IndexKeys.key(.name, form[...])
                    if prefix.count > 1 && !prefixes.contains(prefix) { prefixes.append(prefix) }
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

/// A person the index may rank for a query, as the keys they are filed under tell it, before
/// they are read: how well they can match at best, and where they come among equals.
struct IndexedCandidate: Sendable {
    /// The person's id in the index.
    let id: Int64
    /// The best ``NameScore/rank`` their keys allow: their score, read, is never above it.
    let bound: UInt64
    /// Where they come among people of equal scores (``PeopleIndex/Store/positionsPerRow``).
    let position: UInt32
    /// Whether they may match every word by a name, as typed or spelt otherwise
    /// (``NameScore/isFullMatch``); and, besides, every word to a word's end.
    let mayBeFull: Bool, mayBeExactFull: Bool

    /// Whether this candidate comes before `other`: a higher bound, then an earlier position.
    func precedes(_ other: IndexedCandidate) -> Bool {
        bound != other.bound ? bound > other.bound : position < other.position
    }
}

/// The people the index may rank for a query, given best first as they are asked for: only
/// the first few of thousands are, so they are kept in a heap (ordered as they are taken, in
/// a time of the logarithm of their number), not sorted (`jo` names 120,000 people of a
/// million; sorting them took longer than the rest of the lookup).
struct IndexedCandidates {
    /// Everyone, in no order.
    private let candidates: [IndexedCandidate]
    /// The places in ``candidates`` of those not taken yet, as a binary heap whose first
    /// ``IndexedCandidate/precedes(_:)`` every other.
    private var heap: [Int32]

    init(_ candidates: [IndexedCandidate]) {
        self.candidates = candidates
        heap = candidates.indices.map { Int32($0) }
        for parent in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(parent) }
    }

    /// How many there are, taken or not.
    var count: Int { candidates.count }

    /// The best of those not taken yet.
    var best: IndexedCandidate? { heap.first.map { candidates[Int($0)] } }

    /// Takes the best of those not taken yet.
    mutating func takeBest() -> IndexedCandidate? {
        guard let first = heap.first else { return nil }
        heap[0] = heap[heap.count - 1]
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        return candidates[Int(first)]
    }

    /// Those not taken yet, in no order.
    var remaining: some Sequence<IndexedCandidate> { heap.lazy.map { candidates[Int($0)] } }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            for child in 2 * parent + 1...2 * parent + 2 where child < heap.count
                && candidates[Int(heap[child])].precedes(candidates[Int(heap[first])]) {
                first = child
            }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}

extension PeopleIndex.Store {
    /// How one query word may match a person, as their keys tell.
    ///
    /// Its low six bits are the qualities of one match as the score counts them, the first the
    /// highest, so that comparing them as numbers compares them as the score does: a name
    /// (``identifies``), as typed or spelt otherwise (``close``), by a nickname, from the
    /// value's first word, to a word's end, with the accents typed. Each key gives a match at
    /// least as good as the one it stands for (where it cannot tell, a quality is assumed),
    /// and a word keeps the best of its keys': the word's best match, which the score counts,
    /// is never better. (Each bit of several keys' joined would be no bound: a name matched
    /// with folded accents and an address as typed are not one match with both.)
    ///
    /// The bits above say whether any match was of a first name, of a last name (what makes
    /// both names matched), or a name as typed to a word's end (what a full match of every
    /// word to a word's end needs).
    private struct WordBits: OptionSet {
        let rawValue: UInt16
        static let accents = WordBits(rawValue: 1), exact = WordBits(rawValue: 2), whole = WordBits(rawValue: 4)
        static let nickname = WordBits(rawValue: 8), close = WordBits(rawValue: 16), identifies = WordBits(rawValue: 32)
        static let given = WordBits(rawValue: 64), surname = WordBits(rawValue: 128), exactName = WordBits(rawValue: 256)
        /// The qualities of one match.
        static let match = WordBits(rawValue: 63)

        /// Whether any match was found.
        var matched: Bool { !isEmpty }

        /// `other`'s match, taken in: the better of the two matches, and every flag of either.
        mutating func take(_ other: WordBits) {
            var taken = WordBits(rawValue: max(rawValue & Self.match.rawValue, other.rawValue & Self.match.rawValue))
            taken.formUnion(WordBits(rawValue: (rawValue | other.rawValue) & ~Self.match.rawValue))
            if other.contains([.identifies, .close, .exact]) { taken.insert(.exactName) }
            self = taken
        }
    }

    /// The forms each query word is looked up by, and how: as typed (an address by its local
    /// part), spelt otherwise, its nicknames, the words of the vocabulary within its typos; none
    /// for a word of which nothing is left to look up.
    private func lookups(for matcher: NameMatcher) throws -> [[(form: [UInt8], lookup: Lookup)]] {
        try matcher.tokens.indices.map { index in
            let typed = matcher.query.tokens[index], token = matcher.tokens[index]
            let alternatives = matcher.alternatives[index]
            var forms: [(form: [UInt8], lookup: Lookup)] = []
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

    /// How a query word is looked up.
    private enum Lookup {
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

    /// What a key of `key`'s class says a person under it may match, for a word looked up as
    /// `lookup` whose folded form has `length` bytes; `[]` for nothing.
    private static func bits(of key: ParsedNameKey, lookup: Lookup, length: Int) -> WordBits {
        guard let attribute = key.nameClass.attribute else { return [] }
        var bits: WordBits = []
        if attribute.identifies { bits.insert(.identifies) }
        if attribute == .givenName { bits.insert(.given) }
        if attribute == .surname { bits.insert(.surname) }
        if key.nameClass.isWholeName { bits.insert(.whole) }
        switch lookup {
        case .address:
            return WordBits(rawValue: 0x1FF)
        case .typed(let accented):
            bits.insert(.close)
            if !key.nameClass.isOtherForm && (accented || key.keepsAccents(length: length)) { bits.insert(.accents) }
            if key.mayEndAWord(length: length) { bits.insert(.exact) }
        case .spelling:
            bits.insert(.close)
            if key.mayEndAWord(length: length) { bits.insert(.exact) }
        case .nickname(let length):
            // Nicknames are given names: a whole word of a name, not a last name or an address.
            guard attribute != .surname, attribute != .email, key.firstWordLength.map({ $0 == length }) ?? true else { return [] }
            bits.formUnion([.nickname, .exact])
        case .typo(let length):
            guard attribute != .email, key.firstWordLength.map({ $0 == length }) ?? true else { return [] }
            bits.insert(.exact)
        }
        return bits
    }

    /// The people `matcher` may mean, best bound first, then in the order ties are broken by
    /// (``IndexedCandidate``), without reading anyone: the lookups of
    /// ``candidates(for:)``, each key's class and words bounding how well its people can match
    /// each query word. `nil` when the index cannot bound the scores: no positions (someone
    /// new or renamed since the last sync), a phone number, a word of digits or of nothing
    /// but punctuation.
    func rankedCandidates(for matcher: NameMatcher) throws -> IndexedCandidates? {
        guard matcher.query.phoneNumber == nil, !matcher.tokens.isEmpty,
              !matcher.tokens.contains(where: { $0.isEmpty || $0.folded.contains { $0 &- 0x30 < 10 } }) else { return nil }
        let largest = try statement("SELECT max(id) FROM people")
        let people = try largest.step() ? Int(largest.int64(at: 0)) + 1 : 1
        largest.reset()
        return try rankedCandidates(for: matcher, people: people)
    }

    private func rankedCandidates(for matcher: NameMatcher, people: Int) throws -> IndexedCandidates? {
        let words = matcher.tokens.count
        // Each person's bits for each word, and whom any key named, in the order first named.
        var bits = [WordBits](repeating: [], count: people * words)
        var named: [Int64] = []
        var beyond = false
        func file(_ key: [UInt8], _ list: UnsafeBufferPointer<UInt8>, word: Int, lookup: Lookup, length: Int) {
            guard let parsed = ParsedNameKey(key) else { return }
            let found = Self.bits(of: parsed, lookup: lookup, length: length)
            guard !found.isEmpty else { return }
            Postings.forEachID(in: list) { id in
                guard id > 0, id < people else { beyond = true; return }
                let at = Int(id) * words
                if (0..<words).allSatisfy({ !bits[at + $0].matched }) { named.append(id) }
                bits[at + word].take(found)
            }
        }
        let looked = try lookups(for: matcher)
        for (index, forms) in looked.enumerated() {
            for (form, lookup) in forms {
                try forEachKey(prefix: IndexKeys.key(.name, form[...])) { key, list in
                    file(key, list, word: index, lookup: lookup, length: form.count)
                }
            }
        }
        // A full or display name that is the first name and the last joined has no keys of its
        // own (``IndexKeys``): a word typed across the two (`johns` for John Smith) matches it,
        // as it may for anyone named already whose first name the word starts with.
        for (index, forms) in looked.enumerated() {
            for (form, lookup) in forms {
                let typed: Bool
                switch lookup {
                case .typed: typed = true
                case .spelling: typed = false
                default: continue
                }
                for length in 1..<max(min(form.count, IndexKeys.maximumKeyLength), 1) where form[length] & 0xC0 != 0x80 {
                    try forEachKey(prefix: IndexKeys.key(.name, form[..<length]) + [0]) { key, list in
                        guard let parsed = ParsedNameKey(key), parsed.nameClass.attribute == .givenName, !parsed.nameClass.isCut
                        else { return }
                        var spanning: WordBits = [.identifies, .close, .exact]
                        if parsed.nameClass.isWholeName { spanning.insert(.whole) }
                        if typed && !parsed.nameClass.isOtherForm { spanning.insert(.accents) }
                        Postings.forEachID(in: list) { id in
                            guard id > 0, id < people else { beyond = true; return }
                            let at = Int(id) * words
                            if (0..<words).contains(where: { bits[at + $0].matched }) { bits[at + index].take(spanning) }
                        }
                    }
                }
            }
        }
        if beyond { return nil }
        if named.isEmpty { return IndexedCandidates([]) }
        return try ranked(named, bits: bits, words: words)
    }

    /// The people `named`, each with their bound from `bits` and their place among equals (read
    /// only now that someone may be ranked, and only the rows of those named); `nil` when
    /// someone has no place.
    private func ranked(_ named: [Int64], bits: [WordBits], words: Int) throws -> IndexedCandidates? {
        var rows: [Int: [UInt8]] = [:]
        var ranked: [IndexedCandidate] = []
        ranked.reserveCapacity(named.count)
        for id in named {
            let at = Int(id) * words
            var matched = 0, names = 0, close = 0, nicknames = 0, whole = 0, exact = 0, accents = 0
            var full = true, exactFull = true
            for word in 0..<words {
                let these = bits[at + word]
                if these.isEmpty {
                    full = false
                    exactFull = false
                    continue
                }
                matched += 1
                if these.contains(.identifies) { names += 1 }
                if these.contains(.close) { close += 1 }
                if these.contains(.nickname) { nicknames += 1 }
                if these.contains(.whole) { whole += 1 }
                if these.contains(.exact) { exact += 1 }
                if these.contains(.accents) { accents += 1 }
                if !these.contains([.identifies, .close]) { full = false }
                if !these.contains(.exactName) { exactFull = false }
            }
            // A first and a last name: one word both, or two words one each.
            var both = false
            if words == 1 {
                both = bits[at].contains([.given, .surname])
            } else {
                for i in 0..<words where bits[at + i].contains(.given) {
                    for j in 0..<words where j != i && bits[at + j].contains(.surname) { both = true }
                }
            }
            let bound = NameScore.rank(matched: matched, names: names, bothNames: both, close: close, nicknames: nicknames,
                                       whole: whole, exact: exact, accents: accents)
            let row = Int(id) / Self.positionsPerRow, place = Int(id) % Self.positionsPerRow * 4
            if rows[row] == nil {
                guard let read = try positions(row: row) else { return nil }
                rows[row] = read
            }
            guard let positions = rows[row], place + 4 <= positions.count else { return nil }
            let position = UInt32(positions[place]) | UInt32(positions[place + 1]) << 8 | UInt32(positions[place + 2]) << 16
                | UInt32(positions[place + 3]) << 24
            // Someone without a place was added since the positions were worked out.
            guard position > 0 else { return nil }
            ranked.append(IndexedCandidate(id: id, bound: bound, position: position, mayBeFull: full, mayBeExactFull: exactFull))
        }
        return IndexedCandidates(ranked)
    }
}
