import LDAPKit

extension AddressBook {
    /// Imports people read from files (``ImportRecord``), deciding who is who by
    /// identifiers, never by name alone:
    ///
    /// 1. An LDIF record's DN is the person: the entry is created under it (with its
    ///    `uid`), or, when it exists, given what it lacks. A DN outside the directory's base
    ///    keeps its RDN under the people base.
    /// 2. A card's `UID` is the person: the entry whose `entryUUID` it names
    ///    (`urn:uuid:…`, as ldapbook's export writes it), the one that keeps it as its card
    ///    UID, or the one whose DN it is (``VCardIdentity``).
    /// 3. Otherwise a shared email address is the same person, unless another identifier
    ///    tells them apart (a different card UID, a different employee number).
    /// 4. A name alone never merges two people. Someone with the same first and last name
    ///    who already holds every value the file gives is that person (nothing is
    ///    written); with ``ImportOptions/mergesByName``, the one such namesake gets what
    ///    they lack; otherwise the person is added and the namesakes are reported as
    ///    possible duplicates. Namesakes whose email addresses differ are different people.
    ///
    /// Existing people only gain what they lack: values of multi-valued fields they do
    /// not have; a single-valued field, a name or a photo only when they have none (the
    /// stored one is kept, and reported). Nothing is replaced or removed. Records in the
    /// files that are the same person are combined into one write.
    ///
    /// The directory is read in batches of ``ImportOptions/batchSize`` people (one search
    /// for their identifiers), and the writes of a batch go out with up to
    /// ``ImportOptions/window`` in flight on the one connection. No transactions: Debian
    /// 12's slapd (2.5.13) crashes under concurrent ones. Two imports of the same files at
    /// once add everyone once: a write that meets the other's is planned again from what
    /// the directory then holds.
    ///
    /// When the directory is unavailable (down, hung past the timeout, busy) or refuses
    /// access, the import stops: no further write is started, and the result says why and
    /// who was not tried. Importing the same files again finishes the job without adding
    /// anyone twice. A dry run plans the same way and writes nothing.
    public func importPeople(_ records: [ImportRecord], options: ImportOptions = ImportOptions(),
                             progress: (@Sendable (Int) -> Void)? = nil) async -> ImportResult {
        let facts: ServerFacts
        do {
            facts = try await serverFacts()
        } catch {
            let stop = error as? LDAPError ?? LDAPError(.other, message: "\(error)", operation: "search")
            return ImportResult(outcomes: records.map { _ in ImportOutcome(.notTried) }, containers: [], stoppedBy: stop,
                                keepsCardUIDs: false)
        }
        let run = ImportRun(book: self, records: records, options: options, facts: facts, progress: progress)
        return await run.run()
    }
}

/// One import: the plan of each batch, then its writes (see
/// ``AddressBook/importPeople(_:options:progress:)``).
final class ImportRun {
    let book: AddressBook
    let records: [ImportRecord]
    let options: ImportOptions
    let facts: AddressBook.ServerFacts
    let progress: (@Sendable (Int) -> Void)?
    var connection: LDAPConnection { book.connection }
    var registry: FieldRegistry { facts.registry }
    /// Whether the directory can keep card UIDs (in a custom field).
    let keepsCardUIDs: Bool

    var outcomes: [ImportOutcome?]
    /// What this import knows of the directory: the entries it read or plans, by DN key,
    /// with indexes on what identifies them. A real run keeps, from one batch to the next,
    /// only what the batch just written planned (which the next batch's searches, made while
    /// it was written, may not have seen); a dry run keeps it all, since nothing is written.
    var memory = Memory()
    /// The RDN values taken by new entries this import planned, in lower case.
    var allocatedNames: Set<String> = []
    /// The entries this import added (or plans to), by DN key, and the record that did.
    var addedByRecord: [String: Int] = [:]
    /// Containers known to exist or planned, by DN key.
    var containers: [String: Bool] = [:]
    var createdContainers: [DistinguishedName] = []
    var stop: LDAPError?
    var done = 0
    /// Whether a write of this import has succeeded yet.
    var writeSucceeded = false
    /// The searches that find who the records may be.
    let lookup: ImportLookup

    init(book: AddressBook, records: [ImportRecord], options: ImportOptions, facts: AddressBook.ServerFacts,
         progress: (@Sendable (Int) -> Void)?) {
        self.book = book
        self.records = records
        self.options = options
        self.facts = facts
        self.progress = progress
        keepsCardUIDs = facts.registry.hasLDAPBookSchema
        outcomes = Array(repeating: nil, count: records.count)
        lookup = ImportLookup(connection: book.connection, records: records, peopleBase: try? book.peopleBase(),
                              naming: book.configuration.naming, keepsCardUIDs: facts.registry.hasLDAPBookSchema)
    }

    /// Plans and writes the records batch by batch. The searches of each batch are made while
    /// the batch before it is written, so that the connection always has adds in flight:
    /// what they could not see of that batch's writes, the plan of that batch tells.
    func run() async -> ImportResult {
        for index in records.indices {
            do {
                try AddressBook.checkNameLengths(of: records[index].person)
            } catch {
                finish(index, ImportOutcome(.rejected(error)))
            }
        }
        let size = max(options.batchSize, 1)
        let batches = stride(from: 0, to: records.count, by: size).map { start in
            Array(start..<min(start + size, records.count)).filter { outcomes[$0] == nil }
        }.filter { !$0.isEmpty }
        var next = batches.first.map(fetch)
        defer { next?.cancel() }
        for (position, batch) in batches.enumerated() where stop == nil {
            do {
                guard let found = try await next?.value else { break }
                next = nil
                memory.absorb(found, addedBy: addedByRecord)
                let plan = try await self.plan(batch)
                next = batches.indices.contains(position + 1) ? fetch(batches[position + 1]) : nil
                if options.dryRun {
                    for index in batch { if let outcome = plan.outcomes[index] { finish(index, outcome) } }
                    continue
                }
                try await write(plan)
                // What the next batch's searches, made while this one was written, may not have seen.
                memory = Memory(keeping: plan.order.compactMap { key in memory.targets[key].map { (key: key, value: $0) } })
            } catch let error as LDAPError {
                stop = error
            } catch {
                stop = LDAPError(.other, message: "\(error)", operation: "import")
            }
        }
        return ImportResult(outcomes: outcomes.map { $0 ?? ImportOutcome(.notTried) }, containers: createdContainers,
                            stoppedBy: stop, keepsCardUIDs: keepsCardUIDs)
    }

    /// Starts the searches for the records at `indices`.
    func fetch(_ indices: [Int]) -> Task<ImportLookup.Found, any Error> {
        let dns = indices.compactMap { records[$0].distinguishedName.map(place) }
        let lookup = self.lookup
        return Task { try await lookup.fetch(indices, dns: dns) }
    }

    func finish(_ index: Int, _ outcome: ImportOutcome) {
        let first = outcomes[index] == nil
        outcomes[index] = outcome
        if first {
            done += 1
            progress?(done)
        }
    }

    // MARK: A batch

    /// Plans the people at `indices` against what ``memory`` holds of the directory.
    /// - Throws: ``LDAPKit/LDAPError`` when the directory is unavailable or refuses access.
    func plan(_ indices: [Int]) async throws -> BatchPlan {
        var plan = BatchPlan()
        for index in indices {
            do {
                try self.plan(index, into: &plan)
            } catch let error as LDAPError where error.stopsImport {
                throw error
            } catch {
                plan.outcomes[index] = ImportOutcome(.rejected(error))
            }
        }
        try await planContainers(&plan)
        return plan
    }

    /// What one batch will write.
    struct BatchPlan {
        /// The entries the batch writes, by DN key, in the order they were first touched.
        var order: [String] = []
        /// Each written entry as it was before the batch (`nil`: the batch adds it), and the
        /// records that write it.
        var writes: [String: (before: LDAPEntry?, records: [Int])] = [:]
        /// Each record's outcome, should its write succeed.
        var outcomes: [Int: ImportOutcome] = [:]
        /// The containers to create first, parents before children.
        var containers: [DistinguishedName] = []

        /// Notes that record `index` writes the entry at `key`, which held `before` (`nil`:
        /// the batch adds it) when the batch first touched it.
        mutating func touch(_ key: String, before: LDAPEntry?, by index: Int) {
            if writes[key] == nil {
                order.append(key)
                writes[key] = (before, [index])
            } else if writes[key]?.records.contains(index) == false {
                writes[key]?.records.append(index)
            }
        }
    }

    // MARK: Deciding who is who

    /// Decides who record `index` is, and plans what it writes.
    func plan(_ index: Int, into plan: inout BatchPlan) throws {
        let record = records[index]
        var notes: [ImportOutcome.Note] = record.skipped.isEmpty ? [] : [.skipped(record.skipped)]
        if let dn = record.distinguishedName {
            let placed = place(dn)
            if !placed.isEquivalent(to: dn) { notes.append(.movedFrom(dn)) }
            let key = DNKey.of(placed)
            if let target = memory.targets[key] {
                guard Self.isPerson(target.planned) else {
                    throw AddressBookError(.invalidName, "\(placed) exists and is not a person (objectClass "
                        + target.planned.strings("objectClass").joined(separator: ", ") + ")")
                }
                try fillIn(index, key: key, match: match(of: target, for: index, default: .distinguishedName),
                           notes: notes, plan: &plan)
                return
            }
            try add(index, dn: placed, notes: notes, plan: &plan)
            return
        }
        if let uid = record.cardUID, let key = memory.cardUIDs[uid] ?? VCardIdentity.entryUUID(in: uid).flatMap({ memory.cardUIDs["uuid:" + $0] })
            ?? uidAsDN(uid) {
            try fillIn(index, key: key, match: match(of: memory.targets[key]!, for: index, default: .cardUID), notes: notes,
                       plan: &plan)
            return
        }
        let byEmail = candidates(byEmail: record).filter { !conflicts(record, memory.targets[$0]!.planned) }
        if byEmail.count == 1 {
            try fillIn(index, key: byEmail[0], match: match(of: memory.targets[byEmail[0]]!, for: index, default: .email),
                       notes: notes, plan: &plan)
            return
        }
        if byEmail.count > 1 {
            notes.append(.possibleDuplicate(of: byEmail.map { memory.targets[$0]!.dn }, sameEmail: true))
        }
        if memory.uncomparedNames.contains(Self.nameKey(of: record.person)) {
            notes.append(.namesakesNotCompared)
        } else {
            let namesakes = (memory.names[Self.nameKey(of: record.person)] ?? []).sorted()
                .filter { !conflicts(record, memory.targets[$0]!.planned, comparingEmails: true) }
            // Nothing to write, and nothing is: not even the card's UID, which would make a
            // namesake this card's person on a name alone.
            if let holder = namesakes.first(where: { holdsEverything(record, memory.targets[$0]!.planned) }) {
                plan.outcomes[index] = ImportOutcome(.unchanged, dn: memory.targets[holder]!.dn,
                                                     match: match(of: memory.targets[holder]!, for: index, default: .nameWithNothingNew),
                                                     notes: notes)
                return
            }
            if options.mergesByName && namesakes.count == 1 {
                try fillIn(index, key: namesakes[0], match: match(of: memory.targets[namesakes[0]]!, for: index, default: .name),
                           notes: notes, plan: &plan)
                return
            }
            if !namesakes.isEmpty {
                notes.append(.possibleDuplicate(of: namesakes.map { memory.targets[$0]!.dn }, sameEmail: false))
            }
        }
        try add(index, dn: nil, notes: notes, plan: &plan)
    }

    /// The match to report for `target`: the earlier record of this import that planned
    /// it, when one did, else `match`.
    private func match(of target: Target, for index: Int, default match: ImportOutcome.Match) -> ImportOutcome.Match {
        if let first = target.addedBy, first != index { return .earlierRecord(first) }
        return match
    }

    /// The people who share an email address with `record`, by DN key, in a stable order.
    func candidates(byEmail record: ImportRecord) -> [String] {
        var keys: Set<String> = []
        for email in record.emails {
            keys.formUnion(memory.emails[Self.emailKey(email)] ?? [])
        }
        return keys.sorted()
    }

    /// The DN key of the person whose DN the card UID `uid` is, when it is one of this
    /// directory's people.
    private func uidAsDN(_ uid: String) -> String? {
        guard uid.contains("="), let dn = try? DistinguishedName(parsing: uid), !dn.isRoot else { return nil }
        let key = DNKey.of(dn)
        guard let target = memory.targets[key], Self.isPerson(target.planned) else { return nil }
        return key
    }

    /// Whether an identifier tells `record` and `entry` apart: different card UIDs, different
    /// employee numbers, or (`comparingEmails`, for people found by name) email addresses of
    /// which they share none.
    func conflicts(_ record: ImportRecord, _ entry: LDAPEntry, comparingEmails: Bool = false) -> Bool {
        if let uid = record.cardUID, let stored = VCardIdentity.storedUID(of: entry), stored != uid { return true }
        let numbers = Set(record.employeeNumbers.map(\.bytes)), theirs = Set(entry["employeeNumber"].map(\.bytes))
        if !numbers.isEmpty && !theirs.isEmpty && numbers.isDisjoint(with: theirs) { return true }
        if comparingEmails {
            let mine = Set(record.emails.map(Self.emailKey)), other = Set(entry["mail"].map(Self.emailKey))
            if !mine.isEmpty && !other.isEmpty && mine.isDisjoint(with: other) { return true }
        }
        return false
    }

    /// Whether `entry` holds every value `record` gives: its full names and every field's
    /// values (the first and last name are the same, or `entry` would be no namesake).
    func holdsEverything(_ record: ImportRecord, _ entry: LDAPEntry) -> Bool {
        let cn = Field(name: "cn", attribute: "cn", kind: .text, isSingleValued: false, origin: .builtIn, equality: "caseIgnoreMatch")
        let names = (record.person.commonNames ?? []).allSatisfy { name in entry["cn"].contains { cn.sameValue($0, LDAPValue(name)) } }
        return names && record.person.values.allSatisfy { field, values in
            values.allSatisfy { value in field.values(in: entry).contains { field.sameValue($0, value) } }
        }
    }

    /// `dn`, or, when it lies outside the directory's base, its RDN under the people base.
    func place(_ dn: DistinguishedName) -> DistinguishedName {
        guard let base = connection.defaultBase, let rdn = dn.rdn,
              !(dn.isEquivalent(to: base) || DNKey.of(dn).hasSuffix("," + DNKey.of(base))),
              let people = try? book.peopleBase() else { return dn }
        return people.child(rdn)
    }

    // MARK: Planning writes

    /// The name attributes, which an existing person keeps (they are filled in only when
    /// the entry has none).
    static let nameAttributes: Set<String> = ["cn", "sn", "givenname", "displayname"]

    /// Plans the values record `index` gives the existing person at `key`.
    func fillIn(_ index: Int, key: String, match: ImportOutcome.Match, notes: [ImportOutcome.Note],
                plan: inout BatchPlan) throws {
        guard var target = memory.targets[key] else { return }
        let record = records[index]
        let before = target.planned
        var entry = target.planned
        var added: [String] = []
        var kept: [SkippedAttribute] = []
        func addValues(_ attribute: String, _ values: [LDAPValue]) {
            guard !values.isEmpty else { return }
            var stored = entry[attribute]
            stored.append(contentsOf: values)
            entry[attribute] = stored
            if !added.contains(where: { $0.equalsIgnoringCase(attribute) }) { added.append(attribute) }
        }
        var nameValues: [(attribute: String, values: [LDAPValue])] = [("sn", [LDAPValue(record.person.surname)])]
        if let given = record.person.givenName { nameValues.append(("givenName", [LDAPValue(given)])) }
        if let commonNames = record.person.commonNames { nameValues.append(("cn", commonNames.map { LDAPValue($0) })) }
        var needsClass = false
        for (field, values) in record.person.values {
            if Self.nameAttributes.contains(field.attribute.lowercased()) {
                nameValues.append((field.attribute, values))
                continue
            }
            let present = field.values(in: entry)
            if field.isSingleValued || !field.comparesValues {
                if present.isEmpty {
                    addValues(field.attribute, Array(values.prefix(1)).map(field.stored))
                    needsClass = needsClass || field.needsLDAPBookClass
                } else if !values.allSatisfy({ value in present.contains { field.sameValue($0, value) } }) {
                    kept.append(SkippedAttribute(field.name, .keptStoredValue))
                }
                continue
            }
            var missing: [LDAPValue] = []
            for value in values where !present.contains(where: { field.sameValue($0, value) })
                && !missing.contains(where: { field.sameValue($0, value) }) {
                missing.append(value)
            }
            addValues(field.attribute, missing.map(field.stored))
            needsClass = needsClass || (field.needsLDAPBookClass && !missing.isEmpty)
        }
        for (attribute, values) in nameValues where !values.isEmpty {
            let present = entry[attribute]
            let field = Field(name: attribute, attribute: attribute, kind: .text, isSingleValued: false, origin: .builtIn,
                              equality: "caseIgnoreMatch")
            if present.isEmpty {
                addValues(attribute, values)
            } else if !values.allSatisfy({ value in present.contains { field.sameValue($0, value) } }),
                      !kept.contains(SkippedAttribute(attribute, .keptStoredValue)) {
                kept.append(SkippedAttribute(attribute, .keptStoredValue))
            }
        }
        if !record.uids.isEmpty, !record.uids.allSatisfy({ uid in entry["uid"].contains { $0.lossyString.lowercased() == uid.lossyString.lowercased() } }) {
            kept.append(SkippedAttribute("uid", .restricted(.identity)))
        }
        // The card UID binds the person to the card, unless the card names the entry itself.
        if let uid = record.cardUID, keepsCardUIDs, VCardIdentity.storedUID(of: entry) == nil,
           VCardIdentity.entryUUID(in: uid) != entry.string("entryUUID")?.lowercased(),
           uidAsDN(uid) != key {
            addValues(LDAPBookSchemaName.customField, [LDAPValue(VCardIdentity.fieldName + "=" + uid)])
            needsClass = true
        }
        if needsClass && !entry["objectClass"].contains(where: { $0.lossyString.equalsIgnoringCase(LDAPBookSchemaName.objectClass) }) {
            entry["objectClass"] = entry["objectClass"] + [LDAPValue(LDAPBookSchemaName.objectClass)]
        }
        var allNotes = notes
        if !kept.isEmpty { allNotes.append(.skipped(kept)) }
        let outcome = ImportOutcome(added.isEmpty ? .unchanged : .updated(added), dn: target.dn, match: match, notes: allNotes)
        plan.outcomes[index] = outcome
        guard !added.isEmpty else { return }
        plan.touch(key, before: before, by: index)
        target.planned = entry
        memory.update(key, target)
    }

    /// Plans a new entry for record `index`: under `dn` (an LDIF record's), or under the
    /// people base with a free name.
    func add(_ index: Int, dn: DistinguishedName?, notes: [ImportOutcome.Note], plan: inout BatchPlan) throws {
        let record = records[index]
        var entry = try book.draftEntry(for: record.person)
        if let dn {
            entry.dn = dn
            if !record.uids.isEmpty { entry["uid"] = record.uids }
            // The RDN's values are values of the entry.
            for part in dn.rdn?.attributes ?? [] where !entry[part.type].contains(part.value) {
                entry[part.type] = entry[part.type] + [part.value]
            }
        } else {
            let base = try book.peopleBase()
            let rdn = freeName(for: record.person, under: base)
            entry.dn = base.child(rdn)
            if case .generatedUID = book.configuration.naming { entry["uid"] = [rdn.attributes[0].value] }
            allocatedNames.insert(rdn.attributes[0].value.lossyString.lowercased())
        }
        if let uid = record.cardUID, keepsCardUIDs {
            entry[LDAPBookSchemaName.customField] = entry[LDAPBookSchemaName.customField]
                + [LDAPValue(VCardIdentity.fieldName + "=" + uid)]
            if !entry["objectClass"].contains(where: { $0.lossyString.equalsIgnoringCase(LDAPBookSchemaName.objectClass) }) {
                entry["objectClass"] = entry["objectClass"] + [LDAPValue(LDAPBookSchemaName.objectClass)]
            }
        }
        let key = DNKey.of(entry.dn)
        memory.update(key, Target(dn: entry.dn, planned: entry, addedBy: index))
        addedByRecord[key] = index
        plan.touch(key, before: nil, by: index)
        plan.outcomes[index] = ImportOutcome(.added, dn: entry.dn, notes: notes)
    }

    /// The RDN for a new entry of `person` under `base`: a generated uid (or the common
    /// name) that no entry has, and that this import has not given anyone.
    func freeName(for person: NewPerson, under base: DistinguishedName) -> RelativeDistinguishedName {
        switch book.configuration.naming {
        case .generatedUID:
            let idBase = GeneratedUID.base(given: person.givenName, surname: person.surname.trimmingWhitespace())
            var taken = allocatedNames.union(memory.takenNames)
            var candidate = GeneratedUID.firstFree(idBase, taken: taken)
            while memory.targets[DNKey.of(base.child("uid", LDAPValue(candidate)))] != nil {
                taken.insert(candidate)
                candidate = GeneratedUID.firstFree(idBase, taken: taken)
            }
            return RelativeDistinguishedName(type: "uid", value: LDAPValue(candidate))
        case .commonName:
            let name = person.commonName
            var number = 1
            func candidate() -> String { number == 1 ? name : "\(name) \(number)" }
            while allocatedNames.contains(candidate().lowercased()) || memory.takenNames.contains(candidate().lowercased())
                || memory.targets[DNKey.of(base.child("cn", LDAPValue(candidate())))] != nil {
                number += 1
            }
            return RelativeDistinguishedName(type: "cn", value: LDAPValue(candidate()))
        }
    }

    /// Plans the containers the batch's new entries need: each missing parent, up to one
    /// that exists, when ldapbook may create containers (`organizationalUnit` for `ou=`,
    /// `organization` for `o=`). A record whose parent cannot be made is rejected.
    func planContainers(_ plan: inout BatchPlan) async throws {
        for key in plan.order {
            guard let write = plan.writes[key], write.before == nil, let entry = memory.targets[key]?.planned,
                  let parent = entry.dn.parent, !parent.isRoot else { continue }
            var missing: [DistinguishedName] = []
            var current: DistinguishedName? = parent
            while let dn = current, !dn.isRoot, try await !containerExists(dn) {
                missing.append(dn)
                current = dn.parent
            }
            guard !missing.isEmpty else { continue }
            let creatable = book.configuration.createsPeopleBase && missing.allSatisfy { dn in
                ["ou", "o"].contains(dn.rdn?.attributes.first?.type.lowercased() ?? "")
            }
            guard creatable else {
                for index in write.records {
                    plan.outcomes[index] = ImportOutcome(.rejected(AddressBookError(.notFound,
                        "\(parent) does not exist, and ldapbook creates only ou= and o= containers")), dn: entry.dn)
                }
                plan.writes[key] = nil
                plan.order.removeAll { $0 == key }
                continue
            }
            for dn in missing.reversed() {
                containers[DNKey.of(dn)] = true
                plan.containers.append(dn)
                createdContainers.append(dn)
            }
        }
    }

    /// Whether the container `dn` exists (or this import plans it).
    func containerExists(_ dn: DistinguishedName) async throws -> Bool {
        let key = DNKey.of(dn)
        if let known = containers[key] { return known }
        if memory.targets[key] != nil { return true }
        let exists = try await connection.read(dn, attributes: ["1.1"]) != nil
        containers[key] = exists
        return exists
    }

    static func isPerson(_ entry: LDAPEntry) -> Bool {
        entry["objectClass"].contains { ["inetorgperson", "person", "organizationalperson"].contains($0.lossyString.lowercased()) }
    }

    static func emailKey(_ value: LDAPValue) -> String {
        value.lossyString.trimmingWhitespace().lowercased()
    }

    /// First and last name, as the directory compares names (case and outer spaces aside).
    static func nameKey(of person: NewPerson) -> String {
        nameKey(given: person.givenName, surname: person.surname)
    }

    static func nameKey(given: String?, surname: String) -> String {
        (given ?? "").trimmingWhitespace().lowercased() + "\u{0}" + surname.trimmingWhitespace().lowercased()
    }
}

extension LDAPError {
    /// Whether this error stops an import: the directory is unavailable (down, hung, busy,
    /// not taking writes) or refuses access, which every later person would meet too.
    var stopsImport: Bool {
        isServerDown || isTimeout || isInsufficientAccess || isInvalidCredentials
            || [.busy, .unavailable, .unwillingToPerform, .referral, .adminLimitExceeded, .inappropriateAuthentication,
                .strongerAuthRequired, .confidentialityRequired, .connectError].contains(code)
    }
}
