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

    /// A memory of `targets` alone, indexed.
    init(keeping targets: some Sequence<(key: String, value: Target)> = [:]) {
        for (key, target) in targets { update(key, target) }
    }

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

    /// Takes in what a lookup read: what this memory plans wins over what was read.
    mutating func absorb(_ found: ImportLookup.Found, addedBy: [String: Int]) {
        takenNames.formUnion(found.takenNames)
        uncomparedNames.formUnion(found.uncomparedNames)
        for entry in found.entries { remember(entry, addedBy: addedBy) }
    }
}

/// The searches that tell an import who the people of a batch of records may be, and
/// which names new entries could take: made apart from the import's plan, so that one
/// batch's are under way while the batch before it is written.
///
/// Per batch: one search for the names new entries could take; one search, under each
/// parent, for the entries at the records' DNs (never a read per DN); and one search for the
/// people the records' card UIDs, email addresses and names may be.
///
/// The names come first: an entry another writer adds meanwhile is then either seen by
/// both searches, or by neither, in which case the name planned for a new entry is the one
/// it took, and the add meets it (and is planned again) rather than adding the same person
/// a second time under the next free name.
struct ImportLookup: Sendable {
    let connection: LDAPConnection
    let records: [ImportRecord]
    /// Where new people go, when the directory has a base.
    let peopleBase: DistinguishedName?
    let naming: EntryNaming
    let keepsCardUIDs: Bool

    /// The attributes read of each person: every user attribute, and the `entryUUID` a
    /// card's `UID` may name.
    static let readAttributes = ["*", "entryUUID"]

    /// What the searches found.
    struct Found: Sendable {
        /// Entries at the records' DNs, and who the records may be.
        var entries: [LDAPEntry] = []
        /// RDN values (uids, or common names) that entries of the directory have, in lower case.
        var takenNames: Set<String> = []
        /// Names too common to compare (``Memory/uncomparedNames``).
        var uncomparedNames: Set<String> = []
    }

    /// Reads what the directory holds of the records at `indices`, whose DNs, placed in
    /// the directory, are `dns` (besides the DNs their card UIDs name).
    func fetch(_ indices: [Int], dns: [DistinguishedName]) async throws -> Found {
        var found = Found()
        let people = indices.filter { records[$0].distinguishedName == nil }
        found.takenNames = try await takenNames(people)
        var wanted = dns
        for index in indices where records[index].distinguishedName == nil {
            if let uid = records[index].cardUID, uid.contains("="), let dn = try? DistinguishedName(parsing: uid), !dn.isRoot {
                wanted.append(dn)
            }
        }
        found.entries = try await entries(at: wanted)
        try await search(people, into: &found)
        return found
    }

    // MARK: Entries at DNs

    /// The entries that exist at `dns`: those under one parent found by one search of the
    /// parent's children for their RDNs, in halves when the server's size limit ends one.
    func entries(at dns: [DistinguishedName]) async throws -> [LDAPEntry] {
        var byParent: [String: (parent: DistinguishedName, dns: [DistinguishedName])] = [:]
        var order: [String] = []
        var alone: [DistinguishedName] = []
        var seen: Set<String> = []
        for dn in dns where seen.insert(DNKey.of(dn)).inserted {
            guard let parent = dn.parent, !parent.isRoot, dn.rdn != nil else {
                alone.append(dn)
                continue
            }
            let key = DNKey.of(parent)
            if byParent[key] == nil {
                order.append(key)
                byParent[key] = (parent, [])
            }
            byParent[key]?.dns.append(dn)
        }
        var found: [LDAPEntry] = []
        for key in order {
            guard let group = byParent[key] else { continue }
            found += try await children(of: group.parent, at: group.dns)
        }
        for dn in alone {
            if let entry = try await connection.read(dn, attributes: Self.readAttributes) { found.append(entry) }
        }
        return found
    }

    /// The children of `parent` at `dns`.
    private func children(of parent: DistinguishedName, at dns: [DistinguishedName]) async throws -> [LDAPEntry] {
        guard !dns.isEmpty else { return [] }
        if dns.count == 1 {
            return try await connection.read(dns[0], attributes: Self.readAttributes).map { [$0] } ?? []
        }
        let wanted = Set(dns.map(DNKey.of))
        let rdns: [LDAPFilter] = dns.compactMap { dn in
            guard let rdn = dn.rdn else { return nil }
            let parts = rdn.attributes.map { LDAPFilter.equal($0.type, $0.value) }
            return parts.count == 1 ? parts[0] : .and(parts)
        }
        var found: [LDAPEntry] = []
        do {
            for try await entry in connection.search(base: parent, scope: .oneLevel, filter: .or(rdns),
                                                     attributes: Self.readAttributes) where wanted.contains(DNKey.of(entry.dn)) {
                found.append(entry)
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .adminLimitExceeded {
            let half = dns.count / 2
            return try await children(of: parent, at: Array(dns[..<half])) + children(of: parent, at: Array(dns[half...]))
        } catch let error as LDAPError where error.code == .noSuchObject {
            return []
        }
        return found
    }

    // MARK: Who the records may be

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
    private func search(_ indices: [Int], withNames: Bool = true, into found: inout Found) async throws {
        let terms = indices.flatMap { self.terms(for: $0, withName: withNames) }
        guard !terms.isEmpty else { return }
        var entries: [LDAPEntry] = []
        do {
            for try await entry in connection.search(filter: .and([.equal("objectClass", "person"), .or(terms)]),
                                                     attributes: Self.readAttributes) {
                entries.append(entry)
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .adminLimitExceeded {
            if indices.count > 1 {
                let half = indices.count / 2
                try await search(Array(indices[..<half]), withNames: withNames, into: &found)
                try await search(Array(indices[half...]), withNames: withNames, into: &found)
                return
            }
            guard withNames else { throw error }
            found.uncomparedNames.insert(ImportRun.nameKey(of: records[indices[0]].person))
            try await search(indices, withNames: false, into: &found)
            return
        } catch let error as LDAPError where error.code == .noSuchObject {
            return
        }
        found.entries += entries
    }

    // MARK: Names new entries could take

    /// One search for the names that new entries of the records at `indices` could take
    /// and that entries have already: their generated uids (`ada.lovelace`,
    /// `ada.lovelace.2`...) anywhere in the directory, or their common names under the
    /// people base.
    private func takenNames(_ indices: [Int]) async throws -> Set<String> {
        guard !indices.isEmpty, let base = peopleBase else { return [] }
        var filters: [LDAPFilter] = []
        var seen: Set<String> = []
        let attribute: String
        let scope: SearchScope
        let searchBase: DistinguishedName
        switch naming {
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
        var taken: Set<String> = []
        do {
            for try await entry in connection.search(base: searchBase, scope: scope, filter: .or(filters),
                                                     attributes: [attribute]) {
                taken.formUnion(entry.strings(attribute).map { $0.lowercased() })
            }
        } catch let error as LDAPError where error.code == .noSuchObject {
            // The people base does not exist yet: no name is taken.
        }
        return taken
    }
}
