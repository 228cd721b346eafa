import Foundation
import Testing
@testable import SlapdKit

@Suite("Bulk loading with slapadd")
struct SlapdBulkLoadTests {
    /// An organizational unit and `count` people below it.
    private static func people(_ count: Int) -> String {
        var ldif = "dn: ou=people,dc=example,dc=com\nobjectClass: organizationalUnit\nou: people\n\n"
        for index in 0..<count {
            ldif += """
            dn: uid=user\(index),ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: user\(index)
            cn: User \(index)
            sn: Number\(index)
            mail: user\(index)@example.com


            """
        }
        return ldif
    }

    @Test("2,000 entries loaded before the first start are all found")
    func loadBeforeStart() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try slapd.bulkLoad(ldif: Self.people(2000))
        try await slapd.start()

        let all = await Tool.search(slapd, base: "ou=people,dc=example,dc=com", scope: "one", attributes: ["1.1"])
        #expect(all.status == .exited(0), "\(all.errors)")
        #expect(Tool.entryCount(all.output) == 2000)
        let one = await Tool.search(slapd, filter: "(mail=user1999@example.com)", attributes: ["cn"])
        #expect(one.output.contains("cn: User 1999"))
        await slapd.stop()
    }

    @Test("Loading from a file works between runs, and not while slapd runs")
    func loadFromFileWhileStopped() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()
        let file = slapd.directory.appendingPathComponent("people.ldif")
        try Self.people(10).write(to: file, atomically: true, encoding: .utf8)

        let error = #expect(throws: SlapdError.self) { try slapd.bulkLoad(ldifFile: file) }
        #expect(error?.kind == .alreadyRunning)

        await slapd.stop()
        try slapd.bulkLoad(ldifFile: file)
        try await slapd.start()
        let all = await Tool.search(slapd, base: "ou=people,dc=example,dc=com", scope: "one", attributes: ["1.1"])
        #expect(Tool.entryCount(all.output) == 10)
        await slapd.stop()
    }

    @Test("Entries slapadd rejects are reported with its output")
    func rejectedEntries() throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        let error = #expect(throws: SlapdError.self) {
            try slapd.bulkLoad(ldif: "dn: cn=broken,dc=example,dc=com\nobjectClass: inetOrgPerson\ncn: broken\n")
        }
        #expect(error?.kind == .slapaddFailed)
        #expect(error?.output.isEmpty == false)
        #expect(error?.description.contains("sn") == true, "\(error?.description ?? "")")
    }
}
