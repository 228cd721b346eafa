import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

/// A long-running address book whose server goes away and comes back, or hangs.
@Suite("An address book across a lost or hung connection", .serialized)
struct ReconnectionTests {
    private func book(_ server: Slapd, operationTimeout: Duration = .seconds(20)) throws -> AddressBook {
        let connection = LDAPConnection(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: BookDirectory.suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            networkTimeout: .seconds(5), operationTimeout: operationTimeout, systemDefaults: .ignored))
        let base = try DistinguishedName(parsing: BookDirectory.suffix).child("ou", LDAPValue("people"))
        return AddressBook(connection: connection, configuration: .init(peopleBase: base))
    }

    @Test("After the server restarts, the next operation reconnects and binds again: writes that need the bind succeed")
    func reconnectsAndBindsAgain() async throws {
        let server = try Slapd(configuration: SlapdConfiguration(suffix: BookDirectory.suffix))
        try await server.start()
        defer { server.cleanup() }
        let book = try book(server)
        let email = try await book.field(named: "email")
        let ada = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, ["ada@example.org"])]))

        await server.kill()
        await #expect(throws: LDAPError.self) { _ = try await book.person(at: ada.dn) }
        try await server.start()

        // Anonymous writes are refused by the test server: this one succeeds only bound.
        let updated = try await book.add(["countess@example.org"], to: email, of: ada)
        #expect(Set(updated.values(of: email).compactMap(\.string)) == ["ada@example.org", "countess@example.org"])
        #expect(try await book.connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
        await book.connection.close()
        await server.stop()
    }

    @Test("An add whose reply does not come within the timeout fails at once, saying so, and is never sent again")
    func unansweredAddIsNotRepeated() async throws {
        let server = try await BookDirectory.shared()
        let proxy = try WriteLosingProxy(to: UInt16(server.port))
        defer { proxy.stop() }
        let book = try await proxy.book(server, operationTimeout: .seconds(1))
        let email = try await book.field(named: "email")
        _ = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper"))
        let before = proxy.writesForwarded

        // The server makes the add; its reply is held past the client's timeout, then lost.
        proxy.loseNextWrite(.reply) { Thread.sleep(forTimeInterval: 1.5) }
        // A surname of its own: the server is shared, and namesakes are looked for everywhere in it.
        let surname = "Turing-\(UUID().uuidString.prefix(8))"
        let error = await #expect(throws: LDAPError.self) {
            _ = try await book.add(NewPerson(givenName: "Alan", surname: surname, values: [(email, ["alan@example.org"])]))
        }
        // Reading the entry to check would have found the add made and reported success.
        #expect(error?.code == .timeout)
        #expect(error?.description.contains("is not known; look before trying again") == true, "\(String(describing: error))")
        #expect(proxy.writesForwarded - before == 1, "sent once, never again")
        // The server may have made it, or dropped it with the connection the client left:
        // once at most, never twice.
        try await Task.sleep(for: .seconds(2))
        #expect(try await book.namesakes(givenName: "Alan", surname: surname).count <= 1)
        #expect(proxy.writesForwarded - before == 1)
    }
}
