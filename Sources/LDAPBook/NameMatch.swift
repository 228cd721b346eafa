import Foundation

/// How well a person's names match a query.
public enum NameMatch: String, Sendable, Hashable, CaseIterable {
    /// A first name matches one token and a last name another (or, with one
    /// token, both match it).
    case both
    /// Only a first name matches.
    case given
    /// Only a last name matches.
    case surname
    /// No name matches.
    case none

    /// Whether any name matches.
    public var matches: Bool { self != .none }
}

/// A person's name match with its exactness, comparable so that better
/// matches come first.
public struct NameScore: Sendable, Hashable, Comparable {
    /// Which names match.
    public let match: NameMatch
    /// How many of the matching names equal their token (rather than start with it).
    public let exactMatches: Int

    /// Scores `givenNames` and `surnames` against the query's tokens,
    /// case-insensitively and ignoring compatibility differences (as LDAP's
    /// caseIgnore rules do). Every value of a multi-valued name counts.
    public init(tokens: [String], givenNames: [String], surnames: [String]) {
        self.init(foldedTokens: tokens.map(NameScore.fold), givenNames: givenNames, surnames: surnames)
    }

    /// Scores names against tokens already passed through ``fold(_:)``, so that ranking
    /// many people folds the query once.
    init(foldedTokens folded: [String], givenNames: [String], surnames: [String]) {
        let given = givenNames.map(NameScore.fold)
        let sn = surnames.map(NameScore.fold)
        // For each token: 0 = no match, 1 = prefix, 2 = exact.
        func strength(_ token: String, _ names: [String]) -> Int {
            names.reduce(0) { best, name in
                if name == token { return 2 }
                return max(best, name.unicodeScalars.starts(with: token.unicodeScalars) ? 1 : 0)
            }
        }
        let givenStrengths = folded.map { strength($0, given) }
        let surnameStrengths = folded.map { strength($0, sn) }
        var best: (match: NameMatch, exact: Int) = (.none, 0)
        if folded.count == 1 {
            if givenStrengths[0] > 0 && surnameStrengths[0] > 0 {
                best = (.both, (givenStrengths[0] == 2 ? 1 : 0) + (surnameStrengths[0] == 2 ? 1 : 0))
            }
        } else {
            for i in folded.indices where givenStrengths[i] > 0 {
                for j in folded.indices where j != i && surnameStrengths[j] > 0 {
                    let exact = (givenStrengths[i] == 2 ? 1 : 0) + (surnameStrengths[j] == 2 ? 1 : 0)
                    if best.match != .both || exact > best.exact { best = (.both, exact) }
                }
            }
        }
        if best.match == .none {
            let givenBest = givenStrengths.max() ?? 0
            let surnameBest = surnameStrengths.max() ?? 0
            if surnameBest > 0 && surnameBest >= givenBest {
                best = (.surname, surnameBest == 2 ? 1 : 0)
            } else if givenBest > 0 {
                best = (.given, givenBest == 2 ? 1 : 0)
            }
        }
        match = best.match
        exactMatches = best.exact
    }

    /// Better scores sort first: both names before one, then more exact
    /// matches before fewer. A first-name and a last-name match rank alike.
    public static func < (lhs: NameScore, rhs: NameScore) -> Bool {
        if lhs.match.rank != rhs.match.rank { return lhs.match.rank < rhs.match.rank }
        return lhs.exactMatches > rhs.exactMatches
    }

    /// Case-folded compatibility decomposition with white space collapsed:
    /// `Zoë` and `ZOE\u{308}` fold alike, and `ﬁ` folds as `fi`.
    static func fold(_ text: String) -> String {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            guard byte < 0x80 else {
                // Beyond ASCII, Unicode's compatibility decomposition decides.
                return text.decomposedStringWithCompatibilityMapping.lowercased()
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !ascii.isEmpty
                continue
            }
            if pendingSpace {
                ascii.append(0x20)
                pendingSpace = false
            }
            // ASCII decomposes to itself; only the case changes.
            ascii.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: ascii, as: UTF8.self)
    }
}

extension NameMatch {
    var rank: Int {
        switch self {
        case .both: 0
        case .surname, .given: 1
        case .none: 2
        }
    }
}
