import Foundation
import Testing
@testable import SlapdKit

/// Two slapd servers in multi-provider replication, configured by ``SlapdConfiguration/Replication``.
@Suite("Multi-provider replication between two private servers", .serialized)
struct ReplicationTests {
    /// Starts two servers that replicate with each other; only the first has the suffix entry.
    private func startPair() async throws -> (Slapd, Slapd) {
        let group = try Slapd.replicatedGroup(of: 2, configuration: SlapdConfiguration(suffix: "dc=replicated,dc=example"))
        for server in group { try await server.start() }
        return (group[0], group[1])
    }

    /// Searches `server` for `filter` until it finds `count` entries or `timeout` passes.
    private func waitForEntries(_ server: Slapd, _ filter: String, count: Int, timeout: Duration = .seconds(30)) async -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var output = ""
        repeat {
            output = await Tool.search(server, filter: filter, attributes: ["mail"]).output
            if Tool.entryCount(output) == count { return output }
            try? await Task.sleep(for: .milliseconds(100))
        } while clock.now < deadline
        return output
    }

    private func person(_ uid: String, mail: String) -> String {
        """
        dn: uid=\(uid),dc=replicated,dc=example
        objectClass: inetOrgPerson
        uid: \(uid)
        cn: \(uid)
        sn: \(uid)
        mail: \(mail)

        """
    }

    @Test("Entries added on either server reach the other; the suffix entry replicates too")
    func bothDirections() async throws {
        let (first, second) = try await startPair()
        defer { first.cleanup(); second.cleanup() }

        #expect(Tool.entryCount(await waitForEntries(second, "(dc=replicated)", count: 1)) == 1)
        #expect(try await Tool.add(first, ldif: person("ada", mail: "ada@example.org")).status?.isSuccess == true)
        #expect(try await Tool.add(second, ldif: person("grace", mail: "grace@example.org")).status?.isSuccess == true)
        #expect(Tool.entryCount(await waitForEntries(second, "(uid=ada)", count: 1)) == 1)
        #expect(Tool.entryCount(await waitForEntries(first, "(uid=grace)", count: 1)) == 1)
    }

    @Test("Values added to one person on both servers at once all survive; a stopped server catches up")
    func concurrentValuesAndCatchUp() async throws {
        let (first, second) = try await startPair()
        defer { first.cleanup(); second.cleanup() }
        #expect(try await Tool.add(first, ldif: person("alan", mail: "alan@example.org")).status?.isSuccess == true)
        #expect(Tool.entryCount(await waitForEntries(second, "(uid=alan)", count: 1)) == 1)

        func addMail(_ server: Slapd, _ mail: String) async -> Bool {
            let ldif = "dn: uid=alan,dc=replicated,dc=example\nchangetype: modify\nadd: mail\nmail: \(mail)\n"
            let file = server.directory.appendingPathComponent("modify-\(UUID().uuidString).ldif")
            guard (try? ldif.write(to: file, atomically: true, encoding: .utf8)) != nil else { return false }
            let result = await Tool.run("/usr/bin/ldapmodify", ["-x", "-H", server.ldapURI, "-D", server.rootDN,
                                                                  "-y", Tool.passwordFile(server), "-f", file.path])
            return result.status?.isSuccess == true
        }
        async let onFirst = addMail(first, "alan@first.example")
        async let onSecond = addMail(second, "alan@second.example")
        #expect(await (onFirst, onSecond) == (true, true))
        let all = "(&(uid=alan)(mail=alan@example.org)(mail=alan@first.example)(mail=alan@second.example))"
        #expect(Tool.entryCount(await waitForEntries(first, all, count: 1)) == 1)
        #expect(Tool.entryCount(await waitForEntries(second, all, count: 1)) == 1)

        await second.stop()
        #expect(try await Tool.add(first, ldif: person("edsger", mail: "edsger@example.org")).status?.isSuccess == true)
        try await second.start()
        #expect(Tool.entryCount(await waitForEntries(second, "(uid=edsger)", count: 1)) == 1)
    }
}
