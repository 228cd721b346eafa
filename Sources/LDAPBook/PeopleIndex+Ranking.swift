import LDAPKit

/// A person the index may rank for a query, as the keys they are filed under tell it, before
/// they are read: how well they can match at best, and where they come among equals.
struct IndexedCandidate: Sendable {
    /// The person's id in the index.
    let id: Int64
    /// The best ``NameScore/rank`` their keys allow: their score, read, is never above it.
    let bound: UInt64
    /// Where they come among people of equal scores (``PeopleIndex/Store/positionsPerRow``);
    /// 0 where it was not needed (``IndexedCandidates/remaining``).
    let position: UInt32
    /// Whether they may match every word by a name, as typed or spelt otherwise
    /// (``NameScore/isFullMatch``); and, besides, every word to a word's end.
    let mayBeFull: Bool, mayBeExactFull: Bool
}

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
struct WordBits: OptionSet {
    let rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    static let accents = WordBits(rawValue: 1), exact = WordBits(rawValue: 2), whole = WordBits(rawValue: 4)
    static let nickname = WordBits(rawValue: 8), close = WordBits(rawValue: 16), identifies = WordBits(rawValue: 32)
    static let given = WordBits(rawValue: 64), surname = WordBits(rawValue: 128), exactName = WordBits(rawValue: 256)
    /// The qualities of one match.
    static let match = WordBits(rawValue: 63)
    /// The best an address can match a word typed without an `@` by: as typed, from its
    /// start, to a word's end, with the accents typed (an address is no name, and no nickname
    /// or typo is looked up in addresses).
    static let bestAddress: WordBits = [.close, .whole, .exact, .accents]

    /// Whether any match was found.
    var matched: Bool { !isEmpty }

    /// `other`'s match, taken in: the better of the two matches, and every flag of either.
    mutating func take(_ other: WordBits) {
        var taken = WordBits(rawValue: max(rawValue & Self.match.rawValue, other.rawValue & Self.match.rawValue))
        taken.formUnion(WordBits(rawValue: (rawValue | other.rawValue) & ~Self.match.rawValue))
        if other.contains([.identifies, .close, .exact]) { taken.insert(.exactName) }
        self = taken
    }

    /// What a key of `key`'s class says a person under it may match, for a word looked up as
    /// `lookup` whose folded form has `length` bytes; `[]` for nothing.
    static func of(_ key: ParsedNameKey, lookup: IndexLookup, length: Int) -> WordBits {
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
}

extension PeopleIndex.Store {
    /// The people `matcher` may mean, best bound first, then in the order ties are broken by,
    /// as they are asked for, without reading anyone (``IndexedCandidates``). `nil` when the
    /// index cannot bound the scores: no positions (someone new or renamed since the last
    /// sync), a phone number, a word of digits or of nothing but punctuation.
    ///
    /// Use it under the index's lock, as the store itself.
    func rankedCandidates(for matcher: NameMatcher) throws -> IndexedCandidates? {
        guard matcher.query.phoneNumber == nil, !matcher.tokens.isEmpty,
              !matcher.tokens.contains(where: { $0.isEmpty || $0.folded.contains { $0 &- 0x30 < 10 } }),
              try hasPositions() else { return nil }
        let largest = try statement("SELECT max(id) FROM people")
        let people = try largest.step() ? Int(largest.int64(at: 0)) + 1 : 1
        largest.reset()
        return try IndexedCandidates(store: self, lookups: lookups(for: matcher), people: people)
    }
}

/// The people the index may rank for a query, given best bound first as they are asked for:
/// only the first few of thousands are (`jo` names 120,000 people of a million).
///
/// Each person's bound is worked out from the keys the query's words found them under; the
/// people of one bound are taken in their order among equals, the positions of those of a
/// bound read only when it is reached, and a bound's people ordered as they are taken (a
/// heap), not sorted.
///
/// **Addresses are read last.** Almost every person has an address no one else has
/// (`jonathan.ang.178387`), so most keys a prefix finds are addresses': 117,000 of the
/// 121,000 keys `jo` finds among a million people. An address is no name, so it can only
/// better a person's match of a word their names do not match: until the address keys are
/// read, such a word is taken to match by an address as well as one can
/// (``WordBits/bestAddress``), and whoever no name key named is bounded by ``unseen``. The
/// address keys are read once the best bound left is no better than that, or when a word is
/// typed with an `@` (looked up in addresses alone).
///
/// It reads the index as it goes: use it under the index's lock, as the store it was made
/// with.
final class IndexedCandidates {
    private let store: PeopleIndex.Store
    private let lookups: [[(form: [UInt8], lookup: IndexLookup)]]
    private let words: Int
    /// One more than the largest id: an id in a list beyond it is a damaged list's.
    private let people: Int
    /// The bits of each person for each word, `words` to a person: by id when
    /// ``bitsByID``, else in the order first named (``named``).
    private var bits: [WordBits] = []
    /// Whether ``bits`` are everyone's, by id: when the lists the words found may name an
    /// eighth of everyone or more. Else they are those named's, found by ``places``. Among a
    /// million people, everyone's bits (zeroed and faulted in page by page, then unmapped)
    /// took longer than the rest of a lookup of `john smith`; for the 121,000 `jo` names, a
    /// table of their places missed the cache more than everyone's bits did.
    private let bitsByID: Bool
    /// Whom any key named, in the order first named.
    private var named: [Int64] = []
    /// Each id named: its place in ``named`` (unless ``bitsByID``).
    private var places: PlaceTable
    /// Whether the address keys were read.
    private(set) var addressesRead = false
    /// Until the addresses are read, a bound of everyone no name key named: an address may
    /// name them, and then a first name a word starts with too (``spans(from:)``).
    private var unseen: UInt64 = 0
    /// Those taken.
    private var taken: Set<Int64> = []
    /// The people of each bound not begun, the best last, each bound's in ascending ids.
    private var pending: [(bound: UInt64, ids: [Int64])] = []
    /// The people of the bound being taken, as a binary heap whose first comes before every
    /// other among equals.
    private var level: [IndexedCandidate] = []
    /// How many of those named and not taken may match every word by a name, and to a
    /// word's end.
    private var mayBeFull = 0, mayBeExactFull = 0
    /// Each combination of a person's bits seen, assessed.
    private var assessed: [UInt64: Assessment] = [:]
    private var assessedWords = [Assessment?](repeating: nil, count: 512)

    private struct Assessment {
        let bound: UInt64
        let mayBeFull: Bool, mayBeExactFull: Bool
    }

    fileprivate init(store: PeopleIndex.Store, lookups: [[(form: [UInt8], lookup: IndexLookup)]], people: Int) throws {
        self.store = store
        self.lookups = lookups
        self.people = people
        words = lookups.count
        let bytes = try Self.listBytes(.name, of: lookups, in: store)
        bitsByID = min(bytes, people) >= people / 8 || people > Int(UInt32.max)
        if bitsByID {
            bits = [WordBits](repeating: [], count: people * words)
            places = PlaceTable(people: 1, bytes: 0)
        } else {
            places = PlaceTable(people: people, bytes: bytes)
        }
        try file(.name)
        let spanned = try spans(from: 0)
        // A word typed with an `@` is looked up in addresses alone: read them now.
        let addressed = lookups.contains { forms in
            forms.contains { if case .address = $0.lookup { true } else { false } }
        }
        if addressed {
            try readAddresses()
        } else {
            // Named by an address alone: every word at best as an address matches it; and, for
            // someone under a first name a word starts with, whom an address names, that word
            // as a name (an upper bound of both: no first or last name matched as such).
            let count = words
            unseen = NameScore.rank(matched: count, names: 0, bothNames: false, close: count, nicknames: 0, whole: count,
                                    exact: count, accents: count)
            if spanned {
                unseen = NameScore.rank(matched: count, names: count, bothNames: false, close: count, nicknames: 0,
                                        whole: count, exact: count, accents: count)
            }
            arrange()
        }
    }

    /// How many people the keys read so far named.
    var count: Int { named.count }

    /// The best of those not taken yet; reads the address keys first when it must.
    func best() throws -> IndexedCandidate? {
        while true {
            if level.isEmpty, let next = pending.popLast() { try begin(next) }
            let first = level.first
            if !addressesRead, first.map({ $0.bound <= unseen }) ?? true {
                try readAddresses()
                continue
            }
            return first
        }
    }

    /// Takes the best of those not taken yet.
    @discardableResult
    func takeBest() throws -> IndexedCandidate? {
        guard let first = try best() else { return nil }
        level[0] = level[level.count - 1]
        level.removeLast()
        if !level.isEmpty { siftDown(0) }
        taken.insert(first.id)
        if first.mayBeFull { mayBeFull -= 1 }
        if first.mayBeExactFull { mayBeExactFull -= 1 }
        return first
    }

    /// Which of those not taken ``remaining(_:)`` gives.
    enum Remaining {
        /// Everyone named.
        case named
        /// Those who may match every word by a name (``IndexedCandidate/mayBeFull``).
        case mayBeFull
        /// Those who may match every word by a name to a word's end.
        case mayBeExactFull
    }

    /// Those of `which` named and not taken yet, in the order first named (their position
    /// is not worked out).
    func remaining(_ which: Remaining) -> some Sequence<IndexedCandidate> {
        // How many there are is known: the search of them stops at the last.
        var left = switch which {
        case .named: named.count - taken.count
        case .mayBeFull: mayBeFull
        case .mayBeExactFull: mayBeExactFull
        }
        var place = 0
        let end = named.count
        return AnyIterator { () -> IndexedCandidate? in
            while left > 0, place < end {
                let id = self.named[place]
                place += 1
                guard !self.taken.contains(id) else { continue }
                let candidate = self.candidate(at: place - 1, position: 0)
                switch which {
                case .named: break
                case .mayBeFull: guard candidate.mayBeFull else { continue }
                case .mayBeExactFull: guard candidate.mayBeExactFull else { continue }
                }
                left -= 1
                return candidate
            }
            return nil
        }
    }

    /// Reads the address keys, unless they were: the bounds are then those of every key. Returns
    /// those whom they named alone, not taken yet (in no order, their position not worked out).
    @discardableResult
    func readAddresses() throws -> [IndexedCandidate] {
        guard !addressesRead else { return [] }
        addressesRead = true
        let before = named.count
        try file(.address)
        _ = try spans(from: before)
        assessed = [:]
        assessedWords = [Assessment?](repeating: nil, count: 512)
        arrange()
        return (before..<named.count).map { candidate(at: $0, position: 0) }
    }

    // MARK: Filing

    /// Files the people under each key of `kind` the words' forms are prefixes of.
    private func file(_ kind: Postings.Kind) throws {
        let (words, people, bitsByID) = (self.words, self.people, self.bitsByID)
        var bits = self.bits, named = self.named, places = self.places
        (self.bits, self.places) = ([], PlaceTable(people: 1, bytes: 0))
        defer { (self.bits, self.named, self.places) = (bits, named, places) }
        for (index, forms) in lookups.enumerated() {
            for (form, lookup) in forms {
                try store.forEachKey(prefix: IndexKeys.key(kind, form[...])) { key, list in
                    guard let parsed = ParsedNameKey(key) else { return }
                    let found = WordBits.of(parsed, lookup: lookup, length: form.count)
                    guard !found.isEmpty else { return }
                    Postings.forEachID(in: list) { id in
                        // An id beyond the largest is a damaged list's: it names nobody.
                        guard id > 0, id < people else { return }
                        if bitsByID {
                            let at = Int(id) * words
                            if (0..<words).allSatisfy({ !bits[at + $0].matched }) { named.append(id) }
                            bits[at + index].take(found)
                            return
                        }
                        let (place, isNew) = places.place(of: id, orNew: named.count)
                        if isNew {
                            named.append(id)
                            for _ in 0..<words { bits.append([]) }
                        }
                        bits[place * words + index].take(found)
                    }
                }
            }
        }
    }

    /// How many bytes the lists of the keys of `kind` the words' forms are prefixes of hold,
    /// in all: as many as the ids they hold, at least (an id takes a byte or more).
    private static func listBytes(_ kind: Postings.Kind, of lookups: [[(form: [UInt8], lookup: IndexLookup)]],
                                  in store: PeopleIndex.Store) throws -> Int {
        try lookups.joined().reduce(0) { $0 + (try store.listBytes(prefix: IndexKeys.key(kind, $1.form[...]))) }
    }

    /// A full or display name that is the first name and the last joined has no keys of its
    /// own (``IndexKeys``): a word typed across the two (`johns` for John Smith) matches it,
    /// as it may for anyone named already whose first name the word starts with. Applies
    /// this to those named from `start` on; returns whether anyone not named has such a
    /// first name (an address may name them).
    private func spans(from start: Int) throws -> Bool {
        let (words, people) = (self.words, self.people)
        var bits = self.bits
        self.bits = []
        defer { self.bits = bits }
        var unnamed = false
        let bitsByID = self.bitsByID
        let later = bitsByID && start > 0 ? Set(named[start...]) : nil
        for (index, forms) in lookups.enumerated() {
            for (form, lookup) in forms {
                let typed: Bool
                switch lookup {
                case .typed: typed = true
                case .spelling: typed = false
                default: continue
                }
                for length in 1..<max(min(form.count, IndexKeys.maximumKeyLength), 1) where form[length] & 0xC0 != 0x80 {
                    try store.forEachKey(prefix: IndexKeys.key(.name, form[..<length]) + [0]) { key, list in
                        guard let parsed = ParsedNameKey(key), parsed.nameClass.attribute == .givenName, !parsed.nameClass.isCut
                        else { return }
                        var spanning: WordBits = [.identifies, .close, .exact]
                        if parsed.nameClass.isWholeName { spanning.insert(.whole) }
                        if typed && !parsed.nameClass.isOtherForm { spanning.insert(.accents) }
                        Postings.forEachID(in: list) { id in
                            guard id > 0, id < people else { return }
                            if bitsByID {
                                guard later?.contains(id) ?? true else { return }
                                let at = Int(id) * words
                                if (0..<words).contains(where: { bits[at + $0].matched }) {
                                    bits[at + index].take(spanning)
                                } else {
                                    unnamed = true
                                }
                            } else if let place = self.places.place(of: id) {
                                if place >= start { bits[place * words + index].take(spanning) }
                            } else if start == 0 {
                                unnamed = true
                            }
                        }
                    }
                }
            }
        }
        return unnamed
    }

    // MARK: Bounds

    /// Groups those not taken by their bound.
    private func arrange() {
        // The bounds are few, and people named one after another (under one key) mostly share
        // theirs: a bound's place is looked up only when it changes.
        var places: [UInt64: Int] = [:]
        var levels: [(bound: UInt64, ids: [Int64])] = []
        var lastPlace: (bound: UInt64, place: Int)?
        var full = 0, exactFull = 0
        let (named, bits, bitsByID, taken) = (self.named, self.bits, self.bitsByID, self.taken)
        var last: LastAssessment?
        // People of one bound one after another are added to its level together.
        var run: (start: Int, place: Int)?
        for (person, id) in named.enumerated() {
            if !taken.isEmpty && taken.contains(id) {
                if let run { levels[run.place].ids += named[run.start..<person] }
                run = nil
                continue
            }
            let assessment = assessment(of: bits, at: (bitsByID ? Int(id) : person) * words, last: &last)
            let place: Int
            if let lastPlace, lastPlace.bound == assessment.bound {
                place = lastPlace.place
            } else {
                place = places[assessment.bound] ?? levels.count
                if place == levels.count {
                    places[assessment.bound] = place
                    levels.append((assessment.bound, []))
                }
                lastPlace = (assessment.bound, place)
            }
            if run?.place != place {
                if let run { levels[run.place].ids += named[run.start..<person] }
                run = (person, place)
            }
            if assessment.mayBeFull { full += 1 }
            if assessment.mayBeExactFull { exactFull += 1 }
        }
        if let run { levels[run.place].ids += named[run.start...] }
        (mayBeFull, mayBeExactFull) = (full, exactFull)
        pending = levels.sorted { $0.bound < $1.bound }
        level = []
    }

    /// Starts taking the people of a bound: their positions read, in a heap.
    ///
    /// Each row of positions is read once, in place, for all of them it holds. When they are
    /// in an eighth of the rows or more (the 5,000 Smiths among a million people are in every
    /// row), the rows are read one after another, as SQLite keeps them, rather than each
    /// looked up.
    private func begin(_ next: (bound: UInt64, ids: [Int64])) throws {
        let perRow = PeopleIndex.Store.positionsPerRow
        let ids = next.ids.sorted()
        level = []
        level.reserveCapacity(ids.count)
        // The ids of each row: a range of `ids`.
        var rows: [(row: Int, ids: Range<Int>)] = []
        var start = 0
        while start < ids.count {
            let row = Int(ids[start]) / perRow
            var end = start + 1
            while end < ids.count && Int(ids[end]) / perRow == row { end += 1 }
            rows.append((row, start..<end))
            start = end
        }
        // Their bits read as a local, as ``arrange()`` reads them.
        let (bits, bitsByID, places) = (self.bits, self.bitsByID, self.places)
        var last: LastAssessment?
        func candidate(_ id: Int64, position: UInt32) -> IndexedCandidate {
            self.candidate(id, assessment(of: bits, at: (bitsByID ? Int(id) : places.place(of: id) ?? 0) * words, last: &last),
                           position: position)
        }
        func take(_ ids: ArraySlice<Int64>, from positions: UnsafeBufferPointer<UInt8>) {
            for id in ids {
                let place = Int(id) % perRow * 4
                var position = UInt32.max
                if place + 4 <= positions.count {
                    let read = UInt32(positions[place]) | UInt32(positions[place + 1]) << 8
                        | UInt32(positions[place + 2]) << 16 | UInt32(positions[place + 3]) << 24
                    if read > 0 { position = read }
                }
                level.append(candidate(id, position: position))
            }
        }
        // Positions are dropped by anyone new and worked out for everyone: the index had them
        // when this began. Without one, a damaged row's, they come last.
        var read = [Bool](repeating: false, count: rows.count)
        if rows.count >= 8 && rows.count * 8 >= (people - 1) / perRow + 1 {
            var next = 0
            try store.forEachKey(prefix: [Postings.Kind.positions.rawValue]) { key, positions in
                guard key.count == 5 else { return }
                let row = key[1...].reduce(0) { $0 << 8 | Int($1) }
                while next < rows.count && rows[next].row < row { next += 1 }
                guard next < rows.count, rows[next].row == row else { return }
                take(ids[rows[next].ids], from: positions)
                read[next] = true
            }
        } else {
            for (index, row) in rows.enumerated() {
                read[index] = try store.withValue(of: PeopleIndex.Store.positionsKey(row: row.row)) { positions in
                    take(ids[row.ids], from: positions)
                } != nil
            }
        }
        for (index, row) in rows.enumerated() where !read[index] {
            for id in ids[row.ids] { level.append(candidate(id, position: .max)) }
        }
        for parent in stride(from: level.count / 2 - 1, through: 0, by: -1) { siftDown(parent) }
    }

    /// The candidate at `place` in ``named``.
    private func candidate(at place: Int, position: UInt32) -> IndexedCandidate {
        candidate(named[place], bitsAt: bitsOffset(ofPlace: place), position: position)
    }

    private func candidate(_ id: Int64, bitsAt at: Int, position: UInt32) -> IndexedCandidate {
        candidate(id, assessment(bitsAt: at), position: position)
    }

    private func candidate(_ id: Int64, _ assessment: Assessment, position: UInt32) -> IndexedCandidate {
        IndexedCandidate(id: id, bound: assessment.bound, position: position, mayBeFull: assessment.mayBeFull,
                         mayBeExactFull: assessment.mayBeExactFull)
    }

    /// Where the bits of the person at `place` in ``named`` start.
    private func bitsOffset(ofPlace place: Int) -> Int {
        (bitsByID ? Int(named[place]) : place) * words
    }

    /// The last combination of bits assessed, and its assessment.
    private typealias LastAssessment = (combination: UInt64, assessment: Assessment)

    /// ``assessment(bitsAt:)`` of the bits at `at` of `bits` (``bits``, read as a local), asked
    /// for only when they differ from the `last` ones: people named one after another mostly
    /// share theirs, and each read of the object's own arrays was checked for exclusive
    /// access (half of arranging the 121,000 people `jo` names among a million).
    private func assessment(of bits: [WordBits], at: Int, last: inout LastAssessment?) -> Assessment {
        guard words <= 7 else { return assessment(bitsAt: at) }
        var combination: UInt64 = 0
        for word in 0..<words { combination = combination << 9 | UInt64(bits[at + word].rawValue & 0x1FF) }
        if let last, last.combination == combination { return last.assessment }
        let assessment = assessment(bitsAt: at)
        last = (combination, assessment)
        return assessment
    }

    /// The bound of the person whose bits start `at`, and whether they may match fully,
    /// from their bits; each combination of bits worked out once.
    private func assessment(bitsAt at: Int) -> Assessment {
        if words == 1 {
            // One word's bits are a number below 512: their assessments are a table, not a
            // dictionary (hashing was a tenth of `jo`'s time).
            let combination = Int(bits[at].rawValue & 0x1FF)
            if let known = assessedWords[combination] { return known }
            let assessment = assess(at)
            assessedWords[combination] = assessment
            return assessment
        }
        guard words <= 7 else { return assess(at) }
        var combination: UInt64 = 0
        for word in 0..<words { combination = combination << 9 | UInt64(bits[at + word].rawValue & 0x1FF) }
        if let known = assessed[combination] { return known }
        let assessment = assess(at)
        assessed[combination] = assessment
        return assessment
    }

    private func assess(_ at: Int) -> Assessment {
        var matched = 0, names = 0, close = 0, nicknames = 0, whole = 0, exact = 0, accents = 0
        var full = true, exactFull = true
        for word in 0..<words {
            var these = bits[at + word]
            if !addressesRead { these.take(.bestAddress) }
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
        return Assessment(bound: bound, mayBeFull: full, mayBeExactFull: exactFull)
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            for child in 2 * parent + 1...2 * parent + 2 where child < level.count && level[child].position < level[first].position {
                first = child
            }
            if first == parent { return }
            level.swapAt(parent, first)
            parent = first
        }
    }
}

/// Whom the keys named, by id: each one's place in the order first named
/// (``IndexedCandidates``). An open-addressed table sized to those the keys' lists may name
/// (their lengths bound them: an id takes a byte at least), at most half full, growing when
/// more are named (by the address keys, read later). Ids and places are below 2³².
struct PlaceTable {
    /// Each slot's id in its high 32 bits, its place plus one in the low (0: an empty slot).
    private var slots: [UInt64] = []
    private var shift = 64
    private var count = 0
    /// One more than the largest id: no more can be named.
    private let people: Int

    /// A table for the ids below `people` that lists of `bytes` bytes in all may hold.
    init(people: Int, bytes: Int) {
        self.people = people
        reserve(bytes: bytes)
    }

    /// Makes room for the ids that `bytes` more bytes of lists may hold.
    mutating func reserve(bytes: Int) {
        let most = min(count + bytes, people)
        var capacity = 64
        while capacity < 2 * most { capacity *= 2 }
        guard capacity > slots.count else { return }
        let old = slots
        slots = [UInt64](repeating: 0, count: capacity)
        shift = 64 - capacity.trailingZeroBitCount
        count = 0
        for slot in old where slot != 0 { _ = place(of: Int64(slot >> 32), orNew: Int(UInt32(truncatingIfNeeded: slot)) - 1) }
    }

    /// The slot of `id`, or the empty slot where it would go; and its place, when it has one.
    /// Fibonacci hashing (the top bits of a product), then the next slots.
    private func find(_ id: Int64) -> (slot: Int, place: Int?) {
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
        let mask = slots.count - 1
        while true {
            let found = slots[slot]
            if found == 0 { return (slot, nil) }
            if found >> 32 == UInt64(id) { return (slot, Int(UInt32(truncatingIfNeeded: found)) - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// The place of `id`, when it was named.
    func place(of id: Int64) -> Int? {
        find(id).place
    }

    /// The place of `id`, below `people`; when it was not named, `new` becomes its place.
    mutating func place(of id: Int64, orNew new: Int) -> (place: Int, isNew: Bool) {
        let (slot, place) = find(id)
        if let place { return (place, false) }
        slots[slot] = UInt64(id) << 32 | UInt64(new + 1)
        count += 1
        // Not past half full, whatever the lists said.
        if 2 * count > slots.count { reserve(bytes: count) }
        return (new, true)
    }
}
