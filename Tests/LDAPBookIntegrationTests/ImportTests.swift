import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

/// Who is who on import, against the shared server: each test imports into a people base
/// of its own.
@Suite("Import: who is who, and one write per person")
struct ImportTests {
    private func fields(_ book: AddressBook) async throws -> (email: Field, phone: Field, title: Field) {
        (try await book.field(named: "email"), try await book.field(named: "phone"), try await book.field(named: "title"))
    }

    private func people(_ book: AddressBook, count: Int) async throws -> [ImportRecord] {
        let (email, phone, _) = try await fields(book)
        // The shared server holds other tests' people too: these names and addresses are this list's own.
        let tag = UUID().uuidString.prefix(8).lowercased()
        return records((0..<count).map { index in
            NewPerson(givenName: "Given\(index % 7)", surname: "Surname\(index) \(tag)",
                      values: [(email, [LDAPValue("person\(index).\(tag)@example.org")]), (phone, [LDAPValue("+1 555 \(1000 + index)")])])
        })
    }

    private func stored(_ book: AddressBook) async throws -> [LDAPEntry] {
        do {
            return try await book.connection.search(base: try book.peopleBase(), filter: .equal("objectClass", "inetOrgPerson"),
                                                    attributes: ["*", "entryUUID"]).collect()
        } catch let error as LDAPError where error.code == .noSuchObject {
            return []
        }
    }

    @Test("Many people in flight: all added once, in order; importing them again changes nothing")
    func addsEveryoneOnce() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let list = try await people(book, count: 250)
        let first = await book.importPeople(list, options: ImportOptions(window: 16, batchSize: 40))
        #expect(words(first) == Array(repeating: "added", count: 250))
        #expect(first.stoppedBy == nil)
        let again = await book.importPeople(list, options: ImportOptions(window: 16, batchSize: 40))
        #expect(words(again) == Array(repeating: "unchanged", count: 250))
        #expect(again.outcomes.allSatisfy { $0.match == .email })
        let entries = try await stored(book)
        #expect(entries.count == 250)
        #expect(Set(entries.flatMap { $0.strings("mail") }).count == 250)
    }

    @Test("Records of one person (one email, one card UID) make one entry; namesakes stay two people; in one batch, or each in its own, looked up while the one before it is written",
          arguments: [100, 1])
    func samePersonInOneList(batchSize: Int) async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, phone, title) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let adaMail = LDAPValue("ada.\(tag)@example.org")
        var list = records([
            NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, [adaMail])]),
            NewPerson(givenName: "Alan", surname: "Turing-\(tag)", values: [(phone, ["+44 161 496 0000"])]),
            NewPerson(givenName: "Augusta Ada", surname: "King", values: [(email, [adaMail]), (phone, ["+44 20 7946 1815"])]),
            NewPerson(givenName: "Alan", surname: "Turing-\(tag)", values: [(title, ["Mathematician"])]),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(title, ["Admiral"])]),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(phone, ["+1 555 0100"])]),
        ])
        list[4].cardUID = "urn:uuid:0b6f4a5e-7d39-4c1a-9d6e-\(tag)0000"
        list[5].cardUID = list[4].cardUID
        let result = await book.importPeople(list, options: ImportOptions(batchSize: batchSize))
        #expect(words(result) == ["added", "added", "updated", "added", "added", "updated"])
        #expect(result.outcomes[2].match == .earlierRecord(0))
        #expect(result.outcomes[5].match == .earlierRecord(4))
        let duplicate = result.outcomes[3].notes.contains { note in
            if case .possibleDuplicate(let of, sameEmail: false) = note { return of == [result.outcomes[1].dn!] }
            return false
        }
        #expect(duplicate, "the second Alan Turing is a possible duplicate of the first: \(result.outcomes[3].notes)")
        let entries = try await stored(book)
        #expect(entries.count == 4, "Ada once, Grace once, two Alan Turings")
        let ada = try #require(entries.first { $0.strings("mail").contains(adaMail.lossyString) })
        #expect(ada.strings("telephoneNumber") == ["+44 20 7946 1815"])
        #expect(ada.strings("sn") == ["Lovelace"], "an existing person keeps their name")
        let grace = try #require(entries.first { $0.strings("sn") == ["Hopper-\(tag)"] })
        #expect(grace.strings("title") == ["Admiral"] && grace.strings("telephoneNumber") == ["+1 555 0100"])
        #expect(grace.strings("ldapbookCustomField") == ["vcard-uid=\(list[4].cardUID!)"])
    }

    @Test("Records of one DN in batches one after the other: the entry is added once, then given what the later records add")
    func oneDNInSeveralBatches() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, phone, title) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let dn = try book.peopleBase().child("uid", LDAPValue("grace.\(tag)"))
        var list = records([
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(email, [LDAPValue("grace.\(tag)@example.org")])]),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(phone, ["+1 555 0100"])]),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(title, ["Rear Admiral"])]),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(phone, ["+1 555 0100"])]),
        ])
        for index in list.indices { list[index].distinguishedName = dn }
        let result = await book.importPeople(list, options: ImportOptions(window: 4, batchSize: 1))
        #expect(words(result) == ["added", "updated", "updated", "unchanged"])
        #expect(result.outcomes.dropFirst().allSatisfy { $0.match == .earlierRecord(0) })
        let entries = try await stored(book).filter { $0.dn.isEquivalent(to: dn) }
        #expect(entries.count == 1)
        #expect(entries.first?.strings("telephoneNumber") == ["+1 555 0100"] && entries.first?.strings("title") == ["Rear Admiral"])
    }

    @Test("Two cards of namesakes with different UIDs stay two people, and each is found again by its UID")
    func namesakesByUID() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, _, title) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        var list = records([
            NewPerson(givenName: "Alan", surname: "Turing", values: [(email, [LDAPValue("alan.\(tag)@bletchley.example")]),
                                                                     (title, ["Cryptanalyst"])]),
            NewPerson(givenName: "Alan", surname: "Turing", values: [(email, [LDAPValue("alan.\(tag)@manchester.example")]),
                                                                     (title, ["Reader"])]),
        ])
        list[0].cardUID = "bletchley-\(tag)"
        list[1].cardUID = "manchester-\(tag)"
        #expect(words(await book.importPeople(list)) == ["added", "added"])
        // The phone's next export: new addresses, the same UIDs.
        list[0].person.values = [(email, [LDAPValue("alan.\(tag)@new-bletchley.example")])]
        list[1].person.values = [(email, [LDAPValue("alan.\(tag)@new-manchester.example")])]
        let again = await book.importPeople(list)
        #expect(words(again) == ["updated", "updated"])
        #expect(again.outcomes.map(\.match) == [.cardUID, .cardUID])
        let entries = try await stored(book)
        #expect(entries.count == 2)
        let bletchley = try #require(entries.first { $0.strings("title") == ["Cryptanalyst"] })
        #expect(Set(bletchley.strings("mail")) == ["alan.\(tag)@bletchley.example", "alan.\(tag)@new-bletchley.example"])
    }

    @Test("A card naming an entry's entryUUID (as ldapbook's export writes it) is that entry")
    func entryUUIDIdentity() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, phone, _) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let ada = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace-\(tag)", values: [(email, [LDAPValue("ada.\(tag)@example.org")])]))
        let uuid = try #require(try await book.connection.read(ada.dn, attributes: ["entryUUID"])?.string("entryUUID"))
        // Another name and another address, but the same UID: the same person.
        var card = records([NewPerson(givenName: "Augusta", surname: "King-\(tag)", values: [(phone, ["+44 20 7946 1815"])])])[0]
        card.cardUID = "urn:uuid:" + uuid.uppercased()
        let result = await book.importPeople([card])
        #expect(words(result) == ["updated"])
        #expect(result.outcomes[0].match == .cardUID && result.outcomes[0].dn == ada.dn)
        let entry = try #require(try await book.connection.read(ada.dn, attributes: ["*"]))
        #expect(entry.strings("telephoneNumber") == ["+44 20 7946 1815"])
        #expect(entry.strings("sn") == ["Lovelace-\(tag)"] && entry.strings("ldapbookCustomField").isEmpty,
                "names are kept, and the entry's own entryUUID is not stored again as a card UID")
    }

    @Test("A name alone: nothing new is unchanged; otherwise a new person reported as a possible duplicate, or merged with --merge-by-name")
    func nameAlone() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, phone, title) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let surname = "Smith-\(tag)"
        let accountant = try await book.add(NewPerson(givenName: "John", surname: surname,
                                                      values: [(title, ["Accountant"]), (phone, ["+1 555 0001"])]))
        let same = records([NewPerson(givenName: "John", surname: surname, values: [(title, ["Accountant"])])])
        let unchanged = await book.importPeople(same)
        #expect(words(unchanged) == ["unchanged"] && unchanged.outcomes[0].match == .nameWithNothingNew)

        let surgeon = records([NewPerson(givenName: "John", surname: surname, values: [(title, ["Surgeon"])])])
        let dry = await book.importPeople(surgeon, options: ImportOptions(dryRun: true))
        let real = await book.importPeople(surgeon)
        #expect(words(dry) == ["added"] && words(real) == ["added"])
        #expect(dry.outcomes[0].dn == real.outcomes[0].dn, "the dry run names the DN the real run uses")
        #expect(real.outcomes[0].notes.contains(.possibleDuplicate(of: [accountant.dn], sameEmail: false)))
        #expect(try await stored(book).count == 2)

        // Two namesakes now: merging by name has no one person to merge into.
        let third = records([NewPerson(givenName: "John", surname: surname, values: [(phone, ["+1 555 0003"])])])
        let ambiguous = await book.importPeople(third, options: ImportOptions(mergesByName: true))
        #expect(words(ambiguous) == ["added"])
        let other = records([NewPerson(givenName: "Jane", surname: surname, values: [(phone, ["+1 555 0004"])])])
        _ = await book.importPeople(other)
        let merged = await book.importPeople(records([NewPerson(givenName: "Jane", surname: surname, values: [(title, ["Nurse"])])]),
                                             options: ImportOptions(mergesByName: true))
        #expect(words(merged) == ["updated"] && merged.outcomes[0].match == .name)
        // Namesakes with different email addresses are different people, even merging by name.
        _ = try await book.add(NewPerson(givenName: "Mary", surname: surname, values: [(email, [LDAPValue("mary1.\(tag)@example.org")])]))
        let mary = await book.importPeople(records([NewPerson(givenName: "Mary", surname: surname,
                                                             values: [(email, [LDAPValue("mary2.\(tag)@example.org")])])]),
                                           options: ImportOptions(mergesByName: true))
        #expect(words(mary) == ["added"])
        #expect(!mary.outcomes[0].notes.contains { if case .possibleDuplicate = $0 { return true } else { return false } })
    }

    @Test("A shared email is the same person, unless another identifier (employee number, card UID) tells them apart")
    func emailWithConflictingIdentifiers() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, _, title) = try await fields(book)
        let number = try await book.field(named: "employee-number")
        let tag = UUID().uuidString.prefix(8).lowercased()
        let shared = LDAPValue("desk.\(tag)@example.org")
        _ = try await book.add(NewPerson(givenName: "Ann", surname: "Desk-\(tag)", values: [(email, [shared]), (number, ["100"])]))
        let other = await book.importPeople(records([NewPerson(givenName: "Bob", surname: "Desk-\(tag)",
                                                              values: [(email, [shared]), (number, ["200"])])]))
        #expect(words(other) == ["added"], "a different employee number: a different person")
        // Two people with that address now: a third card with it merges into neither.
        let third = await book.importPeople(records([NewPerson(givenName: "Cy", surname: "Desk-\(tag)", values: [(email, [shared]), (title, ["Clerk"])])]))
        #expect(words(third) == ["added"])
        #expect(third.outcomes[0].notes.contains { if case .possibleDuplicate(let of, sameEmail: true) = $0 { return of.count == 2 } else { return false } })
        #expect(try await stored(book).count == 3)
    }

    @Test("An LDIF record's DN is the person: namesakes under their own DNs, an existing DN filled in, a foreign DN moved under the people base")
    func distinguishedNames() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let registry = try await book.fieldRegistry()
        let base = try book.peopleBase()
        func record(_ uid: String, _ extra: [String: [String]], under parent: DistinguishedName? = nil) throws -> ImportRecord {
            var entry = LDAPEntry(dn: (parent ?? base).child("uid", LDAPValue(uid)), [
                "objectClass": ["top", "person", "organizationalPerson", "inetOrgPerson"], "uid": [uid], "cn": ["James Smith"],
                "sn": ["Smith"], "givenName": ["James"],
            ])
            for (name, values) in extra { entry[name] = values.map { LDAPValue($0) } }
            return try ImportRecord(ldif: entry, registry: registry)
        }
        let list = [try record("jsmith1", ["title": ["Accountant"]]), try record("jsmith2", ["title": ["Surgeon"]]),
                    try record("jsmith3", [:])]
        let first = await book.importPeople(list)
        #expect(words(first) == ["added", "added", "added"])
        #expect(first.outcomes.map(\.dn) == list.map(\.distinguishedName))
        #expect(first.containers == [base], "the people base is created once")
        let entries = try await stored(book)
        #expect(Set(entries.map { $0.strings("uid").first ?? "" }) == ["jsmith1", "jsmith2", "jsmith3"])
        #expect(entries.allSatisfy { $0.strings("objectClass").count == 4 }, "the classes a person derives from are kept as listed")

        let again = await book.importPeople([try record("jsmith1", ["title": ["Accountant", "Auditor"]]), list[1], list[2]])
        #expect(words(again) == ["updated", "unchanged", "unchanged"])
        #expect(again.outcomes[0].match == .distinguishedName)

        let foreign = try DistinguishedName(parsing: "ou=staff,dc=elsewhere,dc=org")
        let moved = await book.importPeople([try record("jsmith9", [:], under: foreign)])
        #expect(words(moved) == ["added"])
        #expect(moved.outcomes[0].dn == base.child("uid", "jsmith9"))
        #expect(moved.outcomes[0].notes.contains(.movedFrom(foreign.child("uid", "jsmith9"))))
    }

    @Test("Records that try to take over an account write nothing privileged, and say what they left out")
    func takeover() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let registry = try await book.fieldRegistry()
        let (email, _, _) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let adam = try await book.add(NewPerson(givenName: "Adam", surname: "Smith-\(tag)", values: [(email, [LDAPValue("adam.\(tag)@example.org")])]))
        let before = try #require(try await book.connection.read(adam.dn, attributes: ["*", "+"]))
        let entry = LDAPEntry(dn: adam.dn, [
            "objectClass": ["inetOrgPerson", "posixAccount"], "cn": ["Adam Smith", "root"], "sn": ["Smith-\(tag)"],
            "uid": ["root"], "userPassword": ["attacker-chosen"], "seeAlso": ["cn=admins,dc=example,dc=com"],
            "secretary": ["uid=evil,dc=example,dc=com"], "uidNumber": ["0"], "gidNumber": ["0"], "homeDirectory": ["/root"],
            "entryUUID": ["00000000-0000-0000-0000-000000000000"], "description": ["harmless"],
        ])
        let record = try ImportRecord(ldif: entry, registry: registry)
        let skipped = Set(record.skipped.map(\.attribute))
        #expect(skipped.isSuperset(of: ["userPassword", "seeAlso", "secretary", "uidNumber", "gidNumber", "homeDirectory",
                                       "entryUUID", "objectClass: posixAccount"]), "\(skipped)")
        let result = await book.importPeople([record])
        #expect(words(result) == ["updated"])
        let after = try #require(try await book.connection.read(adam.dn, attributes: ["*", "+"]))
        for name in ["userPassword", "seeAlso", "secretary", "uidNumber", "uid", "cn", "objectClass", "entryUUID"] {
            #expect(after[name] == before[name], "\(name) is unchanged")
        }
        #expect(after.strings("description") == ["harmless"], "the address-book value is added")
        let notes = result.outcomes[0].notes.flatMap { note -> [SkippedAttribute] in
            if case .skipped(let list) = note { return list } else { return [] }
        }
        #expect(notes.contains(SkippedAttribute("uid", .restricted(.identity))) && notes.contains(SkippedAttribute("cn", .keptStoredValue)))
    }

    @Test("A dry run says exactly what the real run then does, writing nothing")
    func dryRunIsTheRealRun() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let (email, phone, title) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        // Names of this test's own: the shared server holds other tests' Ada Lovelaces.
        let lovelace = "Lovelace-\(tag)", turing = "Turing-\(tag)"
        _ = try await book.add(NewPerson(givenName: "Ada", surname: lovelace, values: [(email, [LDAPValue("ada.\(tag)@example.org")])]))
        var list = records([
            NewPerson(givenName: "Ada", surname: lovelace, values: [(email, [LDAPValue("ada.\(tag)@example.org")]), (title, ["Countess"])]),
            NewPerson(givenName: "Ada", surname: lovelace, values: [(phone, ["+44 20 7946 0000"])]),
            NewPerson(givenName: "Ada", surname: lovelace, values: [(phone, ["+44 20 7946 0001"])]),
            NewPerson(givenName: "Alan", surname: turing, values: [(email, [LDAPValue("alan.\(tag)@example.org")])]),
            NewPerson(givenName: "A.", surname: turing, values: [(email, [LDAPValue("alan.\(tag)@example.org")]), (phone, ["+44 161 0"])]),
            NewPerson(givenName: "Bob", surname: "   "),
        ])
        list[2].cardUID = "ada-phone-\(tag)"
        let before = try await stored(book).map { $0.dn }
        let dry = await book.importPeople(list, options: ImportOptions(dryRun: true, batchSize: 2))
        #expect(try await stored(book).map { $0.dn } == before, "a dry run writes nothing")
        let real = await book.importPeople(list, options: ImportOptions(batchSize: 2))
        #expect(words(dry) == words(real))
        #expect(words(real) == ["updated", "added", "added", "added", "updated", "rejected"])
        #expect(dry.outcomes.map(\.dn) == real.outcomes.map(\.dn))
        #expect(dry.outcomes.map(\.match) == real.outcomes.map(\.match))
    }

    @Test("A photo someone already has is kept, reported; the other new values are added")
    func keepsExistingPhoto() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        let photo = try await book.field(named: "photo")
        let (email, _, _) = try await fields(book)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let first = BookDirectory.jpeg + [1, 2, 3]
        let second = BookDirectory.jpeg + [4, 5, 6]
        let grace = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(photo, [LDAPValue(bytes: first)])]))
        let again = records([NewPerson(givenName: "Grace", surname: "Hopper-\(tag)",
                                       values: [(photo, [LDAPValue(bytes: second)]), (email, [LDAPValue("grace.\(tag)@example.org")])])])
        let result = await book.importPeople(again, options: ImportOptions(mergesByName: true))
        guard case .updated(let attributes) = result.outcomes[0].result else {
            Issue.record("expected an update, got \(result.outcomes[0].result)")
            return
        }
        #expect(attributes == ["mail"])
        #expect(result.outcomes[0].notes.contains(.skipped([SkippedAttribute("photo", .keptStoredValue)])))
        let stored = try #require(try await book.person(at: grace.dn, fields: [photo, email]))
        #expect(stored.values(of: photo).map(\.bytes) == [first])
        #expect(stored.strings(of: email) == ["grace.\(tag)@example.org"])
    }

    @Test("A person the server refuses is reported alone; the others are imported")
    func oneRejected() async throws {
        let book = try await BookDirectory.book(try await BookDirectory.shared())
        var list = try await people(book, count: 10)
        list[4] = records([NewPerson(givenName: "No", surname: "   ")])[0]
        let result = await book.importPeople(list, options: ImportOptions(window: 4))
        #expect(words(result) == ["added", "added", "added", "added", "rejected", "added", "added", "added", "added", "added"])
    }

    @Test("Two imports of the same people at once, on two connections: everyone once")
    func concurrentImports() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let other = AddressBook(connection: try await BookDirectory.connection(server), configuration: book.configuration)
        var list = try await people(book, count: 300)
        // A third of them with card UIDs, a third with neither UID nor email.
        let (_, phone, _) = try await fields(book)
        for index in list.indices where index % 3 == 1 { list[index].cardUID = "card-\(index)-\(UUID().uuidString)" }
        for index in list.indices where index % 3 == 2 { list[index].person.values = [(phone, [LDAPValue("+1 555 \(2000 + index)")])] }
        let all = list
        async let first = book.importPeople(all, options: ImportOptions(window: 8, batchSize: 25))
        async let second = other.importPeople(all, options: ImportOptions(window: 8, batchSize: 25))
        let (a, b) = await (first, second)
        #expect(a.stoppedBy == nil && b.stoppedBy == nil)
        #expect(!words(a).contains("rejected") && !words(b).contains("rejected"), "\(words(a)) \(words(b))")
        let entries = try await stored(book)
        #expect(entries.count == 300, "each person once")
    }
}
