import Foundation
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
    /// What ties between equal scores are broken on, computed once: sorting compares it
    /// O(n log n) times.
    private let sortKey: SortKey

    /// Creates a candidate.
    public init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue]) {
        self.init(person: person, tier: tier, score: score, values: values,
                  givenNames: person.entry["givenName"], surnames: person.entry["sn"])
    }

    /// Creates a candidate from names already read from the person's entry.
    init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue], givenNames: [LDAPValue], surnames: [LDAPValue]) {
        self.person = person
        self.tier = tier
        self.score = score
        self.values = values
        sortKey = SortKey(givenNames: givenNames, surnames: surnames, dn: person.dn)
    }

    /// The person's DN.
    public var id: DistinguishedName { person.dn }

    /// Why the candidate ranks here, in words, for `--explain`.
    public var explanation: String {
        var parts = tier.map { ["tier \($0.rawValue)"] } ?? []
        switch score.match {
        case .both: parts.append("first and last name match")
        case .given: parts.append("first name matches")
        case .surname: parts.append("last name matches")
        case .none: parts.append("no name matches")
        }
        if score.exactMatches > 0 {
            parts.append(score.exactMatches == 1 ? "1 exact" : "\(score.exactMatches) exact")
        } else if score.match.matches {
            parts.append("prefix only")
        }
        if tier != nil {
            parts.append(values.isEmpty ? "field empty" : "\(values.count) value\(values.count == 1 ? "" : "s")")
        }
        return parts.joined(separator: ", ")
    }

    /// Orders candidates of one tier: better name score, then last name,
    /// first name and DN, compared case-insensitively.
    public static func ranksBefore(_ lhs: Candidate, _ rhs: Candidate) -> Bool {
        if lhs.score != rhs.score { return lhs.score < rhs.score }
        return lhs.sortKey < rhs.sortKey
    }

    /// `candidates` in ``ranksBefore(_:_:)`` order. Positions are sorted rather than the
    /// candidates themselves, which are large to move.
    static func ranked(_ candidates: [Candidate]) -> [Candidate] {
        let keys = candidates.map { RankKey(score: $0.score, sortKey: $0.sortKey) }
        let order = keys.withUnsafeBufferPointer { keys in
            keys.indices.sorted { keys[$0].ranksBefore(keys[$1]) }
        }
        return order.map { candidates[$0] }
    }
}

/// The names and DN a candidate's ties are broken on, as one string of bytes compared
/// byte by byte: the lower-cased last name and first name (the smallest of each), each
/// ended by a zero byte so that a name sorts before its longer extensions, then the DN.
private struct SortKey: Sendable, Comparable {
    let bytes: [UInt8]

    init(givenNames: [LDAPValue], surnames: [LDAPValue], dn: DistinguishedName) {
        var bytes: [UInt8] = []
        for names in [surnames, givenNames] {
            let lowered = names.map { Self.lowercased($0.bytes) }
            if let first = lowered.min(by: { $0.lexicographicallyPrecedes($1) }) { bytes += first }
            bytes.append(0)
        }
        bytes += dn.string.utf8
        self.bytes = bytes
    }

    /// `text` in lower case: byte by byte for ASCII, through Unicode otherwise.
    private static func lowercased(_ text: [UInt8]) -> [UInt8] {
        if text.allSatisfy({ $0 < 0x80 }) {
            return text.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        }
        return Array(String(decoding: text, as: UTF8.self).lowercased().utf8)
    }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        lhs.bytes.withUnsafeBufferPointer { left in
            rhs.bytes.withUnsafeBufferPointer { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }
}

/// What ``Candidate/ranked(_:)`` sorts on, apart from the rest of the candidate.
private struct RankKey {
    let score: NameScore
    let sortKey: SortKey

    func ranksBefore(_ other: RankKey) -> Bool {
        if score != other.score { return score < other.score }
        return sortKey < other.sortKey
    }
}
