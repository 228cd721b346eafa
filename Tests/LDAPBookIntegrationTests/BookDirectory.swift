import Foundation
import LDAPBook
import LDAPKit
import SlapdKit

/// Private slapd servers for the address-book tests, started by the tests.
enum BookDirectory {
    static let suffix = "dc=example,dc=com"

    /// The shared server, with ldapbook's schema (SlapdKit's default).
    static func shared() async throws -> Slapd {
        try await SharedBookServer.instance.server()
    }

    /// A root connection to `server`.
    static func connection(_ server: Slapd) async throws -> LDAPConnection {
        try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI],
            base: try DistinguishedName(parsing: suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN),
                                    password: .init(server.rootPassword)),
            networkTimeout: .seconds(5), operationTimeout: .seconds(20), systemDefaults: .ignored))
    }

    /// An address book whose people base is a fresh container of its own
    /// (not yet created), so tests sharing a server never meet.
    static func book(_ server: Slapd, naming: EntryNaming = .generatedUID) async throws -> AddressBook {
        let connection = try await connection(server)
        let base = try DistinguishedName(parsing: suffix).child("ou", LDAPValue("people-\(UUID().uuidString.prefix(8))"))
        return AddressBook(connection: connection, configuration: .init(peopleBase: base, naming: naming))
    }

    /// A small valid JPEG header followed by bytes of every value.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]
        + (0...255).map { UInt8($0) } + [0xFF, 0xD9]
}

private actor SharedBookServer {
    static let instance = SharedBookServer()
    private var started: Task<Slapd, any Error>?

    func server() async throws -> Slapd {
        if let started { return try await started.value }
        let task = Task {
            let server = try Slapd(configuration: SlapdConfiguration(suffix: BookDirectory.suffix))
            try await server.start()
            return server
        }
        started = task
        return try await task.value
    }
}

/// Import outcomes as short words, in order: added, updated, unchanged, rejected, not tried or unknown.
func words(_ result: ImportResult) -> [String] {
    result.outcomes.map { outcome in
        switch outcome.result {
        case .added: "added"
        case .updated: "updated"
        case .unchanged: "unchanged"
        case .rejected: "rejected"
        case .refused: "refused"
        case .notTried: "not tried"
        case .unknown: "unknown"
        }
    }
}

/// Records of `people`, as an import of cards without UIDs sees them.
func records(_ people: [NewPerson]) -> [ImportRecord] {
    people.map { person in
        var stored = person
        stored.rules = .stored
        return ImportRecord(person: stored)
    }
}
