import LDAPKit

/// Where a person ranks for a field and name (the spec's cases).
public enum Tier: String, Sendable, Hashable, CaseIterable {
    /// The field is populated and the name matches (case 1).
    case fieldAndName = "field-and-name"
    /// The name matches but the field is missing (case 2).
    case nameOnly = "name-only"
    /// The field is populated but the name does not match (case 2).
    case fieldOnly = "field-only"
}

/// A person found for a field and name, with why they rank where they do.
///
/// What a candidate holds is kept in one object, so that a copy is one reference: ranking
/// and listing the 11,996 people `jo` finds at 100,000 entries copies every candidate
/// several times, and retaining each of its arrays and the person's entry one by one was most
/// of the time those copies took (`perf record`, BENCHMARKS.md workload 1).
public struct Candidate: Sendable, Identifiable {
    private final class Storage: Sendable {
        let person: Person
        let tier: Tier?
        let score: NameScore
        let values: [LDAPValue]
        let order: [UInt8]
        let sortKey: SortKey
        let arrival: Int?

        init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue], order: [UInt8], sortKey: SortKey,
             arrival: Int?) {
            self.person = person
            self.tier = tier
            self.score = score
            self.values = values
            self.order = order
            self.sortKey = sortKey
            self.arrival = arrival
        }
    }

    private let storage: Storage

    /// The person.
    public var person: Person { storage.person }
    /// The person's tier; `nil` when ranking by name alone, without a field.
    public var tier: Tier? { storage.tier }
    /// How the names match the query.
    public var score: NameScore { storage.score }
    /// The person's values of the field (empty for name-only people).
    public var values: [LDAPValue] { storage.values }
    /// Where the person came in the answer to the name search: 0 for the first person of the
    /// name tiers the server sent, 1 for the next, and so on (see
    /// ``AddressBook/rank(field:name:base:limit:reading:eachKept:)``); `nil` for anyone else.
    public var arrival: Int? { storage.arrival }
    /// Where the person stands among those chosen before for this field and name
    /// (``ReachHistory``), 0 for the most often; `nil` when they were not.
    public internal(set) var rememberedRank: Int?
    /// What ties between equal scores are broken on first: the folded last and first name
    /// (``FoldedName``: Ångström sorts with Angstrom, not after Zimmermann), then their lower
    /// case, as bytes (then the DN, for namesakes).
    var order: [UInt8] { storage.order }
    /// The score and the order's first sixteen bytes as integers, smaller first: most
    /// comparisons of a sort end there, without reading the candidates.
    var sortKey: SortKey { storage.sortKey }

    /// ``sortKey``'s integers: the score (the better, the smaller), then the first sixteen
    /// bytes of ``order``, big-endian, zeros after its end.
    struct SortKey: Comparable {
        var score: UInt64
        var first: UInt64
        var second: UInt64

        init(score: NameScore, order: [UInt8]) {
            self.score = UInt64.max - score.rank
            first = Self.integer(order, from: 0)
            second = Self.integer(order, from: 8)
        }

        /// Eight bytes of `bytes` from index `start` as a big-endian integer, zeros after its end.
        static func integer<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: Int) -> UInt64
            where Bytes.Index == Int {
            var value: UInt64 = 0
            for index in start..<start + 8 { value = value << 8 | UInt64(index < bytes.endIndex ? bytes[index] : 0) }
            return value
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.score, lhs.first, lhs.second) < (rhs.score, rhs.first, rhs.second)
        }
    }

    /// Creates a candidate.
    public init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue]) {
        self.init(person: person, tier: tier, score: score, values: values, folding: NameFolding())
    }

    /// Creates a candidate, its names folded by `folding` (ranking many people folds them
    /// all with the one that scored them).
    init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue], folding: NameFolding) {
        folding.fold(person.entry["sn"].first ?? LDAPValue(bytes: []), into: &folding.scratch)
        folding.fold(person.entry["givenName"].first ?? LDAPValue(bytes: []), into: &folding.secondScratch)
        self.init(person: person, tier: tier, score: score, values: values,
                  surname: (folding.scratch.folded, folding.scratch.lowered),
                  givenName: (folding.secondScratch.folded, folding.secondScratch.lowered))
    }

    /// Creates a candidate of the person `folding` scored last, ordered by the names the
    /// scoring kept (``NameFolding/sortNames``) instead of folding them again.
    init(scoredBy folding: NameFolding, person: Person, tier: Tier?, score: NameScore, values: [LDAPValue],
         arrival: Int? = nil) {
        self.init(person: person, tier: tier, score: score, values: values,
                  surname: folding.sortNames.surname, givenName: folding.sortNames.givenName, arrival: arrival)
    }

    private init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue],
                 surname: (folded: [UInt8], lowered: [UInt8]), givenName: (folded: [UInt8], lowered: [UInt8]),
                 arrival: Int? = nil) {
        let order = Self.order(surname: surname, givenName: givenName)
        let sortKey = SortKey(score: score, order: order)
        storage = Storage(person: person, tier: tier, score: score, values: values, order: order, sortKey: sortKey,
                          arrival: arrival)
    }

    /// What ties between equal scores are broken on (``order``): the last name and the first,
    /// folded, then lowered, each ended by a zero byte; made in one allocation, since every
    /// candidate of a search has one.
    static func order(surname: (folded: [UInt8], lowered: [UInt8]), givenName: (folded: [UInt8], lowered: [UInt8])) -> [UInt8] {
        var order: [UInt8] = []
        order.reserveCapacity(surname.folded.count + givenName.folded.count + surname.lowered.count + givenName.lowered.count + 4)
        order += surname.folded
        order.append(0)
        order += givenName.folded
        order.append(0)
        order += surname.lowered
        order.append(0)
        order += givenName.lowered
        order.append(0)
        return order
    }

    /// The person's DN.
    public var id: DistinguishedName { person.dn }

    /// Why the candidate ranks here, in words, for `--explain`: which attribute each word of
    /// `query` matched, and how; `remembered` says whether they were chosen before for this
    /// name (by default, as ``rememberedRank`` says).
    public func explanation(for query: NameQuery, remembered: Bool? = nil) -> String {
        var parts = tier.map { ["tier \($0.rawValue)"] } ?? []
        parts.append(score.explanation(tokens: query.tokens))
        if tier != nil {
            parts.append(values.isEmpty ? "field empty" : "\(values.count) value\(values.count == 1 ? "" : "s")")
        }
        if remembered ?? (rememberedRank != nil) { parts.append("first among equals: chosen before for this name") }
        return parts.joined(separator: "; ")
    }

    /// Orders candidates of one tier: better name score, then last name, first name and
    /// DN, compared case-insensitively.
    public static func ranksBefore(_ lhs: Candidate, _ rhs: Candidate) -> Bool {
        if lhs.sortKey != rhs.sortKey { return lhs.sortKey < rhs.sortKey }
        if lhs.order != rhs.order { return lhs.order.lexicographicallyPrecedes(rhs.order) }
        return lhs.person.dn.string.utf8.lexicographicallyPrecedes(rhs.person.dn.string.utf8)
    }

    /// `candidates` in rank order (``ranksBefore(_:_:)``): sorted by their keys, integers
    /// that most people's differ in; only people whose keys are equal are then compared by
    /// their whole order, and namesakes by DN. Sorting the 11,996 people `jo` finds at
    /// 100,000 entries by comparing their orders took longer than printing them.
    public static func ranked(_ candidates: [Candidate]) -> [Candidate] {
        var keyed = candidates.indices.map { (key: candidates[$0].sortKey, index: $0) }
        keyed.sort { $0.key < $1.key }
        var start = 0
        while start < keyed.count {
            var end = start + 1
            while end < keyed.count && keyed[end].key == keyed[start].key { end += 1 }
            if end - start > 1 {
                keyed[start..<end].sort { ranksBefore(candidates[$0.index], candidates[$1.index]) }
            }
            start = end
        }
        return keyed.map { candidates[$0.index] }
    }
}
