import LDAPKit

extension AddressBook {
    /// Deletes the person's entry. A reply that is lost is checked by reading the entry
    /// again (``sendOnce(_:at:reading:description:check:)``): gone means deleted.
    ///
    /// - Throws: ``LDAPKit/LDAPError``: `notAllowedOnNonLeaf` for an entry with entries
    ///   below it (an address book deletes people, never subtrees).
    public func delete(_ person: Person) async throws {
        _ = try await sendOnce({ try await connection.delete(person.dn) }, at: person.dn, reading: ["1.1"],
                               description: "deleting \(person.dn)") { entry in entry == nil ? .written : .notWritten }
    }

    /// Gives the person a new given name and/or surname: `givenName`, `sn`, the full name
    /// in `cn` (other `cn` values stay) and `displayName` (when it was the full name)
    /// change together, in one modify that asserts the names are still those read; when
    /// the entry is named by its full name (`cn=Ada Lovelace,…`), a modify DN renames it
    /// after.
    ///
    /// - Parameters:
    ///   - givenName: the new given name; `nil` keeps the current one, an empty one removes it.
    ///   - surname: the new surname; `nil` keeps the current one.
    /// - Returns: the person as stored afterwards.
    /// - Throws: ``AddressBookError`` (`invalidName` for an empty surname, `changedMeanwhile`
    ///   when someone changed the names since they were read; nothing is written then), or
    ///   ``LDAPKit/LDAPError`` from the server.
    public func rename(_ person: Person, givenName: String?, surname: String?) async throws -> Person {
        let oldGiven = person.givenNames.first
        guard let oldSurname = person.surnames.first else {
            throw AddressBookError(.invalidName, "\(person.dn) has no surname (sn) to rename")
        }
        let newSurname = (surname ?? oldSurname).trimmingWhitespace()
        guard !newSurname.isEmpty else { throw AddressBookError(.invalidName, "a surname must not be empty") }
        let newGiven = (givenName ?? oldGiven)?.trimmingWhitespace()
        let given = newGiven?.isEmpty == false ? newGiven : nil
        let oldFull = [oldGiven, oldSurname].compactMap { $0 }.joined(separator: " ")
        let newFull = [given, newSurname].compactMap { $0 }.joined(separator: " ")
        guard newFull != oldFull || given != oldGiven || newSurname != oldSurname else { return person }

        let rdn = person.dn.rdn
        let namedByFullName = rdn?.attributes.count == 1 && rdn?.attributes.first?.type.equalsIgnoringCase("cn") == true
            && rdn?.attributes.first?.value.string == oldFull
        var changes: [LDAPModification] = [.replace("sn", values: [LDAPValue(newSurname)])]
        changes.append(given.map { .replace("givenName", values: [LDAPValue($0)]) } ?? .replace("givenName", values: []))
        if !person.commonNames.contains(newFull) { changes.append(.add("cn", values: [LDAPValue(newFull)])) }
        // The RDN's value goes with the modify DN that follows; another full name goes now.
        if person.commonNames.contains(oldFull) && !namedByFullName && oldFull != newFull {
            changes.append(.delete("cn", values: [LDAPValue(oldFull)]))
        }
        if person.entry.string("displayName") == oldFull { changes.append(.replace("displayName", values: [LDAPValue(newFull)])) }

        // The names read are asserted, so a rename never undoes someone else's.
        var asserted: [LDAPFilter] = [.equal("sn", LDAPValue(oldSurname))]
        asserted.append(oldGiven.map { .equal("givenName", LDAPValue($0)) } ?? .not(.present("givenName")))
        do {
            _ = try await sendOnce({ try await connection.modify(person.dn, changes, controls: [.assertion(.and(asserted))]) },
                                   at: person.dn, reading: ["givenName", "sn"], description: "renaming \(person.dn)") { entry in
                guard let entry else { return .changedMeanwhile }
                if entry.strings("sn") == [newSurname] && entry.strings("givenName") == (given.map { [$0] } ?? []) { return .written }
                if entry.strings("sn") == [oldSurname] && entry.strings("givenName") == (oldGiven.map { [$0] } ?? []) { return .notWritten }
                return .changedMeanwhile
            }
        } catch let error as LDAPError where error.isAssertionFailed {
            throw AddressBookError(.changedMeanwhile,
                "someone changed the names of \(person.dn) since they were read; nothing was written: look again")
        }
        var dn = person.dn
        if namedByFullName, newFull != oldFull, let parent = person.dn.parent {
            let newRDN = RelativeDistinguishedName(type: "cn", value: LDAPValue(newFull))
            do {
                try await connection.rename(person.dn, to: newRDN, deletingOldRDN: true)
            } catch let error as LDAPError where error.isAlreadyExists {
                throw AddressBookError(.changedMeanwhile, "the names of \(person.dn) are changed, but it keeps its DN: "
                    + "\(parent.child(newRDN)) exists already")
            }
            dn = parent.child(newRDN)
        }
        guard let renamed = try await self.person(at: dn) else {
            throw AddressBookError(.notFound, "\(dn) was deleted while it was being renamed")
        }
        return renamed
    }
}
