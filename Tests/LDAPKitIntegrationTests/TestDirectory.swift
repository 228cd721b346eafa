import Foundation
import LDAPKit
import SlapdKit
import Testing

/// Private slapd servers for the integration tests, started by the tests
/// themselves: one shared by the tests that only need a working directory,
/// and fresh ones for the tests that stop, pause or kill their server.
enum TestDirectory {
    static let suffix = "dc=example,dc=com"

    /// The shared server, started on first use.
    static func shared() async throws -> Slapd {
        try await SharedServer.instance.server()
    }

    /// A server of the caller's own, started; the caller stops it.
    static func makeServer(_ configure: (inout SlapdConfiguration) -> Void = { _ in }) async throws -> Slapd {
        var configuration = SlapdConfiguration(suffix: suffix)
        configure(&configuration)
        let server = try Slapd(configuration: configuration)
        try await server.start()
        return server
    }

    /// A connection bound as the server's root DN over `ldap://`, ignoring
    /// the machine's `ldap.conf`.
    static func rootConfiguration(_ server: Slapd, operationTimeout: Duration? = .seconds(20)) throws
        -> LDAPConnection.Configuration
    {
        LDAPConnection.Configuration(
            servers: [server.ldapURI],
            base: try DistinguishedName(parsing: suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN),
                                    password: .init(server.rootPassword)),
            networkTimeout: .seconds(5),
            operationTimeout: operationTimeout,
            systemDefaults: .ignored)
    }

    /// An anonymous connection to `server`.
    static func anonymousConnection(_ server: Slapd, pageSize: Int? = 500) throws -> LDAPConnection {
        LDAPConnection(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: suffix),
            networkTimeout: .seconds(5), operationTimeout: .seconds(20), pageSize: pageSize,
            systemDefaults: .ignored))
    }

    /// A connected root connection to `server`.
    static func rootConnection(_ server: Slapd, operationTimeout: Duration? = .seconds(20)) async throws
        -> LDAPConnection
    {
        try await LDAPConnection.connect(configuration: rootConfiguration(server, operationTimeout: operationTimeout))
    }

    /// Creates a fresh organizational unit for one test, so tests sharing a
    /// server never see each other's entries.
    static func makeContainer(_ connection: LDAPConnection, _ name: String = "test") async throws -> DistinguishedName {
        let dn = try DistinguishedName(parsing: suffix).child("ou", LDAPValue("\(name)-\(UUID().uuidString.prefix(8))"))
        try await connection.add(LDAPEntry(dn: dn, [
            "objectClass": ["organizationalUnit"],
            "ou": [dn.rdn!.attributes[0].value.string!],
        ]))
        return dn
    }

    /// Adds an inetOrgPerson under `parent`.
    @discardableResult
    static func addPerson(_ connection: LDAPConnection, under parent: DistinguishedName, given: String,
                          surname: String, extra: KeyValuePairs<String, [String]> = [:]) async throws
        -> DistinguishedName
    {
        let dn = parent.child("cn", LDAPValue("\(given) \(surname)"))
        var entry = LDAPEntry(dn: dn, [
            "objectClass": ["inetOrgPerson"],
            "cn": ["\(given) \(surname)"],
            "givenName": [given],
            "sn": [surname],
        ])
        for (name, values) in extra {
            entry[name] = values.map { LDAPValue($0) }
        }
        try await connection.add(entry)
        return dn
    }
}

/// Starts the shared server once for the whole test process.
private actor SharedServer {
    static let instance = SharedServer()
    private var started: Task<Slapd, any Error>?

    func server() async throws -> Slapd {
        if let started { return try await started.value }
        let task = Task {
            try await TestDirectory.makeServer { configuration in
                // A limit below the result sizes the paging tests use, so only
                // a search that really pages can read everything. (The root
                // DN is exempt from limits; those tests search anonymously.)
                configuration.databaseLimits = ["* size.soft=1000 size.hard=1000 size.prtotal=unlimited"]
            }
        }
        started = task
        return try await task.value
    }
}
