import LDAPKit

extension AddressBook {
    /// What the first step of importing one person found.
    enum PreparedImport: Sendable {
        /// The person was there already: what was done to them.
        case done(ImportOutcome)
        /// The person is new and becomes this entry.
        case add(LDAPEntry)
    }

    /// How a transaction of new people ended.
    enum TransactionEnd: Sendable {
        /// Everyone in it was added.
        case committed
        /// No one in it was added. `transactionsUnusable` when the server cannot run
        /// transactions here at all, so that the rest of the import goes without.
        case notMade(transactionsUnusable: Bool)
        /// The reply to the commit was lost: it may or may not have been made.
        case unknown
    }

    /// Finds whether `newPerson` is there already (and adds what they lack), or else the
    /// entry they become, without adding it.
    func prepareImport(_ newPerson: NewPerson) async throws -> PreparedImport {
        if let existing = try await existingPerson(like: newPerson) {
            return .done(try await importValues(of: newPerson, into: existing, dryRun: false))
        }
        return .add(try await entry(for: newPerson))
    }

    /// Imports `people` in batches of at most `transactionSize` who cannot be the same
    /// person, adding each batch's new people in one transaction.
    func importInTransactions(_ people: [(index: Int, person: NewPerson)], window: Int, transactionSize: Int,
                              ledger: ImportLedger) async throws {
        var usesTransactions = true
        var batch: [(index: Int, person: NewPerson)] = []
        var batchKeys: Set<String> = []
        for item in people {
            let keys = Self.identityKeys(of: item.person)
            // Someone who could be the same as a person in this batch waits for the next one,
            // so that its duplicate search finds them.
            if batch.count >= transactionSize || !batchKeys.isDisjoint(with: keys) {
                try await importBatch(batch, window: window, usesTransactions: &usesTransactions, ledger: ledger)
                batch.removeAll(keepingCapacity: true)
                batchKeys.removeAll(keepingCapacity: true)
            }
            batch.append(item)
            batchKeys.formUnion(keys)
        }
        try await importBatch(batch, window: window, usesTransactions: &usesTransactions, ledger: ledger)
    }

    /// Imports one batch of people no two of whom could be the same: finds and updates
    /// those who are there already, then adds the new ones in one transaction.
    private func importBatch(_ batch: [(index: Int, person: NewPerson)], window: Int, usesTransactions: inout Bool,
                             ledger: ImportLedger) async throws {
        guard !batch.isEmpty else { return }
        guard usesTransactions else {
            try await importIndividually(batch, dryRun: false, window: window, ledger: ledger)
            return
        }
        var newPeople: [(index: Int, person: NewPerson, entry: LDAPEntry)] = []
        try await withThrowingTaskGroup(of: (Int, Result<PreparedImport, any Error>).self) { group in
            func record(_ prepared: (Int, Result<PreparedImport, any Error>)) {
                let (index, person) = batch[prepared.0]
                switch prepared.1 {
                case .success(.done(let outcome)): ledger.finish(index, .success(outcome))
                case .success(.add(let entry)): newPeople.append((index, person, entry))
                case .failure(let error): ledger.finish(index, .failure(error))
                }
            }
            for (position, item) in batch.enumerated() {
                if position >= max(window, 1), let prepared = try await group.next() { record(prepared) }
                group.addTask { (position, try await Self.personalOutcome { try await self.prepareImport(item.person) }) }
            }
            while let prepared = try await group.next() { record(prepared) }
        }
        newPeople.sort { $0.index < $1.index }

        if newPeople.count == 1, let only = newPeople.first {
            // Added on its own, under the name its entry was given.
            ledger.finish(only.index, try await Self.personalOutcome {
                .added(try await self.add(only.person, firstName: only.entry.dn.rdn).dn)
            })
            return
        }
        if newPeople.isEmpty { return }
        try await preparePeopleBase()
        let again: [(index: Int, person: NewPerson)]
        switch try await addInTransaction(newPeople.map(\.entry)) {
        case .committed:
            for added in newPeople { ledger.finish(added.index, .success(.added(added.entry.dn))) }
            return
        case .notMade(let transactionsUnusable):
            // Nothing was made: each person is imported again on their own, with their own outcome.
            if transactionsUnusable { usesTransactions = false }
            again = newPeople.map { ($0.index, $0.person) }
        case .unknown:
            // Read everyone back: the transaction was made all or none, but someone may
            // have changed an entry since. Whoever is not there as sent is imported again,
            // which finds them if they are there after all.
            var missing: [(index: Int, person: NewPerson)] = []
            for sent in newPeople {
                let found: LDAPEntry?
                do {
                    found = try await connection.read(sent.entry.dn, attributes: sent.entry.attributes.map(\.name))
                } catch var error as LDAPError {
                    error.message = [error.message, "the reply to a transaction adding \(newPeople.count) people was lost, "
                                     + "and whether they were added could not be checked"]
                        .filter { !$0.isEmpty }.joined(separator: "; ")
                    throw error
                }
                if let found, found.hasEveryValue(of: sent.entry) {
                    ledger.finish(sent.index, .success(.added(sent.entry.dn)))
                } else {
                    missing.append((sent.index, sent.person))
                }
            }
            again = missing
        }
        try await importIndividually(again, dryRun: false, window: window, ledger: ledger)
    }

    /// Adds `entries` in one transaction.
    func addInTransaction(_ entries: [LDAPEntry]) async throws -> TransactionEnd {
        let transaction: LDAPTransaction
        do {
            transaction = try await connection.startTransaction()
        } catch let error as LDAPError {
            // A server that answers no to a transaction will answer no again.
            return .notMade(transactionsUnusable: !error.isServerDown && !error.leavesWriteUnknown)
        }
        do {
            // One at a time: the server only queues each add, so its reply comes at once, and
            // OpenLDAP 2.5 crashes when a connection sends the updates of a transaction while
            // others of it are still being queued (seen with 2.5.13; python-ldap does the same).
            for entry in entries {
                try await connection.add(entry, controls: [transaction.control])
            }
        } catch let error as LDAPError {
            // Nothing is made before the commit. The server refuses an update in a
            // transaction at once only when it cannot put it in one (or the update is
            // malformed, which the person's own import reports).
            try? await connection.abort(transaction)
            let cannot: Set<LDAPResultCode> = [.unwillingToPerform, .unavailableCriticalExtension, .protocolError,
                                               .affectsMultipleDSAs]
            return .notMade(transactionsUnusable: cannot.contains(error.code))
        }
        do {
            try await connection.commit(transaction)
            return .committed
        } catch let error as LDAPError where error.leavesWriteUnknown {
            return .unknown
        } catch is LDAPError {
            return .notMade(transactionsUnusable: false)
        }
    }

    /// Creates the people base when it is missing and that is allowed, so that the adds of
    /// a transaction find it.
    func preparePeopleBase() async throws {
        guard configuration.createsPeopleBase else { return }
        let base = try peopleBase()
        if try await connection.read(base, attributes: ["1.1"]) == nil {
            try await createPeopleBase(base)
        }
    }
}
