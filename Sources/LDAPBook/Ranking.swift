import Dispatch
import Foundation
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
        var stream = NameTierStream(field: field, name: name)
        for try await entry in connection.search(base: base, filter: name.filter, attributes: attributes) {
            stream.append(entry)
        }
        let tiers = stream.finish()
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
        // Many entries are scored in parts, on as many cores: reading them waits on memory,
        // and each core waits on its own.
        let parts = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, entries.count / TierRanker.entriesPerPart))
        return nameTiers(of: entries, field: field, name: name, parts: parts,
                         minimumConcurrentSort: parts > 1 ? TierRanker.entriesPerPart : nil)
    }

    /// ``nameTiers(of:field:name:)`` with the entries scored in `parts` parts at once, and
    /// the two tiers sorted at once when both have `minimumConcurrentSort` entries or more.
    static func nameTiers(of entries: [LDAPEntry], field: Field?, name: NameQuery, parts: Int, minimumConcurrentSort: Int?)
        -> (fieldAndName: [Candidate], nameOnly: [Candidate])
    {
        precondition(parts >= 1, "at least one part")
        let tokens = TierRanker.tokens(of: name)
        let attribute = TierRanker.ownAttribute(of: field)
        var values = field == nil ? [] : [[LDAPValue]](repeating: [], count: entries.count)
        // Each part has its own ranker; they are put together in input order.
        var rankers = (0..<parts).map { part in
            TierRanker(tokens: tokens, count: TierRanker.part(part, of: parts, count: entries.count).count)
        }
        // Only the attributes are read: the DN is not touched until a tie needs it. The
        // field's values are looked up as each entry is scored, while its attributes are
        // in the cache.
        entries.withUnsafeBufferPointer { entries in
            values.withUnsafeMutableBufferPointer { values in
                rankers.withUnsafeMutableBufferPointer { rankers in
                    let scoring = PartScoring(entries: entries, values: values, rankers: rankers, field: field, attribute: attribute)
                    if parts == 1 {
                        scoring.score(0)
                    } else {
                        DispatchQueue.concurrentPerform(iterations: parts, execute: scoring.score)
                    }
                }
            }
        }
        var ranker = rankers[0]
        for part in 1..<parts {
            ranker.append(rankers[part], entryOffset: TierRanker.part(part, of: parts, count: entries.count).lowerBound)
        }
        return tiers(of: ranker, entries: entries, values: values, field: field, minimumConcurrentSort: minimumConcurrentSort)
    }

    /// The two tiers of what `ranker` scored: `entries`, and each one's `values` of `field`.
    static func tiers(of ranker: TierRanker, entries: [LDAPEntry], values: [[LDAPValue]], field: Field?,
                      minimumConcurrentSort: Int?) -> (fieldAndName: [Candidate], nameOnly: [Candidate]) {
        let (first, second) = entries.withUnsafeBufferPointer {
            ranker.sorted(entries: $0, concurrentlyFrom: minimumConcurrentSort)
        }
        // Candidates are made in rank order without reading an entry: they refer to them.
        let source = CandidateSource(entries: entries, values: values, keys: ranker.keyBytes)
        func candidates(_ items: [TierRanker.Item], tier: Tier?) -> [Candidate] {
            items.map { item in
                Candidate(source: source, position: item.entry, tier: tier,
                          score: NameScore(match: item.match, exactMatches: Int(item.exactMatches)),
                          key: item.keyStart..<item.keyEnd)
            }
        }
        guard field != nil else { return ([], candidates(second, tier: nil)) }
        return (candidates(first, tier: .fieldAndName), candidates(second, tier: .nameOnly))
    }
}

/// One ranking's entries scored in parts, each part by its own ranker: a part writes only
/// its ranker and the field values of its own entries, so parts can be scored at once.
private struct PartScoring: @unchecked Sendable {
    let entries: UnsafeBufferPointer<LDAPEntry>
    /// Each entry's values of the field, when there is one.
    let values: UnsafeMutableBufferPointer<[LDAPValue]>
    let rankers: UnsafeMutableBufferPointer<TierRanker>
    let field: Field?
    /// The lower-cased name of the attribute that holds the field, if it has one of its own.
    let attribute: [UInt8]?

    /// Scores the entries of part `part`.
    func score(_ part: Int) {
        let range = TierRanker.part(part, of: rankers.count, count: entries.count)
        rankers[part].add(UnsafeBufferPointer(rebasing: entries[range]), fieldAttribute: attribute) { index, position in
            guard let field else { return false }
            let entry = range.lowerBound + index
            values[entry] = Self.values(of: field, in: entries.baseAddress! + entry, attribute: attribute, at: position)
            return !values[entry].isEmpty
        }
    }

    /// The values of `field` in `entry`; `position` is that of the first attribute named
    /// `attribute` (`-1` for none) when the field has an attribute of its own.
    static func values(of field: Field, in entry: UnsafePointer<LDAPEntry>, attribute: [UInt8]?, at position: Int) -> [LDAPValue] {
        if attribute == nil { return field.values(in: entry.pointee) }
        guard position >= 0 else { return [] }
        return entry.pointee.attributes.withUnsafeBufferPointer { $0[position].values }
    }
}

/// Ranks a search's entries into the name tiers as they arrive: every ``batchSize`` entries
/// are scored as soon as they are in, while the next ones are still on their way, so that
/// only the sort is left when the last arrives. The tiers are those of
/// ``Ranking/nameTiers(of:field:name:)``.
struct NameTierStream {
    /// How many entries are scored at a time.
    static let batchSize = 1_024

    private let field: Field?
    /// The lower-cased name of the attribute that holds the field, if it has one of its own.
    private let attribute: [UInt8]?
    private var ranker: TierRanker
    private var entries: [LDAPEntry] = []
    /// Each scored entry's values of the field, when there is one.
    private var values: [[LDAPValue]] = []

    /// A stream ranking people by `name`, split by whether they have `field`.
    init(field: Field?, name: NameQuery) {
        self.field = field
        attribute = TierRanker.ownAttribute(of: field)
        ranker = TierRanker(tokens: TierRanker.tokens(of: name), count: 0)
    }

    /// Takes the next entry.
    mutating func append(_ entry: LDAPEntry) {
        entries.append(entry)
        if entries.count - ranker.scored >= Self.batchSize { scoreArrived() }
    }

    /// The tiers of every entry taken.
    mutating func finish() -> (fieldAndName: [Candidate], nameOnly: [Candidate]) {
        scoreArrived()
        let concurrentSort = entries.count >= 2 * TierRanker.entriesPerPart ? TierRanker.entriesPerPart : nil
        return Ranking.tiers(of: ranker, entries: entries, values: values, field: field, minimumConcurrentSort: concurrentSort)
    }

    private mutating func scoreArrived() {
        let start = ranker.scored
        guard start < entries.count else { return }
        if field != nil { values += repeatElement([], count: entries.count - start) }
        let field = field, attribute = attribute
        entries.withUnsafeBufferPointer { entries in
            values.withUnsafeMutableBufferPointer { values in
                ranker.add(UnsafeBufferPointer(rebasing: entries[start...]), fieldAttribute: attribute, entryOffset: start) { index, position in
                    guard let field else { return false }
                    let entry = start + index
                    values[entry] = PartScoring.values(of: field, in: entries.baseAddress! + entry, attribute: attribute, at: position)
                    return !values[entry].isEmpty
                }
            }
        }
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
        /// The score's parts.
        var match: NameMatch
        var exactMatches: UInt8
    }

    private let tokens: [[UInt8]]
    private var names = NameCache()
    /// Every entry's tie-break key, one after the other.
    private(set) var keyBytes: [UInt8] = []
    private var withField: [Item] = []
    private var withoutField: [Item] = []
    private var surnameStrengths: [Int]
    private var givenStrengths: [Int]
    /// The lower case of one value of a multi-valued name, while the smallest is sought.
    private var loweredScratch: [UInt8] = []
    /// The fold of one name beyond ASCII, while it is matched against the tokens.
    private var foldedScratch: [UInt8] = []
    private let count: Int

    /// How many entries have been scored.
    var scored: Int { withField.count + withoutField.count }

    /// The tokens of `name` as a ranker compares them: folded, as UTF-8.
    static func tokens(of name: NameQuery) -> [[UInt8]] {
        name.tokens.map { Array(NameScore.fold($0).utf8) }
    }

    /// The lower-cased name of the attribute that holds `field`, when it has one of its
    /// own: it is then found among an entry's attributes as the names are.
    static func ownAttribute(of field: Field?) -> [UInt8]? {
        field.flatMap { field in
            field.customKey == nil ? Array(field.attribute.utf8).map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 } : nil
        }
    }

    /// The fewest entries worth a part, and a thread, of their own.
    static let entriesPerPart = 16_384

    /// The positions of the entries of part `part` of `parts`, of `count` in all.
    static func part(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// Adds the items and keys of `other`, which scored the entries that follow this one's,
    /// the first of them at `entryOffset`: as if this ranker had scored them itself.
    mutating func append(_ other: TierRanker, entryOffset: Int) {
        let keyOffset = UInt32(keyBytes.count)
        keyBytes += other.keyBytes
        func moved(_ item: Item) -> Item {
            var item = item
            item.keyStart += keyOffset
            item.keyEnd += keyOffset
            item.entry += UInt32(entryOffset)
            return item
        }
        withField += other.withField.map(moved)
        withoutField += other.withoutField.map(moved)
    }

    init(tokens: [[UInt8]], count: Int) {
        self.tokens = tokens
        self.count = count
        surnameStrengths = Array(repeating: 0, count: tokens.count)
        givenStrengths = Array(repeating: 0, count: tokens.count)
        keyBytes.reserveCapacity(count * 24)
    }

    /// Where an entry's first non-empty `sn` and `givenName` are among its attributes
    /// (`-1` for none), found in one look at each attribute's name: its length first,
    /// which most names fail on.
    static func namePositions(_ attributes: UnsafeBufferPointer<LDAPAttribute>) -> (surname: Int, given: Int) {
        var givenAt = -1, surnameAt = -1
        for position in attributes.indices {
            switch attributes[position].name.utf8.count {
            case 2 where surnameAt < 0:
                if attributes[position].isNamed("sn") && !attributes[position].values.isEmpty { surnameAt = position }
            case 9 where givenAt < 0:
                if attributes[position].isNamed("givenName") && !attributes[position].values.isEmpty { givenAt = position }
            default: break
            }
        }
        return (surnameAt, givenAt)
    }

    /// Where an entry's first `sn` and `givenName` are (`-1` for none), whatever their
    /// values: ``namePositions(_:)`` without reading any value, when those attributes have
    /// values. Names are compared inline, byte by byte, without a call.
    static func namedPositions(_ attributes: UnsafeBufferPointer<LDAPAttribute>) -> (surname: Int, given: Int) {
        var givenAt = -1, surnameAt = -1
        for position in attributes.indices {
            let name = attributes[position].name.utf8
            switch name.count {
            case 2 where surnameAt < 0:
                if isNamed(name, lowercase: (0x73, 0x6E, 0, 0, 0, 0, 0, 0, 0)) { surnameAt = position }
            case 9 where givenAt < 0:
                // "givenname"
                if isNamed(name, lowercase: (0x67, 0x69, 0x76, 0x65, 0x6E, 0x6E, 0x61, 0x6D, 0x65)) { givenAt = position }
            default: break
            }
        }
        return (surnameAt, givenAt)
    }

    /// The position of the first of `attributes` named `name` (given in lower case),
    /// ignoring ASCII case as LDAP does, or `-1`: ``LDAPEntry``'s subscript, without a call
    /// per attribute.
    static func position(of name: UnsafeBufferPointer<UInt8>, in attributes: UnsafeBufferPointer<LDAPAttribute>) -> Int {
        for position in attributes.indices where attributes[position].name.utf8.count == name.count {
            var offset = 0
            var same = true
            for byte in attributes[position].name.utf8 {
                let expected = name[offset]
                if byte != expected && !(expected &- 0x61 < 26 && byte | 0x20 == expected) {
                    same = false
                    break
                }
                offset += 1
            }
            if same { return position }
        }
        return -1
    }

    /// Whether `name` is spelled as the lower-case letters `lowercase` (as many as it has
    /// bytes), ignoring ASCII case as LDAP does.
    @inline(__always)
    private static func isNamed(_ name: String.UTF8View,
                                lowercase: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) -> Bool {
        withUnsafeBytes(of: lowercase) { letters in
            var offset = 0
            for byte in name {
                // For a lower-case letter, only it and its capital set 0x20 to match it.
                if byte | 0x20 != letters[offset] { return false }
                offset += 1
            }
            return true
        }
    }

    /// Scores all `entries` and writes their keys, as ``add(_:at:withField:positions:)``
    /// one by one.
    ///
    /// The names of 100,000 entries are far from the cache, and each lies at the end of a
    /// chain of reads (attributes, values, bytes) that one entry's work does not overlap.
    /// So entries are taken thirty-two at a time, and each link of the chain is read for all
    /// of them before the next: those reads do not wait for one another. (A core keeps some
    /// twenty misses in flight; with sixteen entries a block, the 100k ranking took about 7%
    /// longer.)
    ///
    /// `fieldAttribute` is the lower-cased name of the attribute holding the field, if it
    /// has one of its own; `withField` is given each entry's position in `entries` and that
    /// of the first attribute so named (`-1` for none) and tells whether it has the field.
    /// The items record positions `entryOffset` further on, as if `entries` followed that
    /// many others.
    mutating func add(_ entries: UnsafeBufferPointer<LDAPEntry>, fieldAttribute: [UInt8]?, entryOffset: Int = 0,
                      withField: (_ index: Int, _ attribute: Int) -> Bool) {
        let blockSize = 32
        var positions = [(surname: Int, given: Int)](repeating: (-1, -1), count: blockSize)
        var fields = [Bool](repeating: false, count: blockSize)
        var fieldPositions = [Int](repeating: -1, count: blockSize)
        var touched = 0
        var blockStart = 0
        while blockStart < entries.count {
            let blockEnd = min(blockStart + blockSize, entries.count)
            // The attributes' headers, the attributes (every other one is on a cache line
            // of its own), then their names.
            for index in blockStart..<blockEnd { touched &+= entries[index].attributes.count }
            for index in blockStart..<blockEnd {
                entries[index].attributes.withUnsafeBufferPointer { attributes in
                    for position in stride(from: 1, to: attributes.count, by: 2) { touched &+= attributes[position].name.utf8.count }
                }
            }
            for index in blockStart..<blockEnd {
                positions[index - blockStart] = entries[index].attributes.withUnsafeBufferPointer(Self.namedPositions)
            }
            // The field's values' headers, then the field, while the attributes are at hand.
            if let fieldAttribute {
                fieldAttribute.withUnsafeBufferPointer { name in
                    for index in blockStart..<blockEnd {
                        entries[index].attributes.withUnsafeBufferPointer { attributes in
                            let position = Self.position(of: name, in: attributes)
                            fieldPositions[index - blockStart] = position
                            if position >= 0 { touched &+= attributes[position].values.count }
                        }
                    }
                }
            }
            for index in blockStart..<blockEnd {
                fields[index - blockStart] = withField(index, fieldPositions[index - blockStart])
            }
            // The values' headers, then the first value's bytes of each name; an attribute
            // without values (which LDAP does not send) has the names looked for again.
            for index in blockStart..<blockEnd {
                let (surnameAt, givenAt) = positions[index - blockStart]
                entries[index].attributes.withUnsafeBufferPointer { attributes in
                    if surnameAt >= 0 { touched &+= attributes[surnameAt].values.count }
                    if givenAt >= 0 { touched &+= attributes[givenAt].values.count }
                }
            }
            for index in blockStart..<blockEnd {
                let (surnameAt, givenAt) = positions[index - blockStart]
                entries[index].attributes.withUnsafeBufferPointer { attributes in
                    var empty = false
                    func touch(_ position: Int) {
                        guard position >= 0 else { return }
                        attributes[position].values.withUnsafeBufferPointer { values in
                            if values.isEmpty { empty = true } else { touched &+= values[0].count }
                        }
                    }
                    touch(surnameAt)
                    touch(givenAt)
                    if empty { positions[index - blockStart] = Self.namePositions(attributes) }
                }
            }
            for index in blockStart..<blockEnd {
                add(entries.baseAddress! + index, at: entryOffset + index, withField: fields[index - blockStart],
                    positions: positions[index - blockStart])
            }
            blockStart = blockEnd
        }
        keepReadAhead(touched)
    }

    /// Scores `entry`, the `index`th, and writes its key; `positions` are its
    /// ``namePositions(_:)`` when already known. The entry is read in place, through a
    /// pointer: copying it or its arrays would retain them, and an atomic operation on
    /// memory not in the cache stalls the reads that could overlap it.
    mutating func add(_ entry: UnsafePointer<LDAPEntry>, at index: Int, withField: Bool,
                      positions: (surname: Int, given: Int)? = nil) {
        entry.pointee.attributes.withUnsafeBufferPointer { attributes in
            let (surnameAt, givenAt) = positions ?? Self.namePositions(attributes)
            let start = keyBytes.count
            Self.appendKey(surnameAt < 0 ? nil : attributes.baseAddress! + surnameAt, tokens: tokens, cache: &names,
                           strengths: &surnameStrengths, keys: &keyBytes, scratch: &loweredScratch, folded: &foldedScratch)
            Self.appendKey(givenAt < 0 ? nil : attributes.baseAddress! + givenAt, tokens: tokens, cache: &names,
                           strengths: &givenStrengths, keys: &keyBytes, scratch: &loweredScratch, folded: &foldedScratch)
            let score = NameScore(givenStrengths: givenStrengths, surnameStrengths: surnameStrengths)
            let order = UInt64(score.match.rank * 4 + (3 - min(score.exactMatches, 3)))
            let (head, tail) = keyBytes.withUnsafeBufferPointer { keys in
                var head = order, tail: UInt64 = 0
                for offset in start..<start + 7 { head = head << 8 | UInt64(offset < keys.count ? keys[offset] : 0) }
                for offset in start + 7..<start + 15 { tail = tail << 8 | UInt64(offset < keys.count ? keys[offset] : 0) }
                return (head, tail)
            }
            let item = Item(head: head, tail: tail, keyStart: UInt32(start), keyEnd: UInt32(keyBytes.count), entry: UInt32(index),
                            match: score.match, exactMatches: UInt8(score.exactMatches))
            if withField {
                if self.withField.isEmpty { self.withField.reserveCapacity(count) }
                self.withField.append(item)
            } else {
                if withoutField.isEmpty { withoutField.reserveCapacity(count) }
                withoutField.append(item)
            }
        }
    }

    /// The entries with the field and those without, each in rank order; `dn` gives an
    /// entry's DN for the last tie-break. The two tiers are sorted at once when both have
    /// `minimumConcurrent` items or more.
    func sorted(entries: UnsafeBufferPointer<LDAPEntry>, concurrentlyFrom minimumConcurrent: Int? = nil) -> ([Item], [Item]) {
        keyBytes.withUnsafeBufferPointer { keys in
            guard let minimumConcurrent, min(withField.count, withoutField.count) >= max(minimumConcurrent, 1) else {
                return (Self.sort(withField, keys: keys, entries: entries), Self.sort(withoutField, keys: keys, entries: entries))
            }
            var tiers = [withField, withoutField]
            tiers.withUnsafeMutableBufferPointer { tiers in
                let sorting = TierSorting(tiers: tiers, keys: keys, entries: entries)
                DispatchQueue.concurrentPerform(iterations: 2, execute: sorting.sort)
            }
            return (tiers[0], tiers[1])
        }
    }

    /// Two tiers sorted at once, each by its own thread, which writes only that tier.
    private struct TierSorting: @unchecked Sendable {
        let tiers: UnsafeMutableBufferPointer<[Item]>
        let keys: UnsafeBufferPointer<UInt8>
        let entries: UnsafeBufferPointer<LDAPEntry>

        func sort(_ tier: Int) {
            tiers[tier] = TierRanker.sort(tiers[tier], keys: keys, entries: entries)
        }
    }

    /// `items`, which are in input order, in rank order.
    ///
    /// They are sorted on their integers by a stable radix sort, which leaves items with
    /// equal integers in input order; only runs of those, whose keys' first fifteen bytes
    /// are alike, are then put in order by whole keys, and runs of equal keys by DNs.
    static func sort(_ items: [Item], keys: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<LDAPEntry>) -> [Item] {
        func key(_ item: Item) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: keys[Int(item.keyStart)..<Int(item.keyEnd)])
        }
        var items = sortedOnIntegers(items)
        items.withUnsafeMutableBufferPointer { items in
            // Runs with equal integers, by whole key; the runs of equal keys left are noted.
            var alike: [Range<Int>] = []
            var runStart = 0
            while runStart < items.count {
                var runEnd = runStart + 1
                while runEnd < items.count && items[runEnd].head == items[runStart].head
                    && items[runEnd].tail == items[runStart].tail { runEnd += 1 }
                if runEnd - runStart > 1 {
                    var run = UnsafeMutableBufferPointer(rebasing: items[runStart..<runEnd])
                    run.sort { lhs, rhs in
                        let order = compareBytes(key(lhs), key(rhs))
                        return order != 0 ? order < 0 : lhs.entry < rhs.entry
                    }
                    var start = runStart
                    while start < runEnd {
                        var end = start + 1
                        while end < runEnd && compareBytes(key(items[end]), key(items[start])) == 0 { end += 1 }
                        if end - start > 1 { alike.append(start..<end) }
                        start = end
                    }
                }
                runStart = runEnd
            }
            guard !alike.isEmpty else { return }
            // The first RDN of everyone in those runs, read as scoring reads names.
            var positions: [Int] = []
            for run in alike { positions += run }
            let firsts = firstRDNs(of: positions.map { Int(items[$0].entry) }, in: entries)
            var offset = 0
            for run in alike {
                orderByDN(UnsafeMutableBufferPointer(rebasing: items[run]), firsts: firsts[offset..<offset + run.count],
                          entries: entries)
                offset += run.count
            }
        }
        return items
    }

    /// The bytes of the first RDN of each of `people` (positions in `entries`), empty for
    /// the root. The DNs are read sixteen at a time, a link of the chain (RDNs, their
    /// attributes, the value) for all sixteen before the next, so that cache misses overlap.
    private static func firstRDNs(of people: [Int], in entries: UnsafeBufferPointer<LDAPEntry>) -> [[UInt8]] {
        var firsts: [[UInt8]] = []
        firsts.reserveCapacity(people.count)
        var touched = 0
        var blockStart = 0
        while blockStart < people.count {
            let block = people[blockStart..<min(blockStart + 16, people.count)]
            for person in block { touched &+= entries[person].dn.rdns.count }
            for person in block {
                entries[person].dn.rdns.withUnsafeBufferPointer { rdns in
                    if !rdns.isEmpty { touched &+= rdns[0].attributes.count }
                }
            }
            for person in block {
                entries[person].dn.rdns.withUnsafeBufferPointer { rdns in
                    if !rdns.isEmpty {
                        rdns[0].attributes.withUnsafeBufferPointer { pairs in
                            for pair in pairs { touched &+= pair.value.count }
                        }
                    }
                }
            }
            for person in block {
                firsts.append(entries[person].dn.rdns.withUnsafeBufferPointer { rdns in rdns.isEmpty ? [] : rdns[0].utf8 })
            }
            blockStart += block.count
        }
        keepReadAhead(touched)
        return firsts
    }

    /// Orders a run of items with equal keys, in input order, by DN, then position in the
    /// input; `firsts` are the bytes of their first RDNs.
    private static func orderByDN(_ run: UnsafeMutableBufferPointer<Item>, firsts: ArraySlice<[UInt8]>,
                                  entries: UnsafeBufferPointer<LDAPEntry>) {
        let alike = Array(run)
        let firsts = Array(firsts)
        // Where two first RDNs differ before either ends, so do the whole DNs. Only other
        // pairs need the whole DNs' bytes.
        var wholes = [[UInt8]?](repeating: nil, count: alike.count)
        func whole(_ index: Int) -> [UInt8] {
            if let known = wholes[index] { return known }
            let bytes = entries[Int(alike[index].entry)].dn.utf8
            wholes[index] = bytes
            return bytes
        }
        let order = alike.indices.sorted { lhs, rhs in
            var order = compareCommonBytes(firsts[lhs], firsts[rhs])
            if order == 0 { order = compareBytes(whole(lhs), whole(rhs)) }
            return order != 0 ? order < 0 : alike[lhs].entry < alike[rhs].entry
        }
        for (offset, index) in order.enumerated() { run[offset] = alike[index] }
    }

    /// Below this many items, a comparison sort beats the radix sort, whose 2 MB of
    /// counters cost more to clear than a few thousand items cost to compare.
    static let radixSortThreshold = 8_192

    /// `items`, which are in input order, sorted on `head` then `tail`, stably: by
    /// ``radixSorted(_:)`` when there are many, otherwise by ``comparisonSorted(_:)``.
    static func sortedOnIntegers(_ items: [Item]) -> [Item] {
        items.count < radixSortThreshold ? comparisonSorted(items) : radixSorted(items)
    }

    /// `items`, which are in input order, sorted on `head` then `tail`, stably: equal
    /// integers are left in input order by comparing positions last.
    static func comparisonSorted(_ items: [Item]) -> [Item] {
        var items = items
        items.withUnsafeMutableBufferPointer { items in
            items.sort { lhs, rhs in
                if lhs.head != rhs.head { return lhs.head < rhs.head }
                if lhs.tail != rhs.tail { return lhs.tail < rhs.tail }
                return lhs.entry < rhs.entry
            }
        }
        return items
    }

    /// `items` sorted on `head` then `tail`, stably: a least-significant-digit radix sort
    /// on sixteen bits at a time, which skips the digits all items share.
    static func radixSorted(_ items: [Item]) -> [Item] {
        let count = items.count
        guard count > 1 else { return items }
        let digits = 8
        var counts = [UInt32](repeating: 0, count: digits << 16)
        func digit(_ item: Item, _ number: Int) -> Int {
            Int(truncatingIfNeeded: (number < 4 ? item.tail >> (16 * number) : item.head >> (16 * (number - 4))) & 0xFFFF)
        }
        items.withUnsafeBufferPointer { items in
            counts.withUnsafeMutableBufferPointer { counts in
                for item in items {
                    counts[Int(truncatingIfNeeded: item.tail & 0xFFFF)] += 1
                    counts[1 << 16 | Int(truncatingIfNeeded: (item.tail >> 16) & 0xFFFF)] += 1
                    counts[2 << 16 | Int(truncatingIfNeeded: (item.tail >> 32) & 0xFFFF)] += 1
                    counts[3 << 16 | Int(truncatingIfNeeded: item.tail >> 48)] += 1
                    counts[4 << 16 | Int(truncatingIfNeeded: item.head & 0xFFFF)] += 1
                    counts[5 << 16 | Int(truncatingIfNeeded: (item.head >> 16) & 0xFFFF)] += 1
                    counts[6 << 16 | Int(truncatingIfNeeded: (item.head >> 32) & 0xFFFF)] += 1
                    counts[7 << 16 | Int(truncatingIfNeeded: item.head >> 48)] += 1
                }
            }
        }
        var source = items
        var target = items
        counts.withUnsafeMutableBufferPointer { counts in
            for number in 0..<digits {
                let base = number << 16
                // A digit every item shares leaves the order as it is.
                if Int(counts[base + digit(source[0], number)]) == count { continue }
                var sum: UInt32 = 0
                for bucket in base..<base + (1 << 16) {
                    let inBucket = counts[bucket]
                    counts[bucket] = sum
                    sum += inBucket
                }
                source.withUnsafeBufferPointer { source in
                    target.withUnsafeMutableBufferPointer { target in
                        for item in source {
                            let bucket = base + digit(item, number)
                            target[Int(counts[bucket])] = item
                            counts[bucket] += 1
                        }
                    }
                }
                swap(&source, &target)
            }
        }
        return source
    }

    /// Appends the smallest of the values of `names`, lower-cased, and a zero byte to `keys`, and
    /// sets `strengths` to how each token matches the best of them: 0 none, 1 prefix,
    /// 2 exact. Each name is read once for both; `scratch` and `folded` are scratch space.
    private static func appendKey(_ names: UnsafePointer<LDAPAttribute>?, tokens: [[UInt8]], cache: inout NameCache,
                                  strengths: inout [Int], keys: inout [UInt8], scratch: inout [UInt8],
                                  folded: inout [UInt8]) {
        for index in strengths.indices { strengths[index] = 0 }
        if let names {
            names.pointee.values.withUnsafeBufferPointer { names in
                if names.count == 1 {
                    names[0].withUnsafeBufferPointer { name in
                        read(name, tokens: tokens, cache: &cache, strengths: &strengths, lowered: &keys, folded: &folded)
                    }
                } else {
                    var smallest: [UInt8]?
                    for name in names {
                        scratch.removeAll(keepingCapacity: true)
                        name.withUnsafeBufferPointer { name in
                            read(name, tokens: tokens, cache: &cache, strengths: &strengths, lowered: &scratch, folded: &folded)
                        }
                        if smallest.map({ compareBytes(scratch, $0) < 0 }) ?? true { smallest = scratch }
                    }
                    keys += smallest ?? []
                }
            }
        }
        keys.append(0)
    }

    /// Raises `strengths` to how each of `tokens` matches `name`, and appends the name
    /// lower-cased to `lowered`.
    /// `folded` is scratch space for the fold of a name beyond ASCII.
    private static func read(_ name: UnsafeBufferPointer<UInt8>, tokens: [[UInt8]], cache: inout NameCache,
                             strengths: inout [Int], lowered: inout [UInt8], folded: inout [UInt8]) {
        // The bytes are copied, then lowered in place, noting any beyond ASCII.
        let start = lowered.count
        lowered.append(contentsOf: name)
        let isASCII = lowered.withUnsafeMutableBufferPointer { lowered in
            var all: UInt8 = 0
            for index in start..<lowered.count {
                let byte = lowered[index]
                all |= byte
                lowered[index] = byte &- 0x41 < 26 ? byte + 0x20 : byte
            }
            return all < 0x80
        }
        if isASCII {
            tokens.withUnsafeBufferPointer { tokens in
                for index in tokens.indices where strengths[index] < 2 {
                    let strength = tokens[index].withUnsafeBufferPointer { NameScore.strength(of: $0, inASCII: name) }
                    if strength > strengths[index] { strengths[index] = strength }
                }
            }
            return
        }
        lowered.removeSubrange(start...)
        folded.removeAll(keepingCapacity: true)
        cache.append(name, folded: &folded, lowered: &lowered)
        for (index, token) in tokens.enumerated() where strengths[index] < 2 {
            let strength = folded == token ? 2 : folded.starts(with: token) ? 1 : 0
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

/// Takes the sum of reads made only to bring memory into the cache ahead of its use, so
/// that the optimizer cannot leave them out as unused.
@_optimize(none) @inline(never)
func keepReadAhead(_ sum: Int) {}
