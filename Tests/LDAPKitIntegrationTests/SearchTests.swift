import Foundation
@testable import LDAPKit
import SlapdKit
import Testing

@Suite("Searching a real slapd")
struct SearchTests {
    /// 2,500 people added over one connection with many adds in flight.
    private func populate(_ connection: LDAPConnection, count: Int) async throws -> DistinguishedName {
        let container = try await TestDirectory.makeContainer(connection, "paging")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in stride(from: 0, to: count, by: 250) {
                group.addTask {
                    for index in batch..<min(batch + 250, count) {
                        try await TestDirectory.addPerson(connection, under: container, given: "Person",
                                                          surname: "Number\(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        return container
    }

    @Test("a paged search returns every one of 2,500 entries exactly once")
    func pagedSearchReturnsEveryEntryOnce() async throws {
        let server = try await TestDirectory.shared()
        let root = try await TestDirectory.rootConnection(server)
        let container = try await populate(root, count: 2500)

        let anonymous = try TestDirectory.anonymousConnection(server, pageSize: 100)
        var seen = Set<String>()
        var total = 0
        for try await entry in anonymous.search(base: container, scope: .oneLevel,
                                                filter: .equal("objectClass", "inetOrgPerson"),
                                                attributes: ["sn"]) {
            total += 1
            seen.insert(entry.string("sn") ?? "")
        }
        #expect(total == 2500)
        #expect(seen.count == 2500)
        #expect(seen.contains("Number0") && seen.contains("Number2499"))

        // The same search without paging runs into the server's limit of 1,000,
        // which shows that the search above really paged.
        let unpaged = try TestDirectory.anonymousConnection(server, pageSize: nil)
        var unpagedCount = 0
        let error = await #expect(throws: LDAPError.self) {
            for try await _ in unpaged.search(base: container, scope: .oneLevel,
                                              filter: .equal("objectClass", "inetOrgPerson")) {
                unpagedCount += 1
            }
        }
        #expect(error?.code == .sizeLimitExceeded)
        #expect(unpagedCount == 1000)
    }

    @Test("leaving a paged search early abandons it and the connection goes on")
    func leavingEarlyAbandonsTheSearch() async throws {
        let server = try await TestDirectory.shared()
        let root = try await TestDirectory.rootConnection(server)
        let container = try await populate(root, count: 300)
        var taken = 0
        for try await _ in root.search(base: container, scope: .oneLevel, pageSize: 50) {
            taken += 1
            if taken == 70 { break }
        }
        #expect(taken == 70)
        let count = try await root.search(base: container, scope: .oneLevel, attributes: ["1.1"]).collect().count
        #expect(count == 300)
    }

    @Test("typesOnly returns the attributes' names, without their values")
    func typesOnly() async throws {
        let server = try await TestDirectory.shared()
        let root = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(root, "types")
        try await TestDirectory.addPerson(root, under: container, given: "Tia", surname: "Types", extra: ["mail": ["tia@example.com"]])
        let entries = try await root.search(base: container, filter: .equal("sn", "Types"), attributes: ["*"], typesOnly: true).collect()
        let entry = try #require(entries.first)
        #expect(Set(entry.attributes.map { $0.name.lowercased() }).isSuperset(of: ["cn", "sn", "givenname", "mail", "objectclass"]))
        #expect(entry.attributes.allSatisfy { $0.values.isEmpty })
    }

    @Test("50 searches in flight on one connection all get their own answers")
    func concurrentSearchesOnOneConnection() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "concurrent")
        for index in 0..<50 {
            try await TestDirectory.addPerson(connection, under: container, given: "Given\(index)",
                                              surname: "Surname\(index)",
                                              extra: ["mail": ["person\(index)@example.com"]])
        }
        let results = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let entries = try await connection.search(
                        base: container, filter: .equal("sn", LDAPValue("Surname\(index)")),
                        attributes: ["mail"]).collect()
                    return (index, entries.flatMap { $0.strings("mail") })
                }
            }
            var results: [Int: [String]] = [:]
            for try await (index, mails) in group {
                results[index] = mails
            }
            return results
        }
        #expect(results.count == 50)
        for index in 0..<50 {
            #expect(results[index] == ["person\(index)@example.com"])
        }
    }

    @Test("user text in a filter cannot widen the search", arguments: [
        "*", "*)(uid=*", "*)(|(objectClass=*)", "\\", "Lovelace\\", "\u{0}", "\\00", "Love*", "(sn=*)",
    ])
    func injectionDoesNotWidenASearch(_ hostile: String) async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "injection")
        try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Lovelace")
        try await TestDirectory.addPerson(connection, under: container, given: "Alan", surname: "Turing")

        let equality = try await connection.search(base: container, filter: .equal("sn", LDAPValue(hostile))).collect()
        #expect(equality.isEmpty)
        let prefix = try await connection.search(base: container, filter: .prefix("sn", LDAPValue(hostile))).collect()
        #expect(prefix.isEmpty)
    }

    @Test("prefix, presence and boolean filters select what they say")
    func filtersSelectTheRightEntries() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "filters")
        try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Lovelace",
                                          extra: ["mail": ["ada@example.com"]])
        try await TestDirectory.addPerson(connection, under: container, given: "Alan", surname: "Turing")
        try await TestDirectory.addPerson(connection, under: container, given: "Grace", surname: "Hopper",
                                          extra: ["mail": ["grace@example.com", "amazing@example.com"]])
        try await TestDirectory.addPerson(connection, under: container, given: "Zoë", surname: "Ångström")

        func surnames(_ filter: LDAPFilter) async throws -> Set<String> {
            Set(try await connection.search(base: container, filter: filter, attributes: ["sn"])
                .collect().compactMap { $0.string("sn") })
        }
        #expect(try await surnames(.prefix("givenName", "a")) == ["Lovelace", "Turing"])
        #expect(try await surnames(.present("mail")) == ["Lovelace", "Hopper"])
        #expect(try await surnames(.and([.prefix("givenName", "A"), .present("mail")])) == ["Lovelace"])
        #expect(try await surnames(.or([.equal("sn", "Turing"), .equal("mail", "amazing@example.com")]))
            == ["Turing", "Hopper"])
        #expect(try await surnames(.prefix("sn", "Ång")) == ["Ångström"])
        #expect(try await surnames(.prefix("givenName", "zo")) == ["Ångström"], "caseIgnoreSubstringsMatch")
        #expect(try await surnames(.prefix("givenName", "Zx")).isEmpty)
    }

    @Test("a base that does not exist is noSuchObject with the matched DN")
    func missingBaseIsNoSuchObject() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let missing = try DistinguishedName(parsing: "ou=missing,ou=nowhere,\(TestDirectory.suffix)")
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.search(base: missing).collect()
        }
        #expect(error?.code == .noSuchObject)
        #expect(error?.matchedDN.lowercased() == TestDirectory.suffix)
        #expect(try await connection.read(missing) == nil)
    }

    @Test("entries that arrived are handed on while the server stays silent: a persistent search")
    func entriesBeforeSilence() async throws {
        // syncprov answers the Sync Request control (RFC 4533); in refreshAndPersist mode it
        // sends the present entries and then keeps the search open, silent until a change.
        let server = try await TestDirectory.makeServer { $0.extraModules = ["syncprov"] }
        try await server.apply(ldif: """
            dn: olcOverlay=syncprov,olcDatabase={1}mdb,cn=config
            changetype: add
            objectClass: olcOverlayConfig
            objectClass: olcSyncProvConfig
            olcOverlay: syncprov

            """)
        let connection = try await TestDirectory.rootConnection(server, operationTimeout: nil)
        let base = try await TestDirectory.makeContainer(connection)
        for index in 1...3 {
            try await TestDirectory.addPerson(connection, under: base, given: "Quiet\(index)", surname: "Reader")
        }
        var request = BERWriter()
        request.writeSequence { $0.writeEnumerated(3) }
        let persist = LDAPControl(oid: "1.3.6.1.4.1.4203.1.9.1.1", isCritical: true, value: request.bytes)
        let results = connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson"), attributes: ["cn"],
                                        pageSize: 0, controls: [persist])

        // Fewer entries than a batch, and no end of the search: they must not wait for either.
        let reading = Task {
            var names: [String] = []
            for try await entry in results {
                names.append(entry.string("cn") ?? "")
                if names.count == 3 { break }
            }
            return names
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            reading.cancel()
        }
        let names = try await reading.value
        watchdog.cancel()
        #expect(names.sorted() == ["Quiet1 Reader", "Quiet2 Reader", "Quiet3 Reader"])
        await server.stop()
    }
}
