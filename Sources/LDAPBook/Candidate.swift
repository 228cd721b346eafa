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
        self.person = person
        self.tier = tier
        self.score = score
        self.values = values
        sortKey = SortKey(person: person)
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
}

/// The names and DN a candidate's ties are broken on, lower-cased once.
private struct SortKey: Sendable, Comparable {
    let surname: String
    let given: String
    let dn: String
    let exactDN: String

    init(person: Person) {
        surname = (person.surnames.min() ?? "").lowercased()
        given = (person.givenNames.min() ?? "").lowercased()
        exactDN = person.dn.string
        dn = exactDN.lowercased()
    }

    static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        (lhs.surname, lhs.given, lhs.dn, lhs.exactDN) < (rhs.surname, rhs.given, rhs.dn, rhs.exactDN)
    }
}
