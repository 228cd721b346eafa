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
            if let entry = try await connection.search(filter: filter, attributes: ["1.1"], sizeLimit: 1, pageSize: 0)
                .collect().first {
                return try await person(at: entry.dn, fields: fields)
            }
        }
        var name: [LDAPFilter] = [.equal("objectClass", "inetOrgPerson"), .equal("sn", LDAPValue(newPerson.surname))]
        if let given = newPerson.givenName, !given.isEmpty { name.append(.equal("givenName", LDAPValue(given))) }
        let matches = try await connection.search(filter: .and(name), attributes: ["1.1"], sizeLimit: 2, pageSize: 0)
            .collect()
        guard matches.count == 1 else { return nil }
        return try await person(at: matches[0].dn, fields: fields)
    }

    /// Imports one person: adds the values an existing person (same email,
    /// or same name) lacks, or adds a new entry. With `dryRun`, reports what
    /// would happen and writes nothing.
    public func importPerson(_ newPerson: NewPerson, dryRun: Bool = false) async throws -> ImportOutcome {
        if let existing = try await existingPerson(like: newPerson) {
            let change = PersonChange(adding: newPerson.values.filter { !$0.field.isSingleValued || existing.values(of: $0.field).isEmpty })
            let modifications = try modifications(for: change, of: existing)
            if modifications.isEmpty { return .unchanged(existing.dn) }
            if !dryRun { try await update(existing, with: change) }
            return .updated(existing.dn)
        }
        if dryRun {
            return .added(try await entry(for: newPerson).dn)
        }
        return .added(try await add(newPerson).dn)
    }
}
