import Foundation
import LDAPKit

extension AddressBook {
    /// The best `limit` people `name` matches, ranked from the local index while reading only
    /// them, not everyone the name may mean: `jo` may mean twelve thousand people of a hundred
    /// thousand, and reading and scoring each took 150 ms (BENCHMARKS.md, workload 6).
    ///
    /// The index bounds each person's score from the keys they are filed under
    /// (``PeopleIndex/Store/rankedCandidates(for:)``) and knows where each comes among equals,
    /// so people are read best bound first, and the reading stops once nobody left can rank
    /// before the last of the best `limit`: the ranking is the one reading everyone gives.
    /// Whom else the name matches is read only as far as ``Ranking/nameMatches`` (more than
    /// `limit`, or how many) and ``Ranking/uniqueFullMatch`` need.
    ///
    /// Nobody found is an answer too when the index was brought up to date within
    /// ``missTrustAge``: this is the lookup of names as they are typed (`find`, a mail client's
    /// completion), which must not cost the shared server a request per keystroke. An older
    /// index asks the server what changed first (someone added a few minutes ago by another
    /// tool is found), as whatever adds someone after a miss (`reach`) always does
    /// (``refreshIndexBeforeConcluding()``).
    ///
    /// `nil` when this cannot be done: no usable index, a base outside it, a query the index
    /// cannot bound (``PeopleIndex/Store/rankedCandidates(for:)``), or a miss in an index older
    /// than ``missTrustAge``.
    /// How many seconds a miss in the local index is taken for nobody without asking the
    /// server what changed: at most one such request a minute, however fast names are typed.
    static let missTrustAge: Double = 60

    ///
    /// With a `field` the index holds (an address, a phone number), the two tiers of a field's
    /// ranking are each the best `limit`: those with the field, and those without; and whoever
    /// only an address of theirs names, who is no name match, is handed to the field-only tier.
    func rankFromIndex(_ name: NameQuery, field: Field? = nil, base: DistinguishedName?, limit: Int,
                       eachKept: (Candidate) -> Void) async throws -> Ranking?
    {
        if let base, let root = connection.defaultBase, !base.isEquivalent(to: root) { return nil }
        if let field, !PersonRecord.holds(field.attribute) || field.needsLDAPBookClass { return nil }
        guard base != nil || connection.defaultBase != nil, let index = try await usableIndex() else { return nil }
        let matcher = NameMatcher(name)
        let found = try index.read { store -> (ranking: Ranking, named: Set<String>, byAddress: [Candidate])? in
            guard let ranked = try store.rankedCandidates(for: matcher) else { return nil }
            if try ranked.best() == nil {
                let synced = try store.meta("synced-at").flatMap(Double.init) ?? 0
                if Date().timeIntervalSince1970 - synced > Self.missTrustAge { return nil }
            }
            let folding = NameFolding()
            var withField = TierCollector(limit: limit), without = TierCollector(limit: limit), full = FullMatchCounter()
            var named: Set<String> = [], foundByAddress: [Candidate] = []
            // Each tier's best `limit` so far, as (score, position), best first: whoever cannot
            // come before the last of each is among the best of neither.
            var best: [[(rank: UInt64, position: UInt32)]] = field == nil ? [[]] : [[], []]
            var count = 0
            func read(_ candidate: IndexedCandidate) throws -> NameScore? {
                guard let entry = try store.entry(id: candidate.id) else { return nil }
                let person = Person(entry: entry)
                let score = matcher.score(person, using: folding)
                guard score.matchedWords > 0 else { return nil }
                let values = field.map { person.values(of: $0) } ?? []
                // As ``rank(field:name:base:limit:reading:forgiving:eachKept:)`` has it: with a
                // field, an address alone names nobody, unless the query is an address.
                if field != nil && !score.matchesAName && !name.looksLikeAnAddress {
                    if !values.isEmpty {
                        foundByAddress.append(Candidate(scoredBy: folding, person: person, tier: .fieldOnly, score: score,
                                                        values: values))
                    }
                    return nil
                }
                let hasField = field != nil && !values.isEmpty
                let found = Candidate(scoredBy: folding, person: person, tier: field == nil ? nil : hasField ? .fieldAndName : .nameOnly,
                                      score: score, values: values, arrival: count)
                count += 1
                if hasField ? withField.add(found) : without.add(found) { eachKept(found) }
                full.add(found)
                if field != nil { named.insert(person.dn.string) }
                let tier = hasField ? 1 : 0
                let place = best[tier].firstIndex { score.rank > $0.rank || score.rank == $0.rank && candidate.position < $0.position }
                    ?? best[tier].count
                if place < limit {
                    best[tier].insert((score.rank, candidate.position), at: place)
                    if best[tier].count > limit { best[tier].removeLast() }
                }
                return score
            }
            func amongTheBest(_ candidate: IndexedCandidate) -> Bool {
                best.contains { tier in
                    guard tier.count == limit, let last = tier.last else { return true }
                    return candidate.bound > last.rank || candidate.bound == last.rank && candidate.position < last.position
                }
            }
            while let candidate = try ranked.best() {
                if !amongTheBest(candidate) { break }
                try ranked.takeBest()
                _ = try read(candidate)
            }
            // Beyond the best: whether anyone else matches (one is enough), and enough of those
            // who may match every word to tell whether one alone does. Whom the addresses alone
            // name are read only when nobody else matches: they are no full match.
            var more = false
            var beyond: Set<Int64> = []
            func readBeyond(_ candidate: IndexedCandidate) throws -> Bool {
                guard beyond.insert(candidate.id).inserted, try read(candidate) != nil else { return false }
                more = true
                return true
            }
            for candidate in ranked.remaining(.named) where try readBeyond(candidate) { break }
            if !more {
                for candidate in try ranked.readAddresses() where try readBeyond(candidate) { break }
            }
            for candidate in ranked.remaining(.mayBeFull) {
                if full.full >= 2 { break }
                _ = try readBeyond(candidate)
            }
            for candidate in ranked.remaining(.mayBeExactFull) {
                if full.exact >= 2 { break }
                _ = try readBeyond(candidate)
            }
            let ranking = Ranking(query: name, field: field, fieldAndName: withField.ranked, nameOnly: without.ranked,
                                  nameMatches: count, isTruncated: false, fieldOnly: nil, uniqueFullMatch: full.unique)
            return (ranking, named, foundByAddress)
        }
        guard var ranking = found?.ranking else { return nil }
        if let field, let found {
            ranking.fieldOnly = FieldOnlyCursor(connection: connection, base: base, field: field, matcher: try await nameMatcher(name),
                                                named: found.named, found: found.byAddress)
        }
        return ranking
    }
}
