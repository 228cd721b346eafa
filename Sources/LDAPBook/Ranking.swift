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
        var ranker = TierRanker(tokens: name.tokens.map { Array(NameScore.fold($0).utf8) }, count: entries.count)
        var values = [[LDAPValue]](repeating: [], count: entries.count)
        for (index, entry) in entries.enumerated() {
            let fieldValues = field.map { $0.values(in: entry) } ?? []
            values[index] = fieldValues
            ranker.add(entry, at: index, withField: !fieldValues.isEmpty)
        }
        let (first, second) = ranker.sorted(dn: { entries[$0].dn })
        let keys = ranker.keyBytes
        // Candidates are made in the entries' order, each put at its place in the ranking:
        // reading the entries in rank order would jump around memory.
        func candidates(_ items: [TierRanker.Item], tier: Tier?) -> [Candidate] {
            var places = [(entry: Int, place: Int)]()
            places.reserveCapacity(items.count)
            for (place, item) in items.enumerated() { places.append((Int(item.entry), place)) }
            places.sort { $0.entry < $1.entry }
            return [Candidate](unsafeUninitializedCapacity: items.count) { buffer, initialized in
                for (entry, place) in places {
                    let item = items[place]
                    (buffer.baseAddress! + place).initialize(to: Candidate(
                        person: Person(entry: entries[entry]), tier: tier, score: ranker.scores[entry], values: values[entry],
                        nameKey: NameKey(bytes: keys[Int(item.keyStart)..<Int(item.keyEnd)])))
                }
                initialized = items.count
            }
        }
        guard field != nil else { return ([], candidates(second, tier: nil)) }
        return (candidates(first, tier: .fieldAndName), candidates(second, tier: .nameOnly))
    }
}

/// Scores and orders many entries at once, as ``Candidate/ranksBefore(_:_:)`` would but
/// without a candidate, a string or an array per entry: ASCII names are scored as they
/// are read, other names are worked out by ``NameCache``, every tie-break key goes
/// into one buffer, and sorting compares the score and the key's first fifteen bytes as
/// integers, reading further only when those are equal (and the DN only for people named
/// alike).
struct TierRanker {
    /// One entry's place in the order.
    struct Item {
        /// The score (with ``NameScore/<(_:_:)``'s order as an integer's) in the high byte,
        /// then the key's first seven bytes, big-endian and zero-padded.
        var head: UInt64
        /// The key's next eight bytes.
        var tail: UInt64
        var keyStart: UInt32
        var keyEnd: UInt32
        /// The entry's position in the input.
        var entry: UInt32
    }

    private let tokens: [[UInt8]]
    private var names = NameCache()
    /// Every entry's tie-break key, one after the other.
    private(set) var keyBytes: [UInt8] = []
    private var withField: [Item] = []
    private var withoutField: [Item] = []
    private var surnameScratch: [Int] = []
    private var givenScratch: [Int] = []
    /// Each entry's score, by its position in the input.
    private(set) var scores: [NameScore]
    private let count: Int

    init(tokens: [[UInt8]], count: Int) {
        self.tokens = tokens
        self.count = count
        scores = Array(repeating: NameScore(givenStrengths: tokens.map { _ in 0 }, surnameStrengths: tokens.map { _ in 0 }), count: count)
        keyBytes.reserveCapacity(count * 24)
    }

    /// Scores `entry`, the `index`th, and writes its key.
    mutating func add(_ entry: LDAPEntry, at index: Int, withField: Bool) {
        var givenNames: [LDAPValue] = []
        var surnames: [LDAPValue] = []
        entry.attributes.withUnsafeBufferPointer { attributes in
            for index in attributes.indices {
                if attributes[index].isNamed("givenName") {
                    if givenNames.isEmpty { givenNames = attributes[index].values }
                } else if attributes[index].isNamed("sn") {
                    if surnames.isEmpty { surnames = attributes[index].values }
                }
            }
        }
        let start = keyBytes.count
        // The strengths' buffers are kept from one entry to the next.
        var surnameStrengths = surnameScratch, givenStrengths = givenScratch
        (surnameScratch, givenScratch) = ([], [])
        appendKey(surnames, strengths: &surnameStrengths)
        appendKey(givenNames, strengths: &givenStrengths)
        let score = NameScore(givenStrengths: givenStrengths, surnameStrengths: surnameStrengths)
        (surnameScratch, givenScratch) = (surnameStrengths, givenStrengths)
        func bytes(_ range: Range<Int>) -> UInt64 {
            range.reduce(0) { word, offset in word << 8 | UInt64(offset < keyBytes.count ? keyBytes[offset] : 0) }
        }
        let order = UInt64(score.match.rank * 4 + (3 - min(score.exactMatches, 3)))
        scores[index] = score
        let item = Item(head: order << 56 | bytes(start..<start + 7), tail: bytes(start + 7..<start + 15),
                        keyStart: UInt32(start), keyEnd: UInt32(keyBytes.count), entry: UInt32(index))
        if withField {
            if self.withField.isEmpty { self.withField.reserveCapacity(count) }
            self.withField.append(item)
        } else {
            if withoutField.isEmpty { withoutField.reserveCapacity(count) }
            withoutField.append(item)
        }
    }

    /// The entries with the field and those without, each in rank order; `dn` gives an
    /// entry's DN for the last tie-break.
    func sorted(dn: (Int) -> DistinguishedName) -> ([Item], [Item]) {
        var dnBytes = [[UInt8]?](repeating: nil, count: count)
        func text(_ entry: Int) -> [UInt8] {
            if let known = dnBytes[entry] { return known }
            let bytes = Array(dn(entry).string.utf8)
            dnBytes[entry] = bytes
            return bytes
        }
        return keyBytes.withUnsafeBufferPointer { keys in
            func before(_ lhs: Item, _ rhs: Item) -> Bool {
                if lhs.head != rhs.head { return lhs.head < rhs.head }
                if lhs.tail != rhs.tail { return lhs.tail < rhs.tail }
                let order = compareBytes(UnsafeBufferPointer(rebasing: keys[Int(lhs.keyStart)..<Int(lhs.keyEnd)]),
                                         UnsafeBufferPointer(rebasing: keys[Int(rhs.keyStart)..<Int(rhs.keyEnd)]))
                if order != 0 { return order < 0 }
                return compareBytes(text(Int(lhs.entry)), text(Int(rhs.entry))) < 0
            }
            return (withField.sorted(by: before), withoutField.sorted(by: before))
        }
    }

    /// Appends the smallest of `names`, lower-cased, and a zero byte to the keys, and
    /// sets `strengths` to how each token matches the best of them: 0 none, 1 prefix,
    /// 2 exact. Each name is read once for both.
    private mutating func appendKey(_ names: [LDAPValue], strengths: inout [Int]) {
        strengths.removeAll(keepingCapacity: true)
        strengths.append(contentsOf: repeatElement(0, count: tokens.count))
        if names.count == 1 {
            Self.read(names[0].bytes, tokens: tokens, cache: &self.names, strengths: &strengths, lowered: &keyBytes)
        } else if !names.isEmpty {
            var smallest: [UInt8]?
            for name in names {
                var lowered: [UInt8] = []
                Self.read(name.bytes, tokens: tokens, cache: &self.names, strengths: &strengths, lowered: &lowered)
                if smallest.map({ compareBytes(lowered, $0) < 0 }) ?? true { smallest = lowered }
            }
            keyBytes += smallest ?? []
        }
        keyBytes.append(0)
    }

    /// Raises `strengths` to how each of `tokens` matches `name`, and appends the name
    /// lower-cased to `lowered`.
    private static func read(_ name: [UInt8], tokens: [[UInt8]], cache: inout NameCache,
                             strengths: inout [Int], lowered: inout [UInt8]) {
        let isASCII = name.allSatisfy { $0 < 0x80 }
        if isASCII {
            for byte in name { lowered.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte) }
        }
        let forms = isASCII ? nil : cache.forms(of: name)
        if let forms { lowered += forms.lowered }
        for (index, token) in tokens.enumerated() where strengths[index] < 2 {
            let strength: Int
            if let forms {
                strength = forms.folded == token ? 2 : forms.folded.starts(with: token) ? 1 : 0
            } else {
                strength = token.withUnsafeBufferPointer { token in
                    name.withUnsafeBufferPointer { NameScore.asciiStrength(of: token, in: $0) ?? 0 }
                }
            }
            strengths[index] = max(strengths[index], strength)
        }
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
