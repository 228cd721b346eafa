import LDAPKit

/// An entry an import read from the directory, or plans to add.
struct Target: Sendable {
    /// Its DN.
    var dn: DistinguishedName
    /// The entry as it will be once the writes planned so far are made.
    var planned: LDAPEntry
    /// The record whose add creates it, when this import adds it.
    var addedBy: Int?
}

/// What an import knows of the directory, with indexes on what identifies people.
struct Memory {
    /// The entries, by DN key (``DNKey``).
    var targets: [String: Target] = [:]
    /// Card UIDs (stored ones, and `uuid:<entryUUID>`) to DN keys.
    var cardUIDs: [String: String] = [:]
    /// Email addresses (trimmed, in lower case) to DN keys.
    var emails: [String: Set<String>] = [:]
    /// First and last names (``ImportRun/nameKey(given:surname:)``) to DN keys.
    var names: [String: Set<String>] = [:]
    /// RDN values (uids, or common names) that entries of the directory have, in lower case.
    var takenNames: Set<String> = []
    /// Names too common to compare: more namesakes than one search may return.
    var uncomparedNames: Set<String> = []

    /// Records `target` at `key`, and indexes what identifies it.
    mutating func update(_ key: String, _ target: Target) {
        targets[key] = target
        let entry = target.planned
        if let uid = VCardIdentity.storedUID(of: entry) { cardUIDs[uid] = key }
        if let uuid = entry.string("entryUUID")?.lowercased() { cardUIDs["uuid:" + uuid] = key }
        for mail in entry["mail"] { emails[ImportRun.emailKey(mail), default: []].insert(key) }
        let givenNames: [String?] = entry.strings("givenName").isEmpty ? [nil] : entry.strings("givenName")
        for surname in entry.strings("sn") {
            for given in givenNames { names[ImportRun.nameKey(given: given, surname: surname), default: []].insert(key) }
        }
    }

    /// Records an entry read from the directory, unless the import knows it already: what
    /// it plans for the entry wins.
    mutating func remember(_ entry: LDAPEntry, addedBy: [String: Int]) {
        let key = DNKey.of(entry.dn)
        guard targets[key] == nil else { return }
        update(key, Target(dn: entry.dn, planned: entry, addedBy: addedBy[key]))
    }
}

extension ImportRun {
    /// The attributes read of each person: every user attribute, and the `entryUUID` a
    /// card's `UID` may name.
    static let readAttributes = ["*", "entryUUID"]

    /// Reads what the directory holds of the people at `indices`: one search for the names
    /// new entries could take, then the entries at their DNs and one search for their card
    /// UIDs, email addresses and names.
    ///
    /// The names come first: an entry another writer adds meanwhile is then either seen by
    /// both searches, or by neither, in which case the name planned for a new entry is the
    /// one it took, and the add meets it (and is planned again) rather than adding the same
    /// person a second time under the next free name.
    func load(_ indices: [Int]) async throws {
        let people = indices.filter { records[$0].distinguishedName == nil }
        try await loadTakenNames(people)
        var dns: [DistinguishedName] = []
        for index in indices {
            let record = records[index]
            if let dn = record.distinguishedName {
                dns.append(place(dn))
            } else if let uid = record.cardUID, uid.contains("="), let dn = try? DistinguishedName(parsing: uid), !dn.isRoot {
                dns.append(dn)
            }
        }
        try await read(dns.filter { memory.targets[DNKey.of($0)] == nil })
        try await search(people)
    }

    /// Reads the entries at `dns`, up to the window at once.
    private func read(_ dns: [DistinguishedName]) async throws {
        guard !dns.isEmpty else { return }
        let connection = self.connection
        let window = max(options.window, 1)
        let found = try await withThrowingTaskGroup(of: LDAPEntry?.self) { group in
            var entries: [LDAPEntry] = []
            for (position, dn) in dns.enumerated() {
                if position >= window, let entry = try await group.next() { entries += [entry].compactMap { $0 } }
                group.addTask { try await connection.read(dn, attributes: Self.readAttributes) }
            }
            for try await entry in group { entries += [entry].compactMap { $0 } }
            return entries
        }
        for entry in found { memory.remember(entry, addedBy: addedByRecord) }
    }

    /// The filter terms that find who the record at `index` may be: its card UID (as an
    /// `entryUUID` and as a stored card UID), its email addresses, and (unless
    /// `withName` is false) its first and last name.
    private func terms(for index: Int, withName: Bool) -> [LDAPFilter] {
        let record = records[index]
        var terms: [LDAPFilter] = []
        if let uid = record.cardUID {
            if let uuid = VCardIdentity.entryUUID(in: uid) { terms.append(.equal("entryUUID", LDAPValue(uuid))) }
            if keepsCardUIDs {
                terms.append(.equal(LDAPBookSchemaName.customField, LDAPValue(VCardIdentity.fieldName + "=" + uid)))
            }
        }
        for email in record.emails where !email.isEmpty {
            terms.append(.equal("mail", email))
        }
        if withName {
            let surname = LDAPFilter.equal("sn", LDAPValue(record.person.surname.trimmingWhitespace()))
            if let given = record.person.givenName?.trimmingWhitespace(), !given.isEmpty {
                terms.append(.and([surname, .equal("givenName", LDAPValue(given))]))
            } else {
                terms.append(.and([surname, .not(.present("givenName"))]))
            }
        }
        return terms
    }

    /// One search for everyone the records at `indices` may be. When the server's size limit
    /// ends it, the records are looked up in halves; a single record with more namesakes
    /// than the limit is looked up without its name, and its name is not compared.
    private func search(_ indices: [Int], withNames: Bool = true) async throws {
        let terms = indices.flatMap { self.terms(for: $0, withName: withNames) }
        guard !terms.isEmpty else { return }
        var found: [LDAPEntry] = []
        do {
            for try await entry in connection.search(filter: .and([.equal("objectClass", "person"), .or(terms)]),
                                                     attributes: Self.readAttributes) {
                found.append(entry)
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .adminLimitExceeded {
            if indices.count > 1 {
                let half = indices.count / 2
                try await search(Array(indices[..<half]), withNames: withNames)
                try await search(Array(indices[half...]), withNames: withNames)
                return
            }
            guard withNames else { throw error }
            memory.uncomparedNames.insert(Self.nameKey(of: records[indices[0]].person))
            try await search(indices, withNames: false)
            return
        } catch let error as LDAPError where error.code == .noSuchObject {
            return
        }
        for entry in found { memory.remember(entry, addedBy: addedByRecord) }
    }

    /// One search for the names that new entries of the records at `indices` could take
    /// and that entries have already: their generated uids (`ada.lovelace`,
    /// `ada.lovelace.2`...) anywhere in the directory, or their common names under the
    /// people base.
    private func loadTakenNames(_ indices: [Int]) async throws {
        guard !indices.isEmpty else { return }
        let base: DistinguishedName
        do {
            base = try book.peopleBase()
        } catch {
            return
        }
        var filters: [LDAPFilter] = []
        var seen: Set<String> = []
        let attribute: String
        let scope: SearchScope
        let searchBase: DistinguishedName
        switch book.configuration.naming {
        case .generatedUID:
            attribute = "uid"
            scope = .subtree
            searchBase = connection.defaultBase ?? base
            for index in indices {
                let person = records[index].person
                let idBase = GeneratedUID.base(given: person.givenName, surname: person.surname.trimmingWhitespace())
                guard seen.insert(idBase).inserted else { continue }
                filters += [.equal("uid", LDAPValue(idBase)), .prefix("uid", LDAPValue(idBase + "."))]
            }
        case .commonName:
            attribute = "cn"
            scope = .oneLevel
            searchBase = base
            for index in indices {
                let name = records[index].person.commonName
                guard seen.insert(name.lowercased()).inserted else { continue }
                filters += [.equal("cn", LDAPValue(name)), .prefix("cn", LDAPValue(name + " "))]
            }
        }
        do {
            for try await entry in connection.search(base: searchBase, scope: scope, filter: .or(filters),
                                                     attributes: [attribute]) {
                memory.takenNames.formUnion(entry.strings(attribute).map { $0.lowercased() })
            }
        } catch let error as LDAPError where error.code == .noSuchObject {
            // The people base does not exist yet: no name is taken.
        }
    }
}
