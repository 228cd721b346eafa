import LDAPKit

extension ImportRun {
    /// One write of a batch: an entry to add, or values to add to one.
    struct Write: Sendable {
        /// The DN key of the entry.
        let key: String
        /// The entry as planned (for an add, what is sent).
        let entry: LDAPEntry
        /// The values to add, for an entry that exists; `nil` to add the entry.
        let additions: [LDAPModification]?
    }

    /// Makes the writes of `plan`: its containers, then each entry's write, up to the window
    /// in flight. A write that meets another writer's (the entry was added or filled in
    /// meanwhile, as by a second import of the same file) is planned again, record by
    /// record, from what the directory then holds; so is a write of several records that
    /// the server refused, so that the refusal falls on the record that caused it.
    ///
    /// - Throws: ``LDAPKit/LDAPError`` when the directory is unavailable or refuses access;
    ///   the records whose write was not made are left without an outcome.
    func write(_ plan: BatchPlan, replaying: Bool = false) async throws {
        for container in plan.containers {
            do {
                try await book.createPeopleBase(container)
            } catch let error as LDAPError where error.stopsImport {
                throw error
            } catch {
                // The adds below it fail, and say why.
            }
        }
        var writes: [Write] = []
        for key in plan.order {
            guard let write = plan.writes[key], let entry = memory.targets[key]?.planned else { continue }
            if let before = write.before {
                let additions = Self.additions(from: before, to: entry)
                if additions.isEmpty { continue }
                writes.append(Write(key: key, entry: entry, additions: additions))
            } else {
                writes.append(Write(key: key, entry: entry, additions: nil))
            }
        }
        // Records whose outcome needs no write (unchanged, or rejected while planning).
        let written = Set(writes.flatMap { plan.writes[$0.key]?.records ?? [] })
        for (index, outcome) in plan.outcomes.sorted(by: { $0.key < $1.key }) where !written.contains(index) {
            finish(index, outcome)
        }

        let book = self.book
        let facts = self.facts
        var again: [Int] = []
        var fatal: LDAPError?
        await withTaskGroup(of: (Write, (any Error)?).self) { group in
            var next = 0
            var running = 0
            func handle(_ write: Write, _ error: (any Error)?) {
                let indices = plan.writes[write.key]?.records ?? []
                guard let error else {
                    writeSucceeded = true
                    for index in indices { if let outcome = plan.outcomes[index] { finish(index, outcome) } }
                    return
                }
                if write.additions == nil { addedByRecord[write.key] = nil }
                if let error = error as? LDAPError, error.stopsImport {
                    if fatal == nil { fatal = error }
                    for index in indices {
                        finish(index, ImportOutcome(error.leavesWriteUnknown ? .unknown(error) : .refused(error), dn: write.entry.dn,
                                                    notes: plan.outcomes[index]?.notes ?? []))
                    }
                    return
                }
                if !replaying && (Self.isConflict(error) || indices.count > 1) {
                    again += indices
                } else {
                    for index in indices {
                        finish(index, ImportOutcome(.rejected(error), dn: write.entry.dn, notes: plan.outcomes[index]?.notes ?? []))
                    }
                }
            }
            while next < writes.count || running > 0 {
                // One write alone until one succeeds: a directory that refuses this import's
                // writes (access, a read-only replica) refuses one, not a window of them.
                let window = writeSucceeded ? max(options.window, 1) : 1
                if fatal == nil && next < writes.count && running < window {
                    let write = writes[next]
                    next += 1
                    running += 1
                    group.addTask { (write, await Self.send(write, book: book, facts: facts)) }
                    continue
                }
                guard let (write, error) = await group.next() else { break }
                running -= 1
                handle(write, error)
                if fatal != nil && running == 0 { break }
            }
        }
        if let fatal { throw fatal }
        for index in again.sorted() {
            try await replay(index)
        }
    }

    /// Imports the record at `index` alone, from what the directory holds now; what it plans
    /// then replaces what the batch had planned for the same entries.
    func replay(_ index: Int) async throws {
        var batchMemory = Memory()
        swap(&batchMemory, &memory)
        var plan = BatchPlan()
        defer {
            for key in plan.order { if let target = memory.targets[key] { batchMemory.update(key, target) } }
            swap(&batchMemory, &memory)
        }
        let dns = records[index].distinguishedName.map { [place($0)] } ?? []
        memory.absorb(try await lookup.fetch([index], dns: dns), addedBy: addedByRecord)
        do {
            try self.plan(index, into: &plan)
        } catch let error as LDAPError where error.stopsImport {
            throw error
        } catch {
            finish(index, ImportOutcome(.rejected(error)))
            return
        }
        try await planContainers(&plan)
        try await write(plan, replaying: true)
    }

    /// Sends one write, never blindly twice (see ``AddressBook/sendOnce(_:at:reading:description:check:)``).
    /// - Returns: the error that failed it, or `nil`.
    static func send(_ write: Write, book: AddressBook, facts: AddressBook.ServerFacts) async -> (any Error)? {
        let connection = book.connection
        let entry = write.entry
        do {
            guard let additions = write.additions else {
                _ = try await book.sendOnce({ try await connection.add(entry) }, at: entry.dn,
                                            reading: entry.attributes.map(\.name), description: "adding \(entry.dn)") { found in
                    guard let found else { return .notWritten }
                    return found.hasEveryValue(of: entry) ? .written : .changedMeanwhile
                }
                return nil
            }
            func check(_ changes: [LDAPModification]) -> (LDAPEntry?) -> WriteCheck {
                { found in
                    guard let found else { return .changedMeanwhile }
                    return changes.allSatisfy { found.has($0.values, of: $0.attribute) } ? .written : .notWritten
                }
            }
            let attributes = additions.map(\.attribute)
            if facts.supportsPermissiveModify {
                // Values someone else added meanwhile are no error.
                _ = try await book.sendOnce({ try await connection.modify(entry.dn, additions, controls: [.permissiveModify]) },
                                            at: entry.dn, reading: attributes, description: "adding values to \(entry.dn)",
                                            check: check(additions))
                return nil
            }
            for change in additions {
                for value in change.values {
                    let single = [LDAPModification(.add, change.attribute, values: [value])]
                    do {
                        _ = try await book.sendOnce({ try await connection.modify(entry.dn, single) }, at: entry.dn,
                                                    reading: attributes, description: "adding a value to \(entry.dn)",
                                                    check: check(single))
                    } catch let error as LDAPError where error.code == .attributeOrValueExists {
                        continue
                    }
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Whether `error` says another writer got there first: the entry exists, is gone, or
    /// holds a value meanwhile that a single-valued field cannot take beside another.
    static func isConflict(_ error: any Error) -> Bool {
        if let error = error as? AddressBookError { return error.code == .changedMeanwhile }
        guard let error = error as? LDAPError else { return false }
        return [.entryAlreadyExists, .noSuchObject, .attributeOrValueExists, .constraintViolation, .noSuchAttribute]
            .contains(error.code)
    }

    /// The value-level additions that turn `before` into `after` (which only ever gains values).
    static func additions(from before: LDAPEntry, to after: LDAPEntry) -> [LDAPModification] {
        var changes: [LDAPModification] = []
        for attribute in after.attributes {
            let present = before[attribute.name]
            let new = attribute.values.filter { !present.contains($0) }
            guard !new.isEmpty else { continue }
            let change = LDAPModification(.add, attribute.name, values: new)
            // The class first, so that the values it allows come after it.
            if attribute.name.equalsIgnoringCase("objectClass") {
                changes.insert(change, at: 0)
            } else {
                changes.append(change)
            }
        }
        return changes
    }
}
