import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("Connecting, binding and failing against real slapd servers")
struct ConnectionTests {
    @Test("who-am-I, the root DSE and the subschema")
    func serverInformation() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")

        let dse = try await connection.rootDSE()
        #expect(dse.strings("namingContexts").map { $0.lowercased() }.contains(TestDirectory.suffix))
        #expect(dse.strings("supportedControl").contains("1.2.840.113556.1.4.319"))
        #expect(dse.strings("supportedExtension").contains("1.3.6.1.4.1.4203.1.11.3"))

        let schema = try await connection.subschema()
        #expect(schema.strings("attributeTypes").contains { $0.contains("'givenName'") })
        #expect(schema.strings("objectClasses").contains { $0.contains("NAME 'inetOrgPerson'") })
        #expect(!schema.strings("ldapSyntaxes").isEmpty)
    }

    @Test("anonymous who-am-I is empty")
    func anonymousIdentity() async throws {
        let server = try await TestDirectory.shared()
        let connection = try TestDirectory.anonymousConnection(server)
        #expect(try await connection.whoAmI() == "")
    }

    @Test("SASL EXTERNAL over ldapi maps the process owner to the root DN")
    func saslExternalOverLDAPI() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapiURI], authentication: .saslExternal(), systemDefaults: .ignored))
        #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
    }

    @Test("a wrong password is invalidCredentials and is never shown")
    func invalidCredentials() async throws {
        let server = try await TestDirectory.shared()
        var configuration = try TestDirectory.rootConfiguration(server)
        configuration.authentication = .simple(dn: try DistinguishedName(parsing: server.rootDN),
                                               password: .init("wrong-horse-battery"))
        let error = await #expect(throws: LDAPError.self) {
            _ = try await LDAPConnection.connect(configuration: configuration)
        }
        #expect(error?.code == .invalidCredentials)
        #expect(error?.isInvalidCredentials == true)
        #expect(error.map { "\($0)" }?.contains("wrong-horse-battery") == false)
        #expect(!"\(configuration)".contains("wrong-horse-battery"))
        #expect(!String(reflecting: configuration).contains("wrong-horse-battery"))
    }

    @Test("no server listening is serverDown, quickly")
    func serverNotRunning() async throws {
        let port = try deadPort()
        let connection = LDAPConnection(configuration: .init(
            servers: ["ldap://127.0.0.1:\(port)"], base: try DistinguishedName(parsing: TestDirectory.suffix),
            networkTimeout: .seconds(3), systemDefaults: .ignored))
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.search().collect()
        }
        #expect(error?.isServerDown == true)
        #expect(error?.code == .serverDown)
        #expect(error?.description.contains("127.0.0.1:\(port)") == true, "the error names the server")
    }

    @Test("a URI list skips a dead server and uses the live one")
    func uriListFailover() async throws {
        let server = try await TestDirectory.shared()
        var configuration = try TestDirectory.rootConfiguration(server)
        configuration.servers = ["ldap://127.0.0.1:\(try deadPort())", server.ldapURI]
        let connection = try await LDAPConnection.connect(configuration: configuration)
        #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
    }

    @Test("a hung server (SIGSTOP) of a URI list is left after the timeout for the next one, bound or anonymous")
    func hungServerIsLeft() async throws {
        let hung = try await TestDirectory.makeServer()
        let live = try await TestDirectory.shared()
        hung.pause()
        defer { hung.resume() }
        var configuration = try TestDirectory.rootConfiguration(live, operationTimeout: .seconds(1))
        configuration.servers = [hung.ldapURI, live.ldapURI]
        let bound = try await LDAPConnection.connect(configuration: configuration)
        #expect(bound.server == live.ldapURI)
        #expect(try await bound.whoAmI().lowercased() == "dn:\(live.rootDN.lowercased())")

        configuration.authentication = .anonymous
        let anonymous = LDAPConnection(configuration: configuration)
        let entries = try await anonymous.search(scope: .base, attributes: ["1.1"]).collect()
        #expect(entries.count == 1, "the first operation, not only connect(), finds the live server")
        #expect(anonymous.server == live.ldapURI)

        configuration.servers = [hung.ldapURI]
        let alone = LDAPConnection(configuration: configuration)
        let error = await #expect(throws: LDAPError.self) { try await alone.connect() }
        #expect(error?.code == .timeout)
        hung.resume()
        await hung.stop()
    }

    @Test("a session whose server hangs is left: the operation times out, the next one goes to the next server")
    func sessionOfHungServerIsLeft() async throws {
        let first = try await TestDirectory.makeServer()
        let second = try await TestDirectory.shared()
        let connection = LDAPConnection(configuration: .init(
            servers: [first.ldapURI, second.ldapURI], base: try DistinguishedName(parsing: TestDirectory.suffix),
            networkTimeout: .seconds(1), operationTimeout: .seconds(1), systemDefaults: .ignored))
        #expect(try await connection.search(scope: .base, attributes: ["1.1"]).collect().count == 1)
        #expect(connection.server == first.ldapURI)
        first.pause()
        defer { first.resume() }
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.search(scope: .base, attributes: ["1.1"]).collect()
        }
        #expect(error?.code == .timeout)
        #expect(try await connection.search(scope: .base, attributes: ["1.1"]).collect().count == 1)
        #expect(connection.server == second.ldapURI)
        first.resume()
        await first.stop()
    }

    @Test("StartTLS against a server without TLS fails instead of going on in clear")
    func startTLSFailureIsAnError() async throws {
        let server = try await TestDirectory.shared()
        var configuration = try TestDirectory.rootConfiguration(server)
        configuration.tls.startTLS = true
        let error = await #expect(throws: LDAPError.self) {
            _ = try await LDAPConnection.connect(configuration: configuration)
        }
        #expect(error?.operation == "StartTLS")
    }

    @Test("an operation against a stopped (SIGSTOP) server times out, and the connection recovers")
    func timeoutAgainstPausedServer() async throws {
        let server = try await TestDirectory.makeServer()
        let connection = try await TestDirectory.rootConnection(server, operationTimeout: .seconds(1))
        #expect(try await connection.whoAmI() != "")
        server.pause()
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.whoAmI()
        }
        let elapsed = started.duration(to: clock.now)
        #expect(error?.code == .timeout)
        #expect(error?.isTimeout == true)
        // Never before the timeout. (How late it may come is not asserted: on a loaded
        // machine that is a matter of scheduling, not of correctness.)
        #expect(elapsed >= .milliseconds(900))

        server.resume()
        #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
        await server.stop()
    }

    @Test("cancelling the task abandons the operation and the connection goes on")
    func cancellation() async throws {
        let server = try await TestDirectory.makeServer()
        let connection = try await TestDirectory.rootConnection(server, operationTimeout: nil)
        server.pause()
        let waiting = Task { try await connection.whoAmI() }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }

        let search = Task { try await connection.search().collect() }
        try await Task.sleep(for: .milliseconds(200))
        search.cancel()
        let searchResult = await search.result
        #expect(throws: CancellationError.self) { try searchResult.get() }

        server.resume()
        #expect(try await connection.whoAmI() != "")
        await server.stop()
    }

    @Test("a connection lost to a restarted server is re-established by the next operation")
    func reconnectAfterRestart() async throws {
        let server = try await TestDirectory.makeServer()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "restart")
        await server.kill()
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.read(container)
        }
        #expect(error?.isServerDown == true)
        try await server.start()
        let entry = try await connection.read(container)
        #expect(entry?.dn == container)
        #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())",
                "the reconnection binds again, never anonymously")
        await server.stop()
    }

    @Test("operations after close fail cleanly")
    func closedConnection() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        await connection.close()
        let error = await #expect(throws: LDAPError.self) { _ = try await connection.whoAmI() }
        #expect(error?.code == .serverDown)
    }

    @Test("a search with no base anywhere is a parameter error")
    func searchWithoutBase() async throws {
        let connection = LDAPConnection(configuration: .init(servers: ["ldap://127.0.0.1:9"], systemDefaults: .ignored))
        let error = await #expect(throws: LDAPError.self) { _ = try await connection.search().collect() }
        #expect(error?.code == .paramError)
    }

    @Test("no server at all with defaults ignored is a parameter error")
    func noServerConfigured() async throws {
        let connection = LDAPConnection(configuration: .init(systemDefaults: .ignored))
        let error = await #expect(throws: LDAPError.self) { try await connection.connect() }
        #expect(error?.code == .paramError)
    }
}

/// A loopback port with nothing listening on it (one slapd managers never hand out).
func deadPort() throws -> Int {
    try Slapd.freeLoopbackPort()
}
