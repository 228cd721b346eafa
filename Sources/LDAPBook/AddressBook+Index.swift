import Foundation
import LDAPKit
import Synchronization

/// What an address book did with its index.
struct IndexState: Sendable {
    /// Whether it brought the index up to date (or found it current enough) since it last wrote.
    var checked = false
    /// Whether it brought the index up to date itself since it last wrote, rather than finding it
    /// current enough.
    var synced = false
    /// Whether that failed and an older index served.
    var servedStale = false
    /// Why the index cannot be used, once that is known.
    var unusable: String?
}

extension AddressBook {
    /// The index lookups use, brought up to date first when it is older than
    /// ``Configuration/indexMaxAge`` (once per address book); `nil` when there is none, it
    /// cannot stand for the directory (``PeopleIndex/incompleteness()``), or it cannot be
    /// read, and then the server is searched.
    ///
    /// A server that cannot be reached leaves an index made before in use, with a note.
    func usableIndex() async throws -> PeopleIndex? {
        guard let index = configuration.index, let base = connection.defaultBase else { return nil }
        let state = indexState.withLock { $0 }
        if state.unusable != nil { return nil }
        if state.checked { return index }
        do {
            let synced = try index.syncedAt()
            let age = synced.map { Date().timeIntervalSince($0) } ?? .infinity
            let incomplete = try index.incompleteness() != nil
            if synced == nil || incomplete || age > configuration.indexMaxAge {
                do {
                    try await syncIndex(index, base: base, first: synced == nil, waiting: false)
                } catch is PeopleIndex.SyncUnderWay {
                    // Another ldapbook is bringing it up to date: an index being made stands for
                    // nobody yet, and the server answers meanwhile; one being brought up to
                    // date serves as it is.
                    if synced == nil || incomplete {
                        configuration.notes?("another ldapbook is making the local index; searching the server meanwhile")
                        indexState.withLock { $0.unusable = "another ldapbook is making it" }
                        return nil
                    }
                }
            }
        } catch let error as LDAPError where (try? index.syncedAt()) != nil && (try? index.incompleteness()) == nil
            && [.serverDown, .timeout, .unavailable, .busy, .connectError].contains(error.code) {
            configuration.notes?("the directory did not answer (\(error.message)); the local index of "
                + "\(Self.age(of: index)) serves instead")
            indexState.withLock { $0.servedStale = true }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .adminLimitExceeded {
            let reason = (try? index.incompleteness()) ?? "the server's size limit stopped the reading of everyone"
            configuration.notes?("the local index is not used: \(reason); searching the server instead")
            indexState.withLock { $0.unusable = reason }
            return nil
        } catch let error as LDAPError {
            throw error
        } catch {
            configuration.notes?("the local index cannot be used (\(error)); searching the server instead")
            indexState.withLock { $0.unusable = "\(error)" }
            return nil
        }
        indexState.withLock { $0.checked = true }
        return index
    }

    /// Brings the local index up to date now, whatever its age (`ldapbook sync`): what changed,
    /// or everyone again when `full`.
    ///
    /// - Throws: ``AddressBookError`` (`indexUnavailable`) when the address book has no index.
    @discardableResult
    public func updateIndex(full: Bool = false) async throws -> PeopleIndex.SyncOutcome {
        guard let index = configuration.index, let base = connection.defaultBase else {
            throw AddressBookError(.indexUnavailable, "there is no local index of people (it is turned off, or no base is known)")
        }
        return try await syncIndex(index, base: base, first: false, full: full)
    }

    /// Brings `index` up to date now, whatever its age, and says so when it was made anew.
    @discardableResult
    func syncIndex(_ index: PeopleIndex, base: DistinguishedName, first: Bool, full: Bool = false, waiting: Bool = true) async throws
        -> PeopleIndex.SyncOutcome
    {
        let report = configuration.indexProgress
        let read = Mutex(0)
        defer { report?(read.withLock { $0 }, true) }
        var progress: (@Sendable (Int) -> Void)?
        if let report {
            progress = { count in
                read.withLock { $0 = count }
                report(count, false)
            }
        }
        let outcome: PeopleIndex.SyncOutcome
        do {
            outcome = try await index.sync(connection, base: base, full: full, waiting: false, progress: progress)
        } catch let busy as PeopleIndex.SyncUnderWay {
            guard waiting else { throw busy }
            // Said once, so that a wait for another ldapbook (or one stopped) is not silent.
            configuration.notes?("waiting for another ldapbook to finish bringing the local index up to date")
            outcome = try await index.sync(connection, base: base, full: full, waiting: true, progress: progress)
        }
        if first { configuration.notes?("made the local index of \(outcome.people == 1 ? "1 person" : "\(outcome.people) people") (\(index.path))") }
        indexState.withLock {
            $0.checked = true
            $0.synced = true
            $0.servedStale = false
            $0.unusable = nil
        }
        return outcome
    }

    /// Brings the index up to date now, if there is one and this address book has not yet
    /// done so since it last wrote: before a miss is taken for nobody (so that nobody is
    /// added twice because the index had not heard of them yet). Returns whether it did.
    ///
    /// - Throws: ``PeopleIndex/SyncUnderWay`` when another sync is bringing the index up to
    ///   date: a lookup never waits for one (whose process may be stopped); the caller asks
    ///   the server instead.
    @discardableResult
    public func refreshIndexBeforeConcluding() async throws -> Bool {
        guard let index = configuration.index, let base = connection.defaultBase,
              indexState.withLock({ $0.unusable == nil && !$0.synced }) else { return false }
        try await syncIndex(index, base: base, first: false, waiting: false)
        return true
    }

    /// Marks the index out of date after a write, so that the next lookup asks the server.
    func markIndexStale() {
        guard let index = configuration.index else { return }
        index.markStale()
        indexState.withLock {
            $0.checked = false
            $0.synced = false
        }
    }

    /// The people of the index `matcher` may mean, as the index keeps them, with `fields`
    /// read from the server where the index does not hold them (one search a hundred people).
    func indexedPeople(_ index: PeopleIndex, matcher: NameMatcher, fields: [Field]) async throws -> [Person] {
        var entries = try index.candidates(for: matcher)
        let missing = fields.map(\.attribute).filter { !PersonRecord.holds($0) } + (fields.contains(where: \.needsLDAPBookClass) ? ["objectClass"] : [])
        guard !missing.isEmpty, !entries.isEmpty else { return entries.map(Person.init) }
        // Only the people who match at all are worth a question to the server.
        let folding = NameFolding()
        entries = entries.filter { matcher.score(Person(entry: $0), using: folding).matchedWords > 0 }
        var read: [String: LDAPEntry] = [:]
        for start in stride(from: 0, to: entries.count, by: 100) {
            let batch = entries[start..<min(start + 100, entries.count)]
            let filter = LDAPFilter.or(batch.compactMap { $0.string("entryUUID").map { .equal("entryUUID", LDAPValue($0)) } })
            for try await entry in connection.search(filter: filter, attributes: missing + ["entryUUID"], pageSize: 0) {
                if let uuid = entry.string("entryUUID") { read[uuid.lowercased()] = entry }
            }
        }
        // People of a server without entryUUID, one read each.
        var readByDN: [String: LDAPEntry] = [:]
        for entry in entries where entry.string("entryUUID") == nil {
            if let found = try await connection.read(entry.dn, attributes: missing) { readByDN[entry.dn.string] = found }
        }
        return entries.map { entry in
            var merged = entry
            if let found = entry.string("entryUUID").flatMap({ read[$0.lowercased()] }) ?? readByDN[entry.dn.string] {
                for attribute in found.attributes where !attribute.isNamed("entryUUID") { merged[attribute.name] = attribute.values }
            }
            return Person(entry: merged)
        }
    }

    /// How old the index is, in words: "2 minutes ago".
    static func age(of index: PeopleIndex) -> String {
        guard let synced = try? index.syncedAt(), synced.timeIntervalSince1970 > 0 else { return "unknown age" }
        return "\(PeopleIndex.describe(age: Date().timeIntervalSince(synced))) ago"
    }
}

extension PeopleIndex {
    /// An age in words: "40 seconds", "3 minutes", "2 hours", "5 days".
    public static func describe(age seconds: TimeInterval) -> String {
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        switch max(seconds, 0) {
        case ..<120: return unit(Int(seconds), "second")
        case ..<7200: return unit(Int(seconds / 60), "minute")
        case ..<172_800: return unit(Int(seconds / 3600), "hour")
        default: return unit(Int(seconds / 86400), "day")
        }
    }
}

extension AddressBook {
    /// `person` as the server has them now, with `fields`: what a write goes by. A person
    /// found in the local index carries their `entryUUID`; when the entry at their DN is
    /// gone or is someone else (the index had not heard of a deletion or a rename), nothing
    /// is written and the index is marked out of date.
    ///
    /// - Throws: ``AddressBookError`` (`changedMeanwhile`) when the entry is not that person.
    public func confirmed(_ person: Person, fields: [Field] = []) async throws -> Person {
        let attributes = Person.attributes(for: fields) + ["entryUUID"]
        let expected = person.entry.string("entryUUID")?.lowercased()
        guard let entry = try await connection.read(person.dn, attributes: attributes) else {
            markIndexStale()
            throw AddressBookError(.changedMeanwhile, "\(person.displayName) (\(person.dn)) is no longer in the directory; "
                + "nothing was written (look again)")
        }
        if let expected, entry.string("entryUUID")?.lowercased() != expected {
            markIndexStale()
            throw AddressBookError(.changedMeanwhile, "\(person.dn) is someone else now than \(person.displayName); "
                + "nothing was written (look again)")
        }
        var current = entry
        current["entryUUID"] = []
        return Person(entry: current)
    }

    /// The people who hold `value` in `field` already (at most `limit`), by the server's own
    /// matching of the attribute: before a new person is given it.
    public func holders(of value: LDAPValue, in field: Field, limit: Int = 10) async throws -> [Person] {
        guard !field.kind.isBinary, !value.isEmpty else { return [] }
        var people: [Person] = []
        do {
            for try await entry in connection.search(filter: .and([.equal("objectClass", "person"), field.equalityFilter(value)]),
                                                     attributes: Person.nameAttributes + [field.attribute],
                                                     sizeLimit: limit, pageSize: 0) {
                people.append(Person(entry: entry))
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .noSuchObject
            || error.code == .inappropriateMatching {
            return people
        }
        return people
    }
}
