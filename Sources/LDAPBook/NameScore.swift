import LDAPKit

/// Which attribute a query word matched: the name attributes rank above the others.
public enum MatchedAttribute: String, Sendable, Hashable, CaseIterable {
    /// `givenName`.
    case givenName
    /// `sn`.
    case surname
    /// `cn`.
    case commonName
    /// `displayName`.
    case displayName
    /// ldapbook's nickname (`ldapbookNickname`).
    case nickname
    /// An email address (`mail`): its local part, or the address from its start.
    case email
    /// A phone number (``phoneAttributes``), matched by its digits when the query is a number.
    case phone

    /// The attributes names are matched by, in the order they are listed here: every case
    /// but ``phone``, which only a phone number is matched against.
    public static let names: [MatchedAttribute] = [.givenName, .surname, .commonName, .displayName, .nickname, .email]

    /// The phone attributes a typed number is looked for in: work, mobile, home and pager.
    public static let phoneAttributes = ["telephoneNumber", "mobile", "homePhone", "pager"]

    /// The LDAP attribute (for ``phone``, the first of ``phoneAttributes``).
    public var attribute: String {
        switch self {
        case .givenName: "givenName"
        case .surname: "sn"
        case .commonName: "cn"
        case .displayName: "displayName"
        case .nickname: LDAPBookSchemaName.nickname
        case .email: "mail"
        case .phone: "telephoneNumber"
        }
    }

    /// Every LDAP attribute it stands for.
    public var attributes: [String] { self == .phone ? Self.phoneAttributes : [attribute] }

    /// Where it comes among the attributes, in the order they are listed here.
    var precedence: Int {
        switch self {
        case .givenName: 0
        case .surname: 1
        case .commonName: 2
        case .displayName: 3
        case .nickname: 4
        case .email: 5
        case .phone: 6
        }
    }

    /// Whether it is one of a person's names, which rank above nickname and email matches.
    public var isName: Bool { self != .nickname && self != .email && self != .phone }

    /// Whether a match of it tells who the person is, as a name does: a name, or the phone
    /// number a query typed.
    var identifies: Bool { isName || self == .phone }

    /// The attribute in words, for `--explain`: "first name".
    public var words: String {
        switch self {
        case .givenName: "first name"
        case .surname: "last name"
        case .commonName: "full name (cn)"
        case .displayName: "display name"
        case .nickname: "nickname"
        case .email: "email address"
        case .phone: "phone"
        }
    }
}

/// How a query word came to match a value, closest first.
public enum MatchKind: Sendable, Hashable {
    /// As typed, ignoring case, accents and punctuation.
    case direct
    /// With a letter spelt out (`ue` for `ü`, `oe` for `ø`, `aa` for `å`) on one side.
    case spelledOut
    /// Through the Latin transliteration of another script (`wang` for `王`, `olga` for `Ольга`).
    case transliterated
    /// A nickname of the name, or the name of a nickname, in the group of `formalName` (`bob`
    /// for Robert).
    case nickname(formalName: String)
    /// With `edits` typing mistakes (``Typos``).
    case typo(edits: Int)
    /// By the digits of a phone number.
    case phoneDigits

    /// How close it is: a spelling or script of the same name counts as the name, a nickname
    /// less, a typo least.
    var closeness: Int {
        switch self {
        case .direct, .phoneDigits: 3
        case .spelledOut, .transliterated: 2
        case .nickname: 1
        case .typo: 0
        }
    }

    /// Whether it is a guess (a nickname or a typo) rather than a spelling of what was typed.
    public var isApproximate: Bool { closeness < 2 }

    /// In words, for `--explain`: "one typo", "nickname of Robert".
    var words: String? {
        switch self {
        case .direct: nil
        case .spelledOut: "spelt out"
        case .transliterated: "transliterated"
        case .nickname(let formal): "nickname of \(NameCapitalization.capitalized(formal))"
        case .typo(let edits): edits == 1 ? "one typo" : "\(edits) typos"
        case .phoneDigits: "phone digits"
        }
    }
}

/// How one word of the query matched one of a person's values.
public struct WordMatch: Sendable, Hashable {
    /// The attribute the value is of.
    public let attribute: MatchedAttribute
    /// The value, as stored.
    public var value: String { stored.lossyString }
    let stored: LDAPValue
    /// Whether the word matched from the value's start (`Ada` in `Ada`), rather than from a
    /// later word of it (`Berg` in `van der Berg`).
    public let isWholeName: Bool
    /// Whether the word matched up to the end of a word of the value (`jean` in `Jean-Luc`),
    /// rather than only its beginning (`je`).
    public let isExact: Bool
    /// Whether it matched with the accents as typed, not only once folded.
    public let hasTypedAccents: Bool
    /// How it matched.
    public let kind: MatchKind

    init(attribute: MatchedAttribute, stored: LDAPValue, isWholeName: Bool, isExact: Bool, hasTypedAccents: Bool,
         kind: MatchKind = .direct) {
        self.attribute = attribute
        self.stored = stored
        self.isWholeName = isWholeName
        self.isExact = isExact
        self.hasTypedAccents = hasTypedAccents && kind == .direct
        self.kind = kind
    }

    /// Better matches first: a name attribute, a closer kind, from the value's start, to a
    /// word's end, with the accents typed.
    /// Between matches as good, the first and last names come before the full name, and
    /// that before the display name: `ada` matched `Ada` the first name, not `Ada Lovelace`.
    func isBetter(than other: WordMatch) -> Bool {
        rank != other.rank ? rank > other.rank : attribute.precedence < other.attribute.precedence
    }

    /// The qualities as the bits of a number, the first the highest.
    private var rank: Int {
        (attribute.identifies ? 64 : 0) | kind.closeness << 3 | (isWholeName ? 4 : 0) | (isExact ? 2 : 0)
            | (hasTypedAccents ? 1 : 0)
    }
}

/// Which of a person's names a query matched, for lists and JSON.
public enum NameMatch: String, Sendable, Hashable, CaseIterable {
    /// A first name and a last name (or, for one word, both).
    case both
    /// A first name only.
    case given
    /// A last name only.
    case surname
    /// The full name (`cn`) or the display name only.
    case fullName = "full-name"
    /// A phone number, by its digits.
    case phone
    /// The nickname or the email address only.
    case other
    /// Nothing.
    case none

    /// Whether anything matched.
    public var matches: Bool { self != .none }
}

/// How well a person matches a query, comparable so that better matches come first.
///
/// In order: more of the query's words matched; more of them by a name attribute (first, last,
/// full or display name, or the phone number typed) rather than the nickname or an email
/// address; a first and a last name both matched; more matched as typed or spelt otherwise
/// (not by a nickname or a typo); more by a nickname; more words matched from a name's start
/// rather than from a later word of it; more matched up to a word's end; more with the accents
/// as typed.
public struct NameScore: Sendable, Hashable, Comparable {
    /// Each query word's best match, in the query's order; `nil` where it matched nothing.
    public let words: [WordMatch?]

    /// How many query words matched.
    public let matchedWords: Int
    /// How many matched a name attribute (or the phone number typed).
    public let nameWords: Int
    /// How many matched from a name's start.
    public let wholeNameWords: Int
    /// How many matched up to a word's end.
    public let exactWords: Int
    /// How many matched with the accents as typed.
    public let typedAccentWords: Int
    /// How many matched only by a nickname or through a typo.
    public let approximateWords: Int
    /// Whether a first name and a last name both matched (by different words, or one word
    /// that matches both).
    public let matchesBothNames: Bool
    /// The parts in the order they count, eight bits each, so that comparing two scores is
    /// comparing two integers (ranking compares scores n log n times).
    let rank: UInt64

    init(words: [WordMatch?], matchesBothNames: Bool) {
        self.words = words
        self.matchesBothNames = matchesBothNames
        var matched = 0, names = 0, whole = 0, exact = 0, accents = 0, close = 0, nicknames = 0
        for case let word? in words {
            matched += 1
            if word.attribute.identifies { names += 1 }
            if word.isWholeName { whole += 1 }
            if word.isExact { exact += 1 }
            if word.hasTypedAccents { accents += 1 }
            if !word.kind.isApproximate { close += 1 }
            if case .nickname = word.kind { nicknames += 1 }
        }
        (matchedWords, nameWords, wholeNameWords, exactWords, typedAccentWords) = (matched, names, whole, exact, accents)
        approximateWords = matched - close
        rank = Self.rank(matched: matched, names: names, bothNames: matchesBothNames, close: close, nicknames: nicknames,
                         whole: whole, exact: exact, accents: accents)
    }

    /// The parts of a score as ``rank`` packs them: a score whose parts are each at least
    /// another's ranks at least as high (what the local index bounds scores by).
    static func rank(matched: Int, names: Int, bothNames: Bool, close: Int, nicknames: Int, whole: Int, exact: Int,
                     accents: Int) -> UInt64 {
        var rank: UInt64 = 0
        for part in [matched, names, bothNames ? 1 : 0, close, nicknames, whole, exact, accents] {
            rank = rank << 8 | UInt64(min(part, 255))
        }
        return rank
    }

    /// Which names matched.
    public var match: NameMatch {
        if matchesBothNames { return .both }
        func matched(_ attribute: MatchedAttribute) -> Bool { words.contains { $0?.attribute == attribute } }
        if matched(.givenName) { return .given }
        if matched(.surname) { return .surname }
        if matched(.commonName) || matched(.displayName) { return .fullName }
        if matched(.phone) { return .phone }
        return words.allSatisfy { $0 == nil } ? .none : .other
    }

    /// Whether a word of the query matched one of the person's names, their nickname or the
    /// phone number typed, not only an email address.
    public var matchesAName: Bool { words.contains { $0.map { $0.attribute != .email } ?? false } }

    /// Whether every word of the query matched a name of the person (or the number typed, a
    /// phone number of theirs), as typed or spelt otherwise, not by a nickname or a typo:
    /// what makes one person the one a query means, when nobody else does.
    public var isFullMatch: Bool { !words.isEmpty && nameWords == words.count && approximateWords == 0 }

    /// Better scores sort first.
    public static func < (lhs: NameScore, rhs: NameScore) -> Bool {
        lhs.rank > rhs.rank
    }

    /// A score of nothing matched, for `count` query words.
    static func none(words count: Int) -> NameScore {
        NameScore(words: Array(repeating: nil, count: count), matchesBothNames: false)
    }

    /// Why the person matches, in words, for `--explain`: "ada: first name Ada (exact)",
    /// "lovelcae: last name Lovelace (one typo)", "bob: first name Robert (nickname of Robert)".
    public func explanation(tokens: [String]) -> String {
        zip(tokens, words).map { token, match -> String in
            guard let match else { return "\(token): no match" }
            var how: [String] = []
            if !match.isWholeName { how.append("a later word") }
            if let kind = match.kind.words {
                how.append(kind)
            } else {
                how.append(match.isExact ? "exact" : "prefix")
                if !match.hasTypedAccents { how.append("accents folded") }
            }
            return "\(token): \(match.attribute.words) \(match.value) (\(how.joined(separator: ", ")))"
        }.joined(separator: "; ")
    }
}
