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
    /// The lower-cased names ties between equal scores are broken on, computed once:
    /// sorting compares them O(n log n) times.
    private let nameKey: NameKey

    /// Creates a candidate.
    public init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue]) {
        // The key is written as ranking many entries writes it.
        var ranker = TierRanker(tokens: [], count: 1)
        ranker.add(person.entry, at: 0, withField: false)
        self.init(person: person, tier: tier, score: score, values: values, nameKey: NameKey(bytes: ranker.keyBytes[...]))
    }

    /// Creates a candidate whose tie-break key is already made.
    init(person: Person, tier: Tier?, score: NameScore, values: [LDAPValue], nameKey: NameKey) {
        self.person = person
        self.tier = tier
        self.score = score
        self.values = values
        self.nameKey = nameKey
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
        let order = compareBytes(lhs.nameKey.bytes, rhs.nameKey.bytes)
        if order != 0 { return order < 0 }
        return compareBytes(Array(lhs.person.dn.string.utf8), Array(rhs.person.dn.string.utf8)) < 0
    }
}

/// What ties between equal scores are broken on, before the DN: the lower-cased last
/// name and first name (the smallest of each), each ended by a zero byte so that a name
/// sorts before its longer extensions, compared byte by byte. Keys made together share
/// one buffer.
struct NameKey: Sendable {
    let bytes: ArraySlice<UInt8>
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
