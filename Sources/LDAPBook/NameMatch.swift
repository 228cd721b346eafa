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
        self.init(foldedTokens: folded.map { Array($0.utf8) },
                  foldedGivenNames: givenNames.map { Array(NameScore.fold($0).utf8) },
                  foldedSurnames: surnames.map { Array(NameScore.fold($0).utf8) })
    }

    /// Scores folded names against folded tokens, all as UTF-8 bytes. Folded text is in
    /// compatibility decomposition, so equal bytes mean equal names, and a byte prefix is a
    /// prefix of whole characters' scalars.
    init(foldedTokens folded: [[UInt8]], foldedGivenNames given: [[UInt8]], foldedSurnames sn: [[UInt8]]) {
        func strength(_ token: [UInt8], _ names: [[UInt8]]) -> Int {
            names.reduce(0) { best, name in
                if name == token { return 2 }
                return max(best, name.starts(with: token) ? 1 : 0)
            }
        }
        self.init(givenStrengths: folded.map { strength($0, given) }, surnameStrengths: folded.map { strength($0, sn) })
    }

    /// A score made of its parts.
    init(match: NameMatch, exactMatches: Int) {
        self.match = match
        self.exactMatches = exactMatches
    }

    /// Scores from how each token matches the best first name and last name: 0 for no
    /// match, 1 for a prefix, 2 for an exact match; one element per token in each array.
    init(givenStrengths: [Int], surnameStrengths: [Int]) {
        let tokenCount = givenStrengths.count
        var best: (match: NameMatch, exact: Int) = (.none, 0)
        if tokenCount == 1 {
            if givenStrengths[0] > 0 && surnameStrengths[0] > 0 {
                best = (.both, (givenStrengths[0] == 2 ? 1 : 0) + (surnameStrengths[0] == 2 ? 1 : 0))
            }
        } else {
            for i in 0..<tokenCount where givenStrengths[i] > 0 {
                for j in 0..<tokenCount where j != i && surnameStrengths[j] > 0 {
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
    /// ``fold(_:)`` of UTF-8 bytes, as bytes; ASCII is folded without making a string.
    static func fold(bytes: [UInt8]) -> [UInt8] {
        asciiFold(bytes) ?? Array(fold(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    static func fold(_ text: String) -> String {
        if let ascii = asciiFold(text.utf8) {
            return String(decoding: ascii, as: UTF8.self)
        }
        // Beyond ASCII, Unicode's compatibility decomposition decides.
        return text.decomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// How `token` (folded) matches the fold of `name`, computed as the name is read and
    /// without building the fold: 2 when equal, 1 when the fold starts with the token,
    /// 0 otherwise; `nil` when `name` is not all ASCII, whose fold only Unicode can tell.
    static func asciiStrength(of token: UnsafeBufferPointer<UInt8>, in name: UnsafeBufferPointer<UInt8>) -> Int? {
        var matched = 0
        var mismatch = false
        var beyond = false
        // Compares one byte of the fold with the token.
        func emit(_ byte: UInt8) {
            if mismatch || beyond { return }
            if matched == token.count {
                beyond = true
            } else if token[matched] == byte {
                matched += 1
            } else {
                mismatch = true
            }
        }
        var pendingSpace = false
        var started = false
        for byte in name {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                emit(0x20)
                pendingSpace = false
            }
            emit((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            started = true
        }
        if mismatch || matched < token.count { return 0 }
        return beyond ? 1 : 2
    }

    /// ``asciiStrength(of:in:)`` for a name known to be all ASCII, which can stop at the
    /// first byte of the fold that differs from the token (for most names, the first).
    static func strength(of token: UnsafeBufferPointer<UInt8>, inASCII name: UnsafeBufferPointer<UInt8>) -> Int {
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }
        var index = 0
        while index < name.count && isSpace(name[index]) { index += 1 }
        var matched = 0
        var pendingSpace = false
        while index < name.count {
            let byte = name[index]
            index += 1
            if isSpace(byte) {
                pendingSpace = true
                continue
            }
            if pendingSpace {
                if matched == token.count { return 1 }
                if token[matched] != 0x20 { return 0 }
                matched += 1
                pendingSpace = false
            }
            if matched == token.count { return 1 }
            if token[matched] != (byte &- 0x41 < 26 ? byte + 0x20 : byte) { return 0 }
            matched += 1
        }
        return matched == token.count ? 2 : 0
    }

    /// The fold of ASCII text, which decomposes to itself: lower case, runs of white
    /// space as one space, none at the ends. `nil` when `bytes` are not all ASCII.
    private static func asciiFold(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        var ascii: [UInt8] = []
        ascii.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !ascii.isEmpty
                continue
            }
            if pendingSpace {
                ascii.append(0x20)
                pendingSpace = false
            }
            ascii.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return ascii
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
