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
public struct Candidate: Sendable, Identifiable {
    /// The person.
    public let person: Person
    /// The person's tier; `nil` when ranking by name alone, without a field.
    public let tier: Tier?
    /// How the names match the query.
    public let score: NameScore
    /// The person's values of the field (empty for name-only people).
    public let values: [LDAPValue]
    /// Where the person stands among those chosen before for this field and name
    /// (``ReachHistory``), 0 for the most often; `nil` when they were not.
    public internal(set) var rememberedRank: Int?
    /// What ties between equal scores are broken on first: the folded last and first name
    /// (``FoldedName``: Ångström sorts with Angstrom, not after Zimmermann), then their lower
    /// case, as bytes (then the DN, for namesakes).
    let order: [UInt8]
    /// The score and the order's first eight bytes as two integers, smaller first: most
    /// comparisons of a sort end there, without reading the candidates.
    let sortKey: (UInt64, UInt64)

    /// Creates a candidate.
    public init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue]) {
        self.init(person: person, tier: tier, score: score, values: values, folding: NameFolding())
    }

    /// Creates a candidate, its names folded by `folding` (ranking many people folds them
    /// all with the one that scored them).
    init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue], folding: NameFolding) {
        self.person = person
        self.tier = tier
        self.score = score
        self.values = values
        // The last name and the first, folded, then lowered, each ended by a zero byte: made
        // in one allocation, since every candidate of a search has one.
        folding.fold(person.entry["sn"].first ?? LDAPValue(bytes: []), into: &folding.scratch)
        folding.fold(person.entry["givenName"].first ?? LDAPValue(bytes: []), into: &folding.secondScratch)
        var order: [UInt8] = []
        order.reserveCapacity(2 * (folding.scratch.folded.count + folding.secondScratch.folded.count) + 4 + 8)
        order += folding.scratch.folded
        order.append(0)
        order += folding.secondScratch.folded
        order.append(0)
        order += folding.scratch.lowered
        order.append(0)
        order += folding.secondScratch.lowered
        order.append(0)
        self.order = order
        sortKey = (UInt64.max - score.rank, order.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } << (8 * UInt64(8 - min(order.count, 8))))
    }

    /// The person's DN.
    public var id: DistinguishedName { person.dn }

    /// Why the candidate ranks here, in words, for `--explain`: which attribute each word of
    /// `query` matched, and how.
    public func explanation(for query: NameQuery) -> String {
        var parts = tier.map { ["tier \($0.rawValue)"] } ?? []
        parts.append(score.explanation(tokens: query.tokens))
        if tier != nil {
            parts.append(values.isEmpty ? "field empty" : "\(values.count) value\(values.count == 1 ? "" : "s")")
        }
        if rememberedRank != nil { parts.append("first among equals: chosen before for this name") }
        return parts.joined(separator: "; ")
    }

    /// Orders candidates of one tier: better name score, then last name, first name and
    /// DN, compared case-insensitively.
    public static func ranksBefore(_ lhs: Candidate, _ rhs: Candidate) -> Bool {
        if lhs.score < rhs.score { return true }
        if rhs.score < lhs.score { return false }
        if lhs.order != rhs.order { return lhs.order.lexicographicallyPrecedes(rhs.order) }
        return lhs.person.dn.string.utf8.lexicographicallyPrecedes(rhs.person.dn.string.utf8)
    }

    /// `candidates` in rank order (``ranksBefore(_:_:)``), sorted by position so that the
    /// sort moves integers, not candidates.
    public static func ranked(_ candidates: [Candidate]) -> [Candidate] {
        let keys = candidates.map(\.sortKey), orders = candidates.map(\.order)
        var sorted = candidates.indices.sorted { a, b in
            if keys[a] != keys[b] { return keys[a] < keys[b] }
            return orders[a].lexicographicallyPrecedes(orders[b])
        }
        // Namesakes with equal scores are ordered by DN, which is worked out for them alone.
        var start = 0
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && keys[sorted[end]] == keys[sorted[start]] && orders[sorted[end]] == orders[sorted[start]] {
                end += 1
            }
            if end - start > 1 {
                let dns = sorted[start..<end].map { ($0, Array(candidates[$0].person.dn.string.utf8)) }
                sorted.replaceSubrange(start..<end, with: dns.sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0))
            }
            start = end
        }
        return sorted.map { candidates[$0] }
    }
}
