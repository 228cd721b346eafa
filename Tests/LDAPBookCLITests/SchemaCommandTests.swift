import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("ldapbook schema print and install")
struct SchemaCommandTests {
    @Test("install adds the schema to a directory without it, once; custom fields then work")
    func install() async throws {
        var configuration = SlapdConfiguration(suffix: CLI.suffix)
        configuration.includesLDAPBookSchema = false
        let server = try Slapd(configuration: configuration)
        try await server.start()
        defer { server.cleanup() }
        let base = try DistinguishedName(parsing: CLI.suffix)
        let arguments = CLI.connectionArguments(server, base: base)
        let before = try CLI.run(["add", "--given", "Ada", "--surname", "Lovelace", "shoe-size=38"] + arguments)
        #expect(before.status == 69, "the schema is missing: \(before.stderr)")
        #expect(before.stderr.contains("ldapbook.ldif"))

        let installed = try CLI.run(["schema", "install", "-H", server.ldapiURI, "-Y", "EXTERNAL", "-b", CLI.suffix])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.contains("installed"))
        let again = try CLI.run(["schema", "install", "-H", server.ldapiURI, "-Y", "EXTERNAL", "-b", CLI.suffix])
        #expect(again.stdout.contains("already installed"))
        let after = try CLI.run(["add", "--given", "Ada", "--surname", "Lovelace", "shoe-size=38"] + arguments)
        #expect(after.status == 0, "\(after.stderr)")
    }

    @Test("print gives the LDIF, and a slapd.conf form slaptest accepts")
    func print() throws {
        let ldif = try CLI.run(["schema", "print"])
        #expect(ldif.stdout.contains("dn: cn=ldapbook,cn=schema,cn=config"))
        let schema = try CLI.run(["schema", "print", "--format", "schema"])
        #expect(schema.stdout.contains("objectclass ( 2.25."))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try schema.stdout.write(to: directory.appendingPathComponent("ldapbook.schema"), atomically: true, encoding: .utf8)
        let conf = """
            include /etc/ldap/schema/core.schema
            include /etc/ldap/schema/cosine.schema
            include /etc/ldap/schema/inetorgperson.schema
            include \(directory.path)/ldapbook.schema
            """
        try conf.write(to: directory.appendingPathComponent("slapd.conf"), atomically: true, encoding: .utf8)
        let slaptest = SpawnedProcess()
        slaptest.executableURL = URL(fileURLWithPath: "/usr/sbin/slaptest")
        slaptest.arguments = ["-u", "-f", directory.appendingPathComponent("slapd.conf").path]
        slaptest.standardOutput = FileHandle.nullDevice
        slaptest.standardError = FileHandle.nullDevice
        try slaptest.run()
        slaptest.waitUntilExit()
        #expect(slaptest.terminationStatus == 0)
    }
}
