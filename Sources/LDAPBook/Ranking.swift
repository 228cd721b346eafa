import LDAPKit

/// The people found for a field and a name, ranked (the spec's tiers):
/// field-and-name first, then name-only, then field-only, which is fetched
/// page by page on demand because it can be the whole directory.
public struct Ranking: Sendable {
    /// The name searched for.
    public let query: NameQuery
    /// The field, or `nil` when ranking by name alone.
    public let field: Field?
    /// People whose field is populated and whose name matches, best first.
    public let fieldAndName: [Candidate]
    /// People whose name matches but whose field is empty, best first
    /// (with no field: every name match).
    public let nameOnly: [Candidate]
    /// People whose field is populated but whose name does not match; `nil` without a field.
    public let fieldOnly: FieldOnlyCursor?

    /// The (person, value) pairs of the field-and-name tier, in rank order.
    public var fieldAndNamePairs: [(candidate: Candidate, value: LDAPValue)] {
        fieldAndName.flatMap { candidate in candidate.values.map { (candidate, $0) } }
    }
}

/// The field-only tier, read in pages: first the people whose field value
/// starts with a query token, then the rest in the server's order. Nothing is
/// read before it is asked for, and reading stops when the caller stops.
public actor FieldOnlyCursor {
    private let connection: LDAPConnection
    private let base: DistinguishedName?
    private let field: Field
    private let query: NameQuery
    private let attributes: [String]
    private let foldedTokens: [String]
    private var prefixed: [Candidate]?
    private var prefixedOffset = 0
    private var rest: LDAPSearchResults.AsyncIterator?
    private var restStarted = false
    /// Whether every field-only person has been returned.
    public private(set) var isExhausted = false
    /// How many people have been returned so far.
    public private(set) var delivered = 0

    init(connection: LDAPConnection, base: DistinguishedName?, field: Field, query: NameQuery) {
        self.connection = connection
        self.base = base
        self.field = field
        self.query = query
        self.attributes = Person.attributes(for: [field])
        foldedTokens = query.tokens.map(NameScore.fold)
    }

    private var valuePrefixFilter: LDAPFilter? {
        guard !field.kind.isBinary else { return nil }
        return .or(query.tokens.map { field.prefixFilter($0) })
    }

    private var notNamed: LDAPFilter { .not(query.filter) }

    private func candidate(_ entry: LDAPEntry) -> Candidate {
        let person = Person(entry: entry)
        return Candidate(person: person, tier: .fieldOnly,
                         score: NameScore(foldedTokens: foldedTokens, givenNames: person.givenNames, surnames: person.surnames),
                         values: person.values(of: field))
    }

    /// The next `count` field-only people (fewer at the end).
    public func next(_ count: Int) async throws -> [Candidate] {
        var page: [Candidate] = []
        if prefixed == nil {
            if let valuePrefixFilter {
                let entries = try await connection.search(
                    base: base, filter: .and([field.presenceFilter, notNamed, valuePrefixFilter]),
                    attributes: attributes).collect()
                prefixed = entries.map(candidate).filter { !$0.values.isEmpty }.sorted(by: Candidate.ranksBefore)
            } else {
                prefixed = []
            }
        }
        while page.count < count, let prefixed, prefixedOffset < prefixed.count {
            page.append(prefixed[prefixedOffset])
            prefixedOffset += 1
        }
        if page.count < count && !isExhausted {
            if !restStarted {
                var parts = [field.presenceFilter, notNamed]
                if let valuePrefixFilter { parts.append(.not(valuePrefixFilter)) }
                rest = connection.search(base: base, filter: .and(parts), attributes: attributes).makeAsyncIterator()
                restStarted = true
            }
            while page.count < count, var iterator = rest {
                let entry = try await iterator.next()
                rest = iterator
                guard let entry else {
                    rest = nil
                    isExhausted = true
                    break
                }
                let found = candidate(entry)
                if !found.values.isEmpty { page.append(found) }
            }
        }
        delivered += page.count
        return page
    }
}

extension AddressBook {
    /// Finds and ranks the people for `field` and `name`: one search for the
    /// name tiers (prefix on `givenName` and `sn`, with the field's values),
    /// and a cursor for the field-only tier that reads nothing until asked.
    ///
    /// - Parameters:
    ///   - field: the field; `nil` ranks name matches only.
    ///   - name: the name as typed.
    ///   - base: where to search; `nil` means the connection's default base.
    public func rank(field: Field?, name: NameQuery, base: DistinguishedName? = nil) async throws -> Ranking {
        let attributes = Person.attributes(for: field.map { [$0] } ?? [])
        var entries: [LDAPEntry] = []
        for try await entry in connection.search(base: base, filter: name.filter, attributes: attributes) {
            entries.append(entry)
        }
        let tiers = Ranking.nameTiers(of: entries, field: field, name: name)
        return Ranking(
            query: name, field: field, fieldAndName: tiers.fieldAndName, nameOnly: tiers.nameOnly,
            fieldOnly: field.map { FieldOnlyCursor(connection: connection, base: base, field: $0, query: name) })
    }
}

extension Ranking {
    /// Ranks entries whose names matched `name` into the two name tiers, best first:
    /// those with a value of `field`, then those without (with no field, every entry is
    /// in ``nameOnly``). This is the in-process half of ``AddressBook/rank(field:name:base:)``.
    public static func nameTiers(of entries: [LDAPEntry], field: Field?, name: NameQuery)
        -> (fieldAndName: [Candidate], nameOnly: [Candidate])
    {
        var withField: [Candidate] = []
        var withoutField: [Candidate] = []
        let tokens = name.tokens.map { Array(NameScore.fold($0).utf8) }
        // Names repeat (families, common first names), so each one beyond ASCII is folded
        // through Unicode once.
        var folded: [[UInt8]: [UInt8]] = [:]
        func fold(_ values: [LDAPValue]) -> [[UInt8]] {
            values.map { value in
                let bytes = value.bytes
                if bytes.allSatisfy({ $0 < 0x80 }) { return NameScore.fold(bytes: bytes) }
                if let known = folded[bytes] { return known }
                let result = NameScore.fold(bytes: bytes)
                folded[bytes] = result
                return result
            }
        }
        for entry in entries {
            let person = Person(entry: entry)
            let (givenNames, surnames) = (entry["givenName"], entry["sn"])
            let score = NameScore(foldedTokens: tokens, foldedGivenNames: fold(givenNames), foldedSurnames: fold(surnames))
            guard let field else {
                withoutField.append(Candidate(person: person, tier: nil, score: score, values: [],
                                              givenNames: givenNames, surnames: surnames))
                continue
            }
            let values = person.values(of: field)
            if values.isEmpty {
                withoutField.append(Candidate(person: person, tier: .nameOnly, score: score, values: [],
                                              givenNames: givenNames, surnames: surnames))
            } else {
                withField.append(Candidate(person: person, tier: .fieldAndName, score: score, values: values,
                                           givenNames: givenNames, surnames: surnames))
            }
        }
        return (Candidate.ranked(withField), Candidate.ranked(withoutField))
    }
}

extension AddressBook {
    /// The photo of the best-ranked person whose name matches `name` and who
    /// has one (the spec's photo retriever), or `nil`. Only that person's
    /// photo is transferred.
    public func photo(of name: NameQuery, field: Field, base: DistinguishedName? = nil) async throws -> [UInt8]? {
        var candidates: [Candidate] = []
        let filter = LDAPFilter.and([name.filter, field.presenceFilter])
        for try await entry in connection.search(base: base, filter: filter, attributes: Person.nameAttributes) {
            let person = Person(entry: entry)
            candidates.append(Candidate(person: person, tier: .fieldAndName,
                                        score: NameScore(tokens: name.tokens, givenNames: person.givenNames,
                                                         surnames: person.surnames),
                                        values: []))
        }
        for candidate in candidates.sorted(by: Candidate.ranksBefore) {
            if let photo = try await person(at: candidate.person.dn, fields: [field])?.values(of: field).first {
                return photo.bytes
            }
        }
        return nil
    }
}
