import LDAPKit

/// What importing one person did.
public enum ImportOutcome: Sendable, Hashable {
    /// A new entry was added.
    case added(DistinguishedName)
    /// Missing values were added to an existing person.
    case updated(DistinguishedName)
    /// The person was already there with every value.
    case unchanged(DistinguishedName)
}

extension AddressBook {
    /// The existing person a new one would duplicate: one with any of the
    /// same email addresses, or else with the same first and last name.
    public func existingPerson(like newPerson: NewPerson) async throws -> Person? {
        let fields = newPerson.values.map(\.field)
        let emails = newPerson.values.filter { $0.field.attribute.equalsIgnoringCase("mail") }.flatMap(\.values)
        if !emails.isEmpty {
            let filter = LDAPFilter.or(emails.map { .equal("mail", $0) })
            if let entry = try await firstEntries(filter, limit: 1).first {
                return try await person(at: entry.dn, fields: fields)
            }
        }
        var name: [LDAPFilter] = [.equal("objectClass", "inetOrgPerson"), .equal("sn", LDAPValue(newPerson.surname))]
        if let given = newPerson.givenName, !given.isEmpty { name.append(.equal("givenName", LDAPValue(given))) }
        let matches = try await firstEntries(.and(name), limit: 2)
        guard matches.count == 1 else { return nil }
        return try await person(at: matches[0].dn, fields: fields)
    }

    /// The DNs of at most `limit` entries matching `filter`. More matches than that are
    /// not an error: the server's "size limit exceeded" ends the search with the entries
    /// it sent.
    private func firstEntries(_ filter: LDAPFilter, limit: Int) async throws -> [LDAPEntry] {
        var entries: [LDAPEntry] = []
        do {
            for try await entry in connection.search(filter: filter, attributes: ["1.1"], sizeLimit: limit, pageSize: 0) {
                entries.append(entry)
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded {
            return entries
        }
        return entries
    }

    /// Imports one person: adds the values an existing person (same email,
    /// or same name) lacks, or adds a new entry. With `dryRun`, reports what
    /// would happen and writes nothing.
    public func importPerson(_ newPerson: NewPerson, dryRun: Bool = false) async throws -> ImportOutcome {
        if let existing = try await existingPerson(like: newPerson) {
            return try await importValues(of: newPerson, into: existing, dryRun: dryRun)
        }
        if dryRun {
            return .added(try await entry(for: newPerson).dn)
        }
        return .added(try await add(newPerson).dn)
    }

    /// Adds the values of `newPerson` that `existing` lacks.
    func importValues(of newPerson: NewPerson, into existing: Person, dryRun: Bool) async throws -> ImportOutcome {
        // A single-valued field, or one whose values the directory cannot compare, such as
        // the photo (it refuses a second value beside one it cannot tell apart), is only
        // filled in when empty: the value someone already stored is kept.
        let change = PersonChange(adding: newPerson.values.filter { value in
            (!value.field.isSingleValued && value.field.comparesValues) || existing.values(of: value.field).isEmpty
        })
        let modifications = try modifications(for: change, of: existing)
        if modifications.isEmpty { return .unchanged(existing.dn) }
        if !dryRun { try await update(existing, with: change) }
        return .updated(existing.dn)
    }
}

extension AddressBook {
    /// Imports many people with up to `window` of them in progress at once, so that the
    /// round trips of each (the duplicate search, the name search, the add) overlap with
    /// the others' instead of adding up.
    ///
    /// People who could be the same person (a shared email address, or the same first and
    /// last name) or who would compete for the same generated uid are never in progress
    /// together: the later one starts after the earlier one is done, so it finds it, and
    /// importing a list twice adds nothing the second time. Results come back in the order
    /// of `people`.
    ///
    /// When the server supports transactions (RFC 5805), new people are added up to
    /// `transactionSize` at a time in one transaction, which the server writes to disk
    /// once instead of once per person. When a transaction fails (one of its people is
    /// refused, or someone else took a name meanwhile), none of it was made, and its
    /// people are imported again one by one, each with its own outcome. When the reply to
    /// a commit is lost, each person is read back: one who is there counts as added, and
    /// one who is not is imported again, so no one is added twice.
    ///
    /// - Parameters:
    ///   - people: the people to import.
    ///   - dryRun: report what would happen and write nothing.
    ///   - window: the most people in progress at once; 1 imports one after another.
    ///   - transactionSize: the most new people added in one transaction; 1 sends every
    ///     add on its own.
    ///   - progress: called with the number of people done so far, after each one.
    /// - Returns: each person's outcome, or the error that rejected that person alone.
    /// - Throws: ``LDAPKit/LDAPError`` when the server is down or refuses access, which would
    ///   fail every other person too; people already imported stay imported.
    public func importPeople(
        _ people: [NewPerson],
        dryRun: Bool = false,
        window: Int = 16,
        transactionSize: Int = 100,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> [Result<ImportOutcome, any Error>] {
        let ledger = ImportLedger(count: people.count, progress: progress)
        var waiting: [(index: Int, person: NewPerson)] = []
        for (index, person) in people.enumerated() {
            // A name too long to be one is refused before it is worked on.
            do {
                try Self.checkNameLengths(of: person)
                waiting.append((index, person))
            } catch {
                ledger.finish(index, .failure(error))
            }
        }
        let transactions = !dryRun && transactionSize > 1 && waiting.count > 1 ? try await serverFacts().supportsTransactions : false
        if transactions {
            try await importInTransactions(waiting, window: window, transactionSize: transactionSize, ledger: ledger)
        } else {
            try await importIndividually(waiting, dryRun: dryRun, window: window, ledger: ledger)
        }
        return ledger.results.map { $0 ?? .failure(CancellationError()) }
    }

    /// Imports `people` through ``importPerson(_:dryRun:)``, up to `window` at once, never two
    /// who could be the same person together.
    func importIndividually(_ people: [(index: Int, person: NewPerson)], dryRun: Bool, window: Int,
                            ledger: ImportLedger) async throws {
        try await withThrowingTaskGroup(of: (Int, Result<ImportOutcome, any Error>).self) { group in
            var running: [Int: Set<String>] = [:]
            func finish(_ finished: (Int, Result<ImportOutcome, any Error>)) {
                running[finished.0] = nil
                ledger.finish(finished.0, finished.1)
            }
            for (index, person) in people {
                let keys = Self.identityKeys(of: person)
                while running.count >= max(window, 1) || running.values.contains(where: { !$0.isDisjoint(with: keys) }) {
                    guard let finished = try await group.next() else { break }
                    finish(finished)
                }
                running[index] = keys
                group.addTask {
                    (index, try await Self.personalOutcome { try await self.importPerson(person, dryRun: dryRun) })
                }
            }
            while let finished = try await group.next() {
                finish(finished)
            }
        }
    }

    /// The outcome of one person's import, or the error that rejects that person alone.
    /// - Throws: what would fail every other person too: the server is down, or refuses access.
    static func personalOutcome<T>(_ work: () async throws -> T) async throws -> Result<T, any Error> {
        do {
            return .success(try await work())
        } catch let error as LDAPError where error.isServerDown || error.isInsufficientAccess {
            throw error
        } catch {
            return .failure(error)
        }
    }

    /// What makes two imported people possibly the same, or rivals for one uid: their
    /// email addresses, their first and last name, and their generated uid's base.
    static func identityKeys(of person: NewPerson) -> Set<String> {
        var keys: Set<String> = []
        for (field, values) in person.values where field.attribute.equalsIgnoringCase("mail") {
            for value in values { keys.insert("mail:" + value.lossyString.lowercased()) }
        }
        let given = person.givenName?.trimmingWhitespace().lowercased() ?? ""
        let surname = person.surname.trimmingWhitespace()
        keys.insert("name:" + given + "\u{0}" + surname.lowercased())
        keys.insert("uid:" + GeneratedUID.base(given: person.givenName, surname: surname))
        return keys
    }
}

/// The outcomes of an import as people finish, in the order they were given.
final class ImportLedger {
    private(set) var results: [Result<ImportOutcome, any Error>?]
    private var done = 0
    private let progress: (@Sendable (Int) -> Void)?

    init(count: Int, progress: (@Sendable (Int) -> Void)?) {
        results = Array(repeating: nil, count: count)
        self.progress = progress
    }

    /// Records the outcome of the person at `index`, and reports the progress.
    func finish(_ index: Int, _ result: Result<ImportOutcome, any Error>) {
        results[index] = result
        done += 1
        progress?(done)
    }
}
