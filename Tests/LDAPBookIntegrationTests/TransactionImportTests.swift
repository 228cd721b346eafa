import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("Importing new people in transactions")
struct TransactionImportTests {
    private func people(_ book: AddressBook, count: Int, tag: String) async throws -> [NewPerson] {
        let email = try await book.field(named: "email")
        return (0..<count).map { index in
            NewPerson(givenName: "Given\(index % 5)", surname: "Surname\(index) \(tag)",
                      values: [(email, [LDAPValue("person\(index).\(tag)@example.org")])])
        }
    }

    private func createPeopleBase(of book: AddressBook, _ connection: LDAPConnection) async throws {
        let base = try book.peopleBase()
        try await connection.add(LDAPEntry(dn: base, ["objectClass": ["organizationalUnit"], "ou": [base.rdn!.attributes[0].value.string!]]))
    }

    private func added(_ results: [Result<ImportOutcome, any Error>]) -> [DistinguishedName?] {
        results.map { result in
            if case .success(.added(let dn)) = result { return dn }
            return nil
        }
    }

    @Test("New people go in transactions of the given size; everyone is added once, in order")
    func batches() async throws {
        let server = try await BookDirectory.shared()
        let proxy = try WriteLosingProxy(to: UInt16(server.port))
        defer { proxy.stop() }
        let book = try await proxy.book(server)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let list = try await people(book, count: 35, tag: String(tag))

        let results = try await book.importPeople(list, transactionSize: 10)
        #expect(added(results).allSatisfy { $0 != nil }, "\(results)")
        #expect(proxy.commitsForwarded == 4, "35 new people in transactions of at most 10")
        #expect(proxy.writesForwarded == 35 + 1, "one add per person, and the people base")
        let stored = try await BookDirectory.stored(book, server, attributes: ["mail", "sn"])
        #expect(stored.count == 35)
        // Each result names the entry of its own person.
        for (person, dn) in zip(list, added(results)) {
            let entry = stored.first { $0.dn == dn }
            #expect(entry?.strings("sn") == [person.surname])
        }
        let again = try await book.importPeople(list, transactionSize: 10)
        #expect(again.allSatisfy { if case .success(.unchanged) = $0 { true } else { false } })
        #expect(proxy.commitsForwarded == 4, "nothing new to add, so no transaction")
    }

    @Test("Someone who could be the same as a person in the batch waits for the next one, and is found")
    func duplicateInBatch() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let phone = try await book.field(named: "phone")
        let tag = UUID().uuidString.prefix(8).lowercased()
        let mail = LDAPValue("ada.\(tag)@example.org")
        let list = [
            NewPerson(givenName: "Ada", surname: "Lovelace-\(tag)", values: [(email, [mail])]),
            NewPerson(givenName: "Alan", surname: "Turing-\(tag)"),
            NewPerson(givenName: "Augusta Ada", surname: "King-\(tag)", values: [(email, [mail]), (phone, ["+44 20 7946 1815"])]),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)"),
        ]
        let results = try await book.importPeople(list, transactionSize: 100)
        #expect(words(results) == ["added", "added", "updated", "added"], "\(results)")
        let stored = try await BookDirectory.stored(book, server, attributes: ["mail", "telephoneNumber"])
        #expect(stored.count == 3)
        #expect(stored.first { $0.strings("mail") == [mail.lossyString] }?.strings("telephoneNumber") == ["+44 20 7946 1815"])
    }

    @Test("A transaction refused at the commit makes no one; its people are imported one by one")
    func refusedCommit() async throws {
        let server = try await BookDirectory.shared()
        let proxy = try WriteLosingProxy(to: UInt16(server.port))
        defer { proxy.stop() }
        let book = try await proxy.book(server, naming: .commonName)
        let tag = UUID().uuidString.prefix(8).lowercased()
        // Someone else holds the name Ada's entry would get, under another surname, so the
        // duplicate search does not find them but the add collides at the commit.
        let direct = try await BookDirectory.connection(server)
        try await createPeopleBase(of: book, direct)
        let squatter = try book.peopleBase().child("cn", LDAPValue("Ada Lovelace-\(tag)"))
        try await direct.add(LDAPEntry(dn: squatter, [
            "objectClass": ["inetOrgPerson"], "cn": ["Ada Lovelace-\(tag)"], "sn": ["Byron"], "givenName": ["Augusta"],
        ]))
        let list = [
            NewPerson(givenName: "Alan", surname: "Turing-\(tag)"),
            NewPerson(givenName: "Ada", surname: "Lovelace-\(tag)"),
            NewPerson(givenName: "No", surname: "   "),
            NewPerson(givenName: "Grace", surname: "Hopper-\(tag)"),
        ]
        let commitsBefore = proxy.commitsForwarded
        let results = try await book.importPeople(list, transactionSize: 10)
        #expect(proxy.commitsForwarded == commitsBefore + 1)
        let dns = added(results)
        #expect(dns[0] == (try book.peopleBase().child("cn", LDAPValue("Alan Turing-\(tag)"))))
        #expect(dns[1] == (try book.peopleBase().child("cn", LDAPValue("Ada Lovelace-\(tag) 2"))))
        #expect(dns[2] == nil, "the person with no surname is refused alone")
        #expect(dns[3] == (try book.peopleBase().child("cn", LDAPValue("Grace Hopper-\(tag)"))))
        let squatterNow = try await direct.read(squatter, attributes: ["sn", "givenName"])
        #expect(squatterNow?.strings("sn") == ["Byron"], "the other entry is kept as it was")
        #expect(try await BookDirectory.stored(book, server, attributes: ["cn"]).count == 4)
    }

    @Test("When a commit's request or reply is lost, everyone is read back and added once",
          arguments: [WriteLosingProxy.Loss.reply, .request])
    func lostCommit(_ loss: WriteLosingProxy.Loss) async throws {
        let server = try await BookDirectory.shared()
        let proxy = try WriteLosingProxy(to: UInt16(server.port))
        defer { proxy.stop() }
        let book = try await proxy.book(server)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let list = try await people(book, count: 6, tag: String(tag))
        try await createPeopleBase(of: book, try await BookDirectory.connection(server))
        let writesBefore = proxy.writesForwarded
        proxy.loseNextCommit(loss)

        let results = try await book.importPeople(list, transactionSize: 10)
        #expect(added(results).allSatisfy { $0 != nil }, "\(results)")
        let stored = try await BookDirectory.stored(book, server, attributes: ["mail"])
        #expect(stored.count == 6)
        #expect(Set(stored.flatMap { $0.strings("mail") }).count == 6, "no one was added twice")
        switch loss {
        case .reply:
            #expect(proxy.writesForwarded == writesBefore + 6, "the commit was made: nothing is sent again")
        case .request:
            #expect(proxy.writesForwarded == writesBefore + 12, "the commit never arrived: everyone is sent again")
        }
    }

    @Test("Many transactions in a row leave the server running, with everyone added")
    func manyTransactions() async throws {
        // A server of its own: OpenLDAP 2.5 crashes when a transaction's updates are sent
        // while others of it are still being queued, and this must not take others' down.
        let server = try Slapd(configuration: SlapdConfiguration(suffix: BookDirectory.suffix))
        defer { server.cleanup() }
        try await server.start()
        let book = try await BookDirectory.book(server)
        let list = try await people(book, count: 1_200, tag: "many")
        let results = try await book.importPeople(list, transactionSize: 30)
        #expect(server.isRunning, "the server survived 40 transactions")
        #expect(added(results).allSatisfy { $0 != nil })
        #expect(try await BookDirectory.stored(book, server, attributes: ["1.1"]).count == 1_200)
    }
}
