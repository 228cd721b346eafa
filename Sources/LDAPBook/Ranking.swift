import LDAPKit

/// The people found for a field and a name, ranked (the spec's tiers):
/// field-and-name first, then name-only, then field-only, which is fetched
/// page by page on demand because it can be the whole directory.
public struct Ranking: Sendable {
    /// The name searched for.
    public let query: NameQuery
    /// The field, or `nil` when ranking by name alone.
    public let field: Field?
    /// People whose field is populated and whose name matches, best first (at most the
    /// limit ranked for, when there was one).
    public internal(set) var fieldAndName: [Candidate]
    /// People whose name matches but whose field is empty, best first
    /// (with no field: every name match); at most the limit, when there was one.
    public internal(set) var nameOnly: [Candidate]
    /// How many people the name tiers found, which may be more than they hold under a limit.
    /// Ranked by name alone from the local index under a limit, only as many as it read: more
    /// than the limit when more match.
    public let nameMatches: Int
    /// Whether the server stopped at its size limit before it had sent everyone the name
    /// may match: more people may match than were ranked.
    public let isTruncated: Bool
    /// People whose field is populated but whose name does not match; `nil` without a field.
    public internal(set) var fieldOnly: FieldOnlyCursor?
    /// The one person the query means, when only one matches it fully: every word of the
    /// query matched one of their names (``NameScore/isFullMatch``), and nobody else's; or,
    /// among several such people, the only one whose every word matched to a word's end.
    /// `adam smith` means Adam Smith, not every Adam and every Smith.
    public internal(set) var uniqueFullMatch: Candidate?

    /// Whether the name tiers hold everyone the name matches: not when ranked under a limit
    /// that more people than it matched.
    public var holdsEveryNameMatch: Bool { nameMatches <= fieldAndName.count + nameOnly.count }

    /// The (person, value) pairs of the field-and-name tier, in rank order.
    public var fieldAndNamePairs: [(candidate: Candidate, value: LDAPValue)] {
        fieldAndName.flatMap { candidate in candidate.values.map { (candidate, $0) } }
    }
}

/// The people of a tier as they are found: all of them, or the best `limit` (then
/// ranked and cut back whenever twice as many have gathered, so that a search returning
/// the whole directory holds a few people at a time, not the directory).
struct TierCollector {
    let limit: Int?
    private var kept: [Candidate] = []
    /// The last of the best `limit` at the latest cut: whoever does not rank before them
    /// cannot be among the best, and is not kept.
    private var last: Candidate?

    init(limit: Int?) { self.limit = limit }

    /// Keeps `candidate` when they may be among the best; says whether they were kept.
    @discardableResult
    mutating func add(_ candidate: Candidate) -> Bool {
        if let last, !Candidate.ranksBefore(candidate, last) { return false }
        kept.append(candidate)
        if let limit, kept.count >= 2 * limit + 256 {
            kept = Array(Candidate.ranked(kept).prefix(limit))
            last = kept.last
        }
        return true
    }

    /// The people kept, best first.
    var ranked: [Candidate] {
        let ranked = Candidate.ranked(kept)
        return limit.map { Array(ranked.prefix($0)) } ?? ranked
    }
}

/// Which person, if any, matches a query fully and alone (``Ranking/uniqueFullMatch``),
/// worked out as people are found.
struct FullMatchCounter {
    /// How many full matches were added, and how many of them matched every word to a word's end.
    private(set) var full = 0, exact = 0
    private var firstFull: Candidate?, firstExact: Candidate?

    mutating func add(_ candidate: Candidate) {
        guard candidate.score.isFullMatch else { return }
        full += 1
        if full == 1 { firstFull = candidate }
        if candidate.score.exactWords == candidate.score.words.count {
            exact += 1
            if exact == 1 { firstExact = candidate }
        }
    }

    var unique: Candidate? { full == 1 ? firstFull : exact == 1 ? firstExact : nil }
}

/// The field-only tier: the people who have the field and whose name does not match, but
/// whose value relates to the name (it, or an address's local part, starts with a word of the
/// query, as the matcher folds it: `reach email alan` finds alan.t@example.com). Everyone
/// else with the field is no candidate; ``more(_:)`` reads them only when asked, in the
/// server's order. Nothing is read before it is asked for.
public actor FieldOnlyCursor {
    private let connection: LDAPConnection
    private let base: DistinguishedName?
    private let field: Field
    private let matcher: NameMatcher
    /// The people of the name tiers, by DN, whom this tier leaves out.
    private let named: Set<String>
    private let attributes: [String]
    /// The people whose value relates to the name, ranked, once read.
    private var related: [Candidate]?
    private var relatedOffset = 0
    private var others: LDAPSearchResults.AsyncIterator?
    private var othersStarted = false
    private var othersExhausted = false
    /// How many people have been returned so far.
    public private(set) var delivered = 0

    /// Whom the name search found by their address alone, and who have the field.
    private let found: [Candidate]

    init(connection: LDAPConnection, base: DistinguishedName?, field: Field, matcher: NameMatcher, named: Set<String>,
         found: [Candidate] = [], reading extra: [Field] = []) {
        self.connection = connection
        self.base = base
        self.field = field
        self.matcher = matcher
        self.named = named
        self.found = found
        attributes = matcher.readAttributes + [field.attribute] + extra.map(\.attribute)
            + (field.needsLDAPBookClass ? ["objectClass"] : [])
    }

    /// Whether every person whose value relates to the name has been returned by ``next(_:)``.
    public var isExhausted: Bool { related.map { relatedOffset >= $0.count } ?? false }

    /// Whether ``more(_:)`` has more to give.
    public var hasMore: Bool { !isExhausted || !othersExhausted }

    /// The values that may start with a word of the query, as the server can tell: each word as
    /// typed and as folded (an address is ASCII: `zoë` finds zoe@…).
    private var valuePrefixFilter: LDAPFilter? {
        guard !field.kind.isBinary else { return nil }
        var prefixes: [String] = []
        for word in matcher.query.tokens + matcher.foldedWords where !word.isEmpty && !prefixes.contains(word) {
            prefixes.append(word)
        }
        return prefixes.isEmpty ? nil : .or(prefixes.map { field.prefixFilter($0) })
    }

    /// The people whose first or last name starts with no word of the query, as the server
    /// can tell cheaply; whom the matcher found by name beyond that is in ``named``.
    private var notNamed: LDAPFilter {
        .not(.or(matcher.query.tokens.flatMap { [LDAPFilter.prefix("givenName", LDAPValue($0)), .prefix("sn", LDAPValue($0))] }))
    }

    private func candidate(_ entry: LDAPEntry) -> Candidate {
        let person = Person(entry: entry)
        return Candidate(person: person, tier: .fieldOnly, score: matcher.score(person), values: person.values(of: field))
    }

    /// The next `count` people whose value relates to the name (fewer at the end).
    public func next(_ count: Int) async throws -> [Candidate] {
        if related == nil {
            var found = self.found
            let foundDNs = Set(found.map(\.person.dn.string))
            if let valuePrefixFilter {
                let entries = try await connection.search(
                    base: base, filter: .and([field.presenceFilter, notNamed, valuePrefixFilter]),
                    attributes: attributes).collect()
                found += entries.filter { !named.contains($0.dn.string) && !foundDNs.contains($0.dn.string) }.map(candidate)
                    .filter { $0.values.contains(where: matcher.startsAWord) }
            }
            related = Candidate.ranked(found)
        }
        let related = related ?? []
        let page = Array(related[relatedOffset..<relatedOffset + min(related.count - relatedOffset, count)])
        relatedOffset += page.count
        delivered += page.count
        return page
    }

    /// ``next(_:)``, then, once those are all returned, anyone else who has the field, in the
    /// server's order: browsing, only on request.
    public func more(_ count: Int) async throws -> [Candidate] {
        var page = try await next(count)
        guard page.count < count, !othersExhausted else { return page }
        if !othersStarted {
            var parts = [field.presenceFilter, notNamed]
            if let valuePrefixFilter { parts.append(.not(valuePrefixFilter)) }
            others = connection.search(base: base, filter: .and(parts), attributes: attributes).makeAsyncIterator()
            othersStarted = true
        }
        let relatedDNs = Set((related ?? []).map(\.person.dn.string))
        while page.count < count, var iterator = others {
            let entry = try await iterator.next()
            others = iterator
            guard let entry else {
                others = nil
                othersExhausted = true
                break
            }
            guard !named.contains(entry.dn.string), !relatedDNs.contains(entry.dn.string) else { continue }
            let found = candidate(entry)
            if !found.values.isEmpty {
                page.append(found)
                delivered += 1
            }
        }
        return page
    }
}

extension AddressBook {
    /// The name matcher for `name` on this directory (with ldapbook's nickname when the
    /// directory has its schema).
    public func nameMatcher(_ name: NameQuery) async throws -> NameMatcher {
        NameMatcher(name, nicknames: try await fieldRegistry().hasLDAPBookSchema)
    }

    /// The people `name` matches under `base`, each with their score, in the server's order:
    /// one search with the matcher's filter, and the people the matcher keeps.
    ///
    /// - Parameters:
    ///   - fields: fields to read besides the names.
    ///   - also: a further condition of the search (such as the field's presence).
    public func matches(of name: NameQuery, fields: [Field] = [], also extra: LDAPFilter? = nil,
                        base: DistinguishedName? = nil) async throws -> [(person: Person, score: NameScore)] {
        var found: [(person: Person, score: NameScore)] = []
        try await forEachMatch(of: name, fields: fields, also: extra, base: base) { found.append(($0, $1)) }
        return found
    }

    /// The name search's page size. A name search is meant to end in one page: slapd works
    /// out a paged search's candidates again for every page, from every term of the filter
    /// (26 for `jo`, with its accented spellings), about 9 ms a page at 100,000 entries, and
    /// the client waits a round trip between pages. People's names are a few hundred bytes,
    /// so a page of 20,000 is a few megabytes. Pages remain for servers that return no more
    /// than a page at a time (Active Directory caps them at its MaxPageSize); a server that
    /// refuses the size (slapd's `size.pr`) is asked again without pages. Measured at 100,000
    /// entries, `find jo` took 1.31× ldapsearch's time in pages of 500 and 1.0–1.1× in
    /// one page (BENCHMARKS.md, workload 1).
    static let nameSearchPageSize = 20000

    /// Calls `body` with each person `name` matches and their score: from the local index
    /// when there is one (``usableIndex()``), else as the server returns them; returns
    /// whether the server stopped early at its size limit (an administrative limit), having
    /// sent only some of the people the filter matches.
    @discardableResult
    private func forEachMatch(of name: NameQuery, fields: [Field], also extra: LDAPFilter?, base: DistinguishedName?,
                              forgiving: Bool = false, folding: NameFolding = NameFolding(),
                              _ body: (Person, NameScore) -> Void) async throws -> Bool {
        // The index holds everyone under the connection's base: a base at or below it is a
        // part of the index.
        let indexed = base.map { base in connection.defaultBase.map { base.isEquivalent(to: $0) || base.isDescendant(of: $0) } ?? false } ?? true
        if extra == nil, indexed, !forgiving, let index = try await usableIndex() {
            let matcher = NameMatcher(name)
            // Nobody, as the index has it, is asked of the server once more (what changed since
            // the last sync: little work with RFC 4533): someone added a minute ago is found.
            for attempt in 0..<2 {
                var matched = 0
                for person in try await indexedPeople(index, matcher: matcher, fields: fields) {
                    if let base, !person.dn.isEquivalent(to: base), !person.dn.isDescendant(of: base) { continue }
                    let score = matcher.score(person, using: folding)
                    if score.matchedWords > 0 {
                        matched += 1
                        body(person, score)
                    }
                }
                if matched > 0 || attempt == 1 { break }
                // While another sync brings it up to date, the index is taken as it is.
                let refreshed: Bool
                do {
                    refreshed = try await refreshIndexBeforeConcluding()
                } catch is PeopleIndex.SyncUnderWay {
                    refreshed = false
                }
                guard refreshed else { break }
            }
            return false
        }
        // The names' search needs nothing of the schema: the nickname it reads is simply not
        // returned where the directory lacks it. Only the search of the other attributes,
        // whose filter may name the nickname only where it exists, reads the schema.
        let matcher = NameMatcher(name)
        var attributes = matcher.readAttributes
        for field in fields where !attributes.contains(where: { $0.equalsIgnoringCase(field.attribute) }) {
            attributes.append(field.attribute)
        }
        // Whether a value can be added needs the entry's classes.
        if fields.contains(where: \.needsLDAPBookClass) { attributes.append("objectClass") }
        var seen: Set<String> = [], found = 0, truncated = false
        func search(_ names: LDAPFilter, remembering: Bool, bounded: Bool, limit: Int = Self.otherSearchSizeLimit) async throws {
            let filter = extra.map { LDAPFilter.and([names, $0]) } ?? names
            var pageSize = connection.configuration.pageSize.map { max($0, Self.nameSearchPageSize) } ?? 0
            var received = 0
            while true {
                do {
                    let results = connection.search(base: base, filter: filter, attributes: attributes,
                                                    sizeLimit: bounded ? limit : nil,
                                                    pageSize: bounded ? 0 : pageSize,
                                                    timeLimit: bounded ? Self.otherSearchTimeLimit : nil)
                    for try await entry in results {
                        received += 1
                        if !remembering && !seen.isEmpty && seen.contains(entry.dn.string) { continue }
                        let person = Person(entry: entry)
                        let score = matcher.score(person, using: folding)
                        guard score.matchedWords > 0 else { continue }
                        found += 1
                        if remembering { seen.insert(entry.dn.string) }
                        body(person, score)
                    }
                    return
                } catch let error as LDAPError where error.code == .adminLimitExceeded && received == 0 && pageSize > 0 {
                    // A server that limits page sizes (slapd's size.pr) refuses a larger page
                    // before it sends anything: ask again without pages, under its size limit.
                    pageSize = 0
                } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .adminLimitExceeded
                    || error.code == .timeLimitExceeded {
                    // What arrived is kept; the caller says that more may match.
                    truncated = true
                    return
                }
            }
        }
        // Display names, nicknames and addresses, seldom indexed, only when the query holds
        // an address (and then whom the names found is left out), and then bounded: a name
        // nobody has, or a common first name with nicknames (`john`: 617 ms of slapd's CPU
        // at 100,000 people, a scan of every entry), never has the server read every entry.
        let others = matcher.looksLikeAnAddress
        if forgiving {
            try await search(matcher.forgivingFilter, remembering: others, bounded: true, limit: Self.forgivingSearchSizeLimit)
        } else {
            try await search(matcher.filter, remembering: others, bounded: false)
        }
        if others && name.phoneNumber == nil {
            try await search(try await nameMatcher(name).otherFilter, remembering: false, bounded: true)
        }
        return truncated
    }

    /// The most people the search of display names, nicknames and addresses returns.
    static let otherSearchSizeLimit = 500
    /// The most seconds the server may spend on the search of display names, nicknames and
    /// addresses, which it seldom indexes, and on the forgiving search.
    static let otherSearchTimeLimit = 2
    /// The most people the forgiving search (``NameMatcher/forgivingFilter``) returns: every
    /// name starting with the first three letters of a word, 673 for `lov` at 1,000,000 entries.
    static let forgivingSearchSizeLimit = 5000

    /// Finds and ranks the people for `field` and `name`: one search for the
    /// name tiers (see ``NameMatcher``), and a cursor for the field-only tier that reads
    /// nothing until asked.
    ///
    /// - Parameters:
    ///   - field: the field; `nil` ranks name matches only.
    ///   - name: the name as typed.
    ///   - base: where to search; `nil` means the connection's default base.
    ///   - limit: the most people each name tier keeps (`find --limit`); `nil` keeps all.
    ///     ``Ranking/uniqueFullMatch`` counts everyone found; so does ``Ranking/nameMatches``,
    ///     except that ranking by name alone from the local index reads only the best and as
    ///     many more as it takes to tell whether more match (``rankFromIndex(_:base:limit:eachKept:)``).
    ///   - forgiving: asks the server, not the local index, for everyone whose names start as
    ///     each word does (``NameMatcher/forgivingFilter``), to forgive a typo or an accent
    ///     further on: for a lookup that found nobody, before a new entry is offered, when the
    ///     index (which forgives them anyway) is off or could not be brought up to date.
    ///   - eachKept: called with each person of the name tiers as they arrive, when the tier
    ///     keeps them (under a limit, some are dropped later for better ones). A caller that
    ///     lists them can make what it shows of each while the server is still sending the
    ///     rest, and find it again by ``Candidate/arrival`` once they are ranked.
    public func rank(field: Field?, name: NameQuery, base: DistinguishedName? = nil,
                     limit: Int? = nil, reading extra: [Field] = [], forgiving: Bool = false,
                     eachKept: (Candidate) -> Void = { _ in }) async throws -> Ranking {
        // The best few: the index reads only them.
        if extra.isEmpty, !forgiving, let limit,
           let ranking = try await rankFromIndex(name, field: field, base: base, limit: limit, eachKept: eachKept) {
            return ranking
        }
        var withField = TierCollector(limit: limit), without = TierCollector(limit: limit)
        var full = FullMatchCounter()
        var named: Set<String> = [], count = 0
        var foundByAddress: [Candidate] = []
        let folding = NameFolding()
        let truncated = try await forEachMatch(of: name, fields: (field.map { [$0] } ?? []) + extra, also: nil, base: base,
                                               forgiving: forgiving, folding: folding) { person, score in
            let values = field.map { person.values(of: $0) } ?? []
            // With a field, someone whose address alone matched is no name match (the spec's
            // "first or last names"): they have the field, or they are no candidate at all;
            // unless the query was an address, which names them as well as a name would.
            if field != nil && !score.matchesAName && !name.looksLikeAnAddress {
                if !values.isEmpty {
                    foundByAddress.append(Candidate(scoredBy: folding, person: person, tier: .fieldOnly, score: score, values: values))
                }
                return
            }
            let candidate: Candidate
            let kept: Bool
            if field != nil && !values.isEmpty {
                candidate = Candidate(scoredBy: folding, person: person, tier: .fieldAndName, score: score, values: values,
                                      arrival: count)
                kept = withField.add(candidate)
            } else {
                candidate = Candidate(scoredBy: folding, person: person, tier: field == nil ? nil : .nameOnly, score: score,
                                      values: [], arrival: count)
                kept = without.add(candidate)
            }
            count += 1
            if kept { eachKept(candidate) }
            full.add(candidate)
            // The field-only tier leaves out whom the names found.
            if field != nil { named.insert(person.dn.string) }
        }
        var cursor: FieldOnlyCursor?
        if let field {
            cursor = FieldOnlyCursor(connection: connection, base: base, field: field, matcher: try await nameMatcher(name),
                                     named: named, found: foundByAddress, reading: extra)
        }
        return Ranking(
            query: name, field: field, fieldAndName: withField.ranked, nameOnly: without.ranked, nameMatches: count,
            isTruncated: truncated,
            fieldOnly: cursor,
            // Whom the server did not send may match as fully.
            uniqueFullMatch: truncated ? nil : full.unique)
    }

    /// The people whose photo `name` may mean (the spec's photo retriever), best first: the
    /// one person who alone matches every word of the name by their names
    /// (``Ranking/uniqueFullMatch``), whether or not they have a photo; else everyone whom
    /// every word matches and who has one (at most ``photoCandidateLimit``). Someone only one
    /// word matches is not the person meant: `adam smith` never gives Adam Jones's photo.
    /// Nobody's photo is transferred: read the chosen one's with ``photo(of:field:)``.
    public func photoCandidates(of name: NameQuery, field: Field) async throws -> [Person] {
        // Those who match every word rank first: the best few hundred hold them, and only they
        // are read from the index.
        let ranking = try await rank(field: nil, name: name, limit: Self.photoCandidateLimit * 4)
        if let only = ranking.uniqueFullMatch { return [only.person] }
        var found: [Person] = []
        for candidate in ranking.nameOnly where candidate.score.matchedWords == name.tokens.count {
            guard found.count < Self.photoCandidateLimit else { break }
            // Whether they have one, without its bytes.
            let holder = try await connection.search(base: candidate.person.dn, scope: .base, filter: field.presenceFilter,
                                                     attributes: ["1.1"], pageSize: 0).collect()
            if !holder.isEmpty { found.append(candidate.person) }
        }
        return found
    }

    /// The most people ``photoCandidates(of:field:)`` offers.
    public static let photoCandidateLimit = 50

    /// The photo of `person` (read from the server now), or `nil` when they have none.
    public func photo(of person: Person, field: Field) async throws -> [UInt8]? {
        try await self.person(at: person.dn, fields: [field])?.values(of: field).first?.bytes
    }
}
