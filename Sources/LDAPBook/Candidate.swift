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
    /// first name and DN, compared case-insensitively in a Unicode-aware way.
    public static func ranksBefore(_ lhs: Candidate, _ rhs: Candidate) -> Bool {
        if lhs.score != rhs.score { return lhs.score < rhs.score }
        for (left, right) in [(lhs.sortSurname, rhs.sortSurname), (lhs.sortGiven, rhs.sortGiven),
                              (lhs.person.dn.string, rhs.person.dn.string)] {
            let order = left.compare(right, options: [.caseInsensitive], range: nil, locale: nil)
            if order != .orderedSame { return order == .orderedAscending }
        }
        return lhs.person.dn.string < rhs.person.dn.string
    }

    private var sortSurname: String { person.surnames.min() ?? "" }
    private var sortGiven: String { person.givenNames.min() ?? "" }
}
