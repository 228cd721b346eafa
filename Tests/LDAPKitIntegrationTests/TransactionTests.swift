import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("Transactions (RFC 5805) on a real slapd")
struct TransactionTests {
    private func person(_ name: String, under container: DistinguishedName) -> LDAPEntry {
        LDAPEntry(dn: container.child("cn", LDAPValue(name)), [
            "objectClass": ["inetOrgPerson"], "cn": [name], "sn": [String(name.split(separator: " ").last!)],
        ])
    }

    private func names(under container: DistinguishedName, _ connection: LDAPConnection) async throws -> Set<String> {
        var names: Set<String> = []
        for try await entry in connection.search(base: container, scope: .oneLevel, filter: .present("cn"),
                                                 attributes: ["cn"]) {
            names.formUnion(entry.strings("cn"))
        }
        return names
    }

    @Test("Updates sent in a transaction are made together at the commit, and not before")
    func commit() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let observer = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "txn-commit")
        let kept = try await TestDirectory.addPerson(connection, under: container, given: "Kept", surname: "Person")
        let gone = try await TestDirectory.addPerson(connection, under: container, given: "Gone", surname: "Person")

        let transaction = try await connection.startTransaction()
        for name in ["Ada Lovelace", "Alan Turing", "Grace Hopper"] {
            try await connection.add(person(name, under: container), controls: [transaction.control])
        }
        try await connection.modify(kept, [.add("mail", "kept@example.com")], controls: [transaction.control])
        try await connection.delete(gone, controls: [transaction.control])

        let before: Set<String> = ["Kept Person", "Gone Person"]
        #expect(try await names(under: container, connection) == before, "nothing is made before the commit")
        #expect(try await names(under: container, observer) == before)

        try await connection.commit(transaction)
        #expect(try await names(under: container, observer)
            == ["Kept Person", "Ada Lovelace", "Alan Turing", "Grace Hopper"])
        #expect(try await observer.read(kept, attributes: ["mail"])?.strings("mail") == ["kept@example.com"])
    }

    @Test("An aborted transaction makes none of its updates")
    func abort() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "txn-abort")
        let transaction = try await connection.startTransaction()
        try await connection.add(person("Ada Lovelace", under: container), controls: [transaction.control])
        try await connection.add(person("Alan Turing", under: container), controls: [transaction.control])
        try await connection.abort(transaction)
        #expect(try await names(under: container, connection).isEmpty)

        // The connection can start another one afterwards.
        let next = try await connection.startTransaction()
        try await connection.add(person("Grace Hopper", under: container), controls: [next.control])
        try await connection.commit(next)
        #expect(try await names(under: container, connection) == ["Grace Hopper"])
    }

    @Test("When one update fails at the commit, none is made, and the error names the update's result")
    func failedUpdate() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "txn-fail")
        let existing = try await TestDirectory.addPerson(connection, under: container, given: "Alan", surname: "Turing",
                                                         extra: ["mail": ["alan@example.com"]])

        let transaction = try await connection.startTransaction()
        try await connection.add(person("Ada Lovelace", under: container), controls: [transaction.control])
        var clash = person("Alan Turing", under: container)
        clash["mail"] = ["someone.else@example.com"]
        try await connection.add(clash, controls: [transaction.control])
        try await connection.add(person("Grace Hopper", under: container), controls: [transaction.control])
        let error = await #expect(throws: LDAPError.self) { try await connection.commit(transaction) }
        #expect(error?.code == .entryAlreadyExists)
        #expect(error?.operation == "commit transaction")
        #expect(error?.description.contains("none of its updates was made") == true, "\(String(describing: error))")

        #expect(try await names(under: container, connection) == ["Alan Turing"])
        #expect(try await connection.read(existing, attributes: ["mail"])?.strings("mail") == ["alan@example.com"])
    }

    @Test("An update naming a transaction that is no longer open is refused and not made")
    func closedTransaction() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "txn-closed")
        let transaction = try await connection.startTransaction()
        try await connection.add(person("Ada Lovelace", under: container), controls: [transaction.control])
        try await connection.commit(transaction)

        let late = await #expect(throws: LDAPError.self) {
            try await connection.add(person("Alan Turing", under: container), controls: [transaction.control])
        }
        #expect(late?.code == .invalidTransactionIdentifier)
        let again = await #expect(throws: LDAPError.self) { try await connection.commit(transaction) }
        #expect(again?.code == .invalidTransactionIdentifier)
        #expect(try await names(under: container, connection) == ["Ada Lovelace"])
    }

    @Test("OpenLDAP keeps one transaction per connection: a second start is busy")
    func oneAtATime() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let transaction = try await connection.startTransaction()
        let second = await #expect(throws: LDAPError.self) { try await connection.startTransaction() }
        #expect(second?.code == .busy)
        try await connection.abort(transaction)
    }
}
