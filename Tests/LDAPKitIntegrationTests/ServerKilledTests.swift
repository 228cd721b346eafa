import Foundation
import LDAPKit
import SlapdKit
import Testing

/// slapd killed while operations are in flight: each ends in an error, never a hang, and
/// the connection works again once a server answers.
@Suite("A server killed in the middle of operations", .serialized)
struct ServerKilledTests {
    /// `count` people bulk-loaded under `ou=people` before the first start.
    private func loadedServer(_ count: Int) async throws -> Slapd {
        var ldif = "dn: ou=people,dc=example,dc=com\nobjectClass: organizationalUnit\nou: people\n\n"
        for index in 0..<count {
            ldif += "dn: uid=p\(index),ou=people,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: p\(index)\ncn: Person \(index)\nsn: Person\(index)\ndescription: \(String(repeating: "x", count: 200))\n\n"
        }
        let server = try Slapd(configuration: SlapdConfiguration())
        try server.bulkLoad(ldif: ldif)
        try await server.start()
        return server
    }

    @Test("killed during a paged search: the iteration throws serverDown after the entries received, and the next search reconnects")
    func killedMidSearch() async throws {
        let server = try await loadedServer(5_000)
        defer { server.cleanup() }
        let connection = try await TestDirectory.rootConnection(server)
        var received = 0
        let error = await #expect(throws: LDAPError.self) {
            for try await _ in connection.search(filter: .equal("objectClass", "inetOrgPerson"), pageSize: 100) {
                received += 1
                if received == 150 { await server.kill() }
            }
        }
        #expect(error?.isServerDown == true, "\(String(describing: error))")
        // serverDown, not the operation timeout: the loss was noticed, not waited out.
        #expect(received >= 150 && received < 5_000)

        try await server.start()
        let all = try await connection.search(filter: .equal("objectClass", "inetOrgPerson"), attributes: ["1.1"], pageSize: 1000).collect()
        #expect(all.count == 5_000)
        await connection.close()
    }

    @Test("killed with writes in flight: every one fails with serverDown, and none is sent again by itself")
    func killedMidWrites() async throws {
        let server = try await loadedServer(1)
        defer { server.cleanup() }
        let connection = try await TestDirectory.rootConnection(server)
        let base = try DistinguishedName(parsing: "ou=people,dc=example,dc=com")
        // Stopped, slapd leaves the requests unread: they are all in flight when it dies.
        server.pause()
        let failures = await withTaskGroup(of: LDAPError?.self) { group in
            for index in 0..<50 {
                group.addTask {
                    let entry = LDAPEntry(dn: base.child("uid", LDAPValue("w\(index)")), [
                        "objectClass": ["inetOrgPerson"], "uid": ["w\(index)"], "cn": ["W \(index)"], "sn": ["W"],
                    ])
                    do {
                        try await connection.add(entry)
                        return nil
                    } catch {
                        return error as? LDAPError
                    }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(300))
                await server.kill()
                return LDAPError(.other, message: "the killer")
            }
            var errors: [LDAPError?] = []
            for await error in group where error?.message != "the killer" { errors.append(error) }
            return errors
        }
        #expect(failures.count == 50)
        // serverDown, not the operation timeout: the loss was noticed, not waited out.
        #expect(failures.allSatisfy { $0?.isServerDown == true }, "\(failures.compactMap { $0?.code })")

        try await server.start()
        let stored = try await connection.search(base: base, filter: .prefix("uid", "w"), attributes: ["uid"]).collect()
        #expect(stored.isEmpty, "a write the caller was told failed must not be sent again behind its back")
        // The caller decides: written again now, each lands once.
        for index in 0..<50 {
            try await connection.add(LDAPEntry(dn: base.child("uid", LDAPValue("w\(index)")), [
                "objectClass": ["inetOrgPerson"], "uid": ["w\(index)"], "cn": ["W \(index)"], "sn": ["W"],
            ]))
        }
        #expect(try await connection.search(base: base, filter: .prefix("uid", "w"), attributes: ["uid"]).collect().count == 50)
        await connection.close()
    }
}
