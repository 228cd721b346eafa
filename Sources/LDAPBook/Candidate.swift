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
    public var person: Person { Person(entry: source.entries[Int(position)]) }
    /// The person's tier; `nil` when ranking by name alone, without a field.
    public let tier: Tier?
    /// How the names match the query.
    public let score: NameScore
    /// The person's values of the field (empty for name-only people).
    public var values: [LDAPValue] { source.values.isEmpty ? [] : source.values[Int(position)] }
    /// Where the entry, its values and its key are kept: candidates ranked together share
    /// one source, so that making one touches none of its entry's memory.
    private let source: CandidateSource
    /// The entry's position in ``source``.
    private let position: UInt32
    /// The lower-cased names ties between equal scores are broken on, computed once
    /// (sorting compares them O(n log n) times): their bytes in ``source``'s keys.
    private let keyStart: UInt32, keyEnd: UInt32

    /// Creates a candidate.
    public init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue]) {
        // The key is written as ranking many entries writes it.
        var ranker = TierRanker(tokens: [], count: 1)
        withUnsafePointer(to: person.entry) { ranker.add($0, at: 0, withField: false) }
        self.init(source: CandidateSource(entries: [person.entry], values: [values], keys: ranker.keyBytes),
                  position: 0, tier: tier, score: score, key: 0..<UInt32(ranker.keyBytes.count))
    }

    /// Creates the candidate for the entry at `position` of `source`, whose key is already
    /// made, at `key` of the source's keys.
    init(source: CandidateSource, position: UInt32, tier: Tier?, score: NameScore, key: Range<UInt32>) {
        self.source = source
        self.position = position
        self.tier = tier
        self.score = score
        keyStart = key.lowerBound
        keyEnd = key.upperBound
    }

    /// Calls `body` with the bytes of the tie-break key.
    private func withNameKey<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        source.keys.withUnsafeBufferPointer { keys in
            body(UnsafeBufferPointer(rebasing: keys[Int(keyStart)..<Int(keyEnd)]))
        }
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
        // Scores that rank alike (a first-name and a last-name match) are not equal, so
        // both directions are asked before the tie is broken.
        if lhs.score < rhs.score { return true }
        if rhs.score < lhs.score { return false }
        let order = lhs.withNameKey { left in rhs.withNameKey { right in compareBytes(left, right) } }
        if order != 0 { return order < 0 }
        return compareBytes(Array(lhs.person.dn.string.utf8), Array(rhs.person.dn.string.utf8)) < 0
    }
}

/// What candidates ranked together are made from: the entries, each entry's values of the
/// field (by the entries' positions; empty when there is no field) and every tie-break key,
/// one after the other. A key is the lower-cased last name and first name (the smallest of
/// each), each ended by a zero byte so that a name sorts before its longer extensions,
/// compared byte by byte.
///
/// Every candidate of a ranking keeps the whole source alive, as long as any of them is kept.
final class CandidateSource: Sendable {
    let entries: [LDAPEntry]
    let values: [[LDAPValue]]
    let keys: [UInt8]

    init(entries: [LDAPEntry], values: [[LDAPValue]], keys: [UInt8]) {
        self.entries = entries
        self.values = values
        self.keys = keys
    }
}

/// Compares two strings of bytes as `memcmp` does, a shorter one first when it begins
/// the other: negative, zero or positive.
func compareBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
    let common = min(lhs.count, rhs.count)
    let order = common == 0 ? 0 : Int(memcmp(lhs.baseAddress!, rhs.baseAddress!, common))
    return order != 0 ? order : lhs.count - rhs.count
}

/// ``compareBytes(_:_:)`` on arrays or slices of them.
func compareBytes<Bytes: RandomAccessCollection<UInt8>>(_ lhs: Bytes, _ rhs: Bytes) -> Int {
    let compared = lhs.withContiguousStorageIfAvailable { left in
        rhs.withContiguousStorageIfAvailable { right in compareBytes(left, right) }
    }
    return compared.flatMap { $0 } ?? compareBytes(Array(lhs), Array(rhs))
}

/// Compares as much of two strings of bytes as both have, as `memcmp` does: zero when
/// one begins the other.
func compareCommonBytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    lhs.withUnsafeBufferPointer { left in
        rhs.withUnsafeBufferPointer { right in
            let common = min(left.count, right.count)
            return common == 0 ? 0 : Int(memcmp(left.baseAddress!, right.baseAddress!, common))
        }
    }
}
