import Foundation
import LDAPKit
import SlapdKit
import Testing

/// A directory whose access rules let a reader search but not write, and hide the `mail`
/// of everyone but the reader.
@Suite("ldapbook under access control", .serialized)
struct AccessControlTests {
    static let suffix = "dc=acl,dc=example"
    static let readerDN = "uid=reader,ou=people,dc=acl,dc=example"
    static let readerPassword = "reader-secret-9"

    /// The server, its people, and a password file for the reader.
    private func directory() async throws -> (Slapd, String) {
        var configuration = SlapdConfiguration(suffix: Self.suffix)
        configuration.databaseAccess = [
            "to attrs=userPassword by self write by anonymous auth by * none",
            "to attrs=mail by self read by * none",
            "to * by users read by * none",
        ]
        let server = try Slapd(configuration: configuration)
        try await server.start()
        let root = try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: Self.suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            systemDefaults: .ignored))
        let people = try DistinguishedName(parsing: "ou=people,\(Self.suffix)")
        try await root.add(LDAPEntry(dn: people, ["objectClass": ["organizationalUnit"], "ou": ["people"]]))
        try await root.add(LDAPEntry(dn: try DistinguishedName(parsing: Self.readerDN), [
            "objectClass": ["inetOrgPerson"], "uid": ["reader"], "cn": ["Rita Reader"], "sn": ["Reader"], "givenName": ["Rita"],
            "mail": ["rita@example.org"], "userPassword": [Self.readerPassword],
        ]))
        try await root.add(LDAPEntry(dn: people.child("uid", "ada.lovelace"), [
            "objectClass": ["inetOrgPerson"], "uid": ["ada.lovelace"], "cn": ["Ada Lovelace"], "sn": ["Lovelace"],
            "givenName": ["Ada"], "mail": ["ada@example.org"], "telephoneNumber": ["+44 20 7946 1815"],
        ]))
        await root.close()
        let passwordFile = server.directory.appendingPathComponent("reader-password").path
        #expect(FileManager.default.createFile(atPath: passwordFile, contents: Data(Self.readerPassword.utf8),
                                               attributes: [.posixPermissions: 0o600]))
        return (server, passwordFile)
    }

    /// Every entry and user attribute, as the root DN sees them, sorted.
    private func dump(_ server: Slapd) async throws -> [String] {
        let root = try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: Self.suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            systemDefaults: .ignored))
        let entries = try await root.search().collect()
        await root.close()
        return entries.flatMap { entry in
            entry.attributes.flatMap { attribute in attribute.values.map { "\(entry.dn.string) \(attribute.name)=\(Array($0.bytes))" } }
        }.sorted()
    }

    private func asReader(_ server: Slapd, _ passwordFile: String) -> [String] {
        ["-H", server.ldapURI, "-b", Self.suffix, "-D", Self.readerDN, "-y", passwordFile]
    }

    @Test("The reader finds people but not the mail the rules hide; writes end in exit 77 and change nothing")
    func readerCannotWrite() async throws {
        let (server, passwordFile) = try await directory()
        defer { server.cleanup() }
        let before = try await dump(server)

        let found = try CLI.run(["find", "ada", "--field", "email", "--format", "json"] + asReader(server, passwordFile))
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("Ada Lovelace"))
        #expect(!found.stdout.contains("ada@example.org"), "the rules hide other people's mail")
        let own = try CLI.run(["show", Self.readerDN, "--format", "json"] + asReader(server, passwordFile))
        #expect(own.stdout.contains("rita@example.org"), "\(own.stderr)")

        for write in [
            ["set", "ada lovelace", "phone=+44 20 7946 0000", "--pick", "1", "--no-input"],
            ["add", "--given", "Grace", "--surname", "Hopper", "email=grace@example.org"],
            ["reach", "email", "ada lovelace", "--pick", "1", "--value", "ada2@example.org", "--yes", "--no-input"],
        ] {
            let result = try CLI.run(write + asReader(server, passwordFile))
            #expect(result.status == 77, "\(write[0]): \(result.status) \(result.stderr)")
            #expect(result.stderr.lowercased().contains("insufficient access"), "\(result.stderr)")
            #expect(!result.stderr.contains(Self.readerPassword) && !result.stdout.contains(Self.readerPassword))
        }
        #expect(try await dump(server) == before)
    }

    @Test("An import the rules refuse stops at once with exit 77: one write refused, a summary, and who was not tried")
    func importRefused() async throws {
        let (server, passwordFile) = try await directory()
        defer { server.cleanup() }
        let before = try await dump(server)
        let cards = (1...40).map { index in
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Person \(index)\r\nN:Person;Number\(index);;;\r\nEMAIL:p\(index)@example.org\r\nEND:VCARD\r\n"
        }.joined()
        let file = server.directory.appendingPathComponent("people.vcf")
        try Data(cards.utf8).write(to: file)
        let result = try CLI.run(["import", file.path] + asReader(server, passwordFile))
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stdout == "added 0, updated 0, unchanged 0, rejected 0, not imported 40\n", "\(result.stdout)")
        #expect(result.stderr.contains("the import stopped: insufficient access"), "\(result.stderr)")
        #expect(result.stderr.contains("refused: \(file.path): line 1: Number1 Person"), "\(result.stderr)")
        #expect(result.stderr.contains("not tried: 39 people: \(file.path): line 7: Number2 Person"), "\(result.stderr)")
        #expect(!result.stderr.contains(Self.readerPassword))
        #expect(try await dump(server) == before)
    }
}
