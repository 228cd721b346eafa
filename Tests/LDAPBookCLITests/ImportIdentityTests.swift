import Foundation
import LDAPKit
import SlapdKit
import Testing

/// Every entry under `base` with every user attribute, one line per value, sorted: what
/// `ldapsearch -LLL -b base '*'` shows, for comparing a directory before and after.
func directoryDump(_ connection: LDAPConnection, _ base: DistinguishedName, leaving omitted: Set<String> = [])
    async throws -> [String]
{
    var lines: [String] = []
    for try await entry in connection.search(base: base, attributes: ["*"]) {
        lines.append("dn: \(entry.dn.string)")
        for attribute in entry.attributes where !omitted.contains(attribute.name.lowercased()) {
            for value in attribute.values {
                lines.append("\(entry.dn.string) \(attribute.name.lowercased()):: \(Data(value.bytes).base64EncodedString())")
            }
        }
    }
    return lines.sorted()
}

/// A file in the server's directory with `text`.
func writeFile(_ server: Slapd, _ name: String, _ text: String) throws -> URL {
    let file = server.directory.appendingPathComponent("\(UUID().uuidString.prefix(6))-\(name)")
    try Data(text.utf8).write(to: file)
    return file
}

/// A root connection to a server with the CLI suffix.
func rootConnection(_ server: Slapd) async throws -> LDAPConnection {
    try await LDAPConnection.connect(configuration: .init(
        servers: [server.ldapURI], base: try DistinguishedName(parsing: CLI.suffix),
        authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
        systemDefaults: .ignored))
}

/// An LDIF file of `count` people under `base` with distinct uids and the names of a small
/// town: many namesakes (162 James Smiths in 10,000), a fifth without mail.
func namesakesLDIF(count: Int, under base: DistinguishedName) -> String {
    let given = ["James", "John", "Mary", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
                 "David", "Barbara"]
    let surnames = ["Smith", "Johnson", "Williams", "Brown", "Jones"]
    var text = "version: 1\n\n"
    for index in 0..<count {
        let first = given[(index * 7) % given.count], last = surnames[(index * 3 + index / 60) % surnames.count]
        text += "dn: uid=person\(index),\(base.string)\nobjectClass: inetOrgPerson\nuid: person\(index)\n"
        text += "cn: \(first) \(last)\nsn: \(last)\ngivenName: \(first)\ntelephoneNumber: +1 555 \(String(format: "%04d", index % 10_000))\n"
        if index % 5 != 0 { text += "mail: person\(index)@example.org\n" }
        if index % 2 == 0 { text += "title: \(["Accountant", "Surgeon", "Clerk"][index % 3])\n" }
        text += "\n"
    }
    return text
}

@Suite("ldapbook import: who is who, what is written, and faults")
struct ImportIdentityTests {
    @Test("10,000 people with distinct uids and many namesakes become 10,000 entries under their own DNs; importing again changes nothing")
    func namesakes() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let arguments = CLI.connectionArguments(server, base: base)
        let file = try writeFile(server, "namesakes.ldif", namesakesLDIF(count: 10_000, under: base))
        let dry = try CLI.run(["import", "--dry-run", file.path] + arguments)
        #expect(dry.stdout.split(separator: "\n").last == "would be added 10000, would be updated 0, unchanged 0, rejected 0")
        let first = try CLI.run(["import", file.path] + arguments)
        #expect(first.status == 0, "\(first.stderr.prefix(500))")
        #expect(first.stdout == "added 10000, updated 0, unchanged 0, rejected 0\n", "\(first.stdout)")
        let entries = try await connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson"),
                                                  attributes: ["uid", "telephoneNumber"]).collect()
        #expect(entries.count == 10_000)
        #expect(Set(entries.map { $0.dn.string }) == Set((0..<10_000).map { "uid=person\($0),\(base.string)" }),
                "every DN is the record's")
        let jamesSmiths = try await connection.search(base: base, filter: .and([.equal("sn", "Smith"), .equal("givenName", "James")]),
                                                      attributes: ["telephoneNumber"]).collect()
        #expect(jamesSmiths.count > 100 && jamesSmiths.allSatisfy { $0.strings("telephoneNumber").count == 1 },
                "\(jamesSmiths.count) James Smiths, each with his own number")

        let before = try await directoryDump(connection, base)
        let second = try CLI.run(["import", file.path] + arguments)
        #expect(second.stdout == "added 0, updated 0, unchanged 10000, rejected 0\n", "\(second.stdout)")
        #expect(try await directoryDump(connection, base) == before)
    }

    /// People with what makes round trips hard: odd characters, several names, line breaks,
    /// empty address lines, labels, spaces, namesakes with photos.
    private func hardPeople(under base: DistinguishedName) -> String {
        func b64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0xFF, 0xD9])
        return """
            dn: uid=ada,\(base.string)
            objectClass: inetOrgPerson
            objectClass: ldapbookPerson
            uid: ada
            cn: Ada Lovelace
            cn: Countess of Lovelace
            sn: Lovelace
            givenName: Ada
            displayName: The Countess
            mail: ada@example.com
            mail: a;b@example.com
            title:: \(b64("Analyst\nand poet"))
            description:: \(b64("line one\nline two\n\nline four"))
            postalAddress: 12 St James's Sq$London SW1Y 4JH$$United Kingdom
            labeledURI: https://example.com/ada Ada's page
            labeledURI: example.org no scheme
            ldapbookNickname: Ada, the first
            ldapbookRelatedName: spouse=William King
            ldapbookRelatedName: Charles Babbage
            ldapbookCustomField: shoe-size=38
            ldapbookBirthday: 1815-12-10
            telephoneNumber: +44 20 7946 0000
            o: Analytical Engines
            ou: Research
            ou: Poetry
            employeeNumber: 1815

            dn: uid=bob,\(base.string)
            objectClass: inetOrgPerson
            uid: bob
            cn:: \(b64("Bob \u{1B}[2J Byte"))
            sn:: \(b64("Byte\u{7}"))
            givenName: Bob
            title:: \(b64("  spaced  "))

            dn: uid=js1,\(base.string)
            objectClass: inetOrgPerson
            uid: js1
            cn: John Smith
            sn: Smith
            givenName: John
            title: Accountant
            jpegPhoto:: \(jpeg.base64EncodedString())

            dn: uid=js2,\(base.string)
            objectClass: inetOrgPerson
            uid: js2
            cn: John Smith
            sn: Smith
            givenName: John
            title: Surgeon
            jpegPhoto:: \((jpeg + Data([0x42])).base64EncodedString())


            """
    }

    /// Each person's values, without what names the entry (DN, uid, card UID): for comparing
    /// directories whose entries are named differently.
    private func people(_ connection: LDAPConnection, _ base: DistinguishedName) async throws -> [[String]] {
        try await connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson"), attributes: ["*"]).collect()
            .map { entry in
                entry.attributes.filter { !["uid", "objectclass"].contains($0.name.lowercased()) }.flatMap { attribute in
                    attribute.values.filter { !$0.lossyString.hasPrefix("vcard-uid=") }
                        .map { "\(attribute.name.lowercased())=\(Data($0.bytes).base64EncodedString())" }
                }.sorted()
            }.sorted { $0.joined() < $1.joined() }
    }

    @Test("Exports come back as they were: into the directory they came from, nothing changes; into an empty one, everyone and every value",
          arguments: ["vcard", "vcard 3.0", "ldif"])
    func roundTrips(_ format: String) async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let arguments = CLI.connectionArguments(server, base: base)
        let loaded = try CLI.run(["import", try writeFile(server, "hard.ldif", hardPeople(under: base)).path] + arguments)
        #expect(loaded.stdout == "added 4, updated 0, unchanged 0, rejected 0\n", "\(loaded.stdout) \(loaded.stderr)")
        let exportOptions = format == "ldif" ? ["--format", "ldif"]
            : ["--format", "vcard", "--vcard-version", format == "vcard" ? "4.0" : "3.0"]
        let exported = try CLI.run(["export"] + exportOptions + arguments)
        #expect(exported.status == 0)
        let file = try writeFile(server, format == "ldif" ? "export.ldif" : "export.vcf", exported.stdout)

        let before = try await directoryDump(connection, base)
        let again = try CLI.run(["import", file.path] + arguments)
        #expect(again.stdout == "added 0, updated 0, unchanged 4, rejected 0\n", "\(again.stdout) \(again.stderr)")
        #expect(try await directoryDump(connection, base) == before, "the same directory, byte for byte")

        let (_, empty) = try await CLI.container(server, people: [])
        let into = try CLI.run(["import", file.path] + CLI.connectionArguments(server, base: empty))
        #expect(into.stdout == "added 4, updated 0, unchanged 0, rejected 0\n", "\(into.stdout) \(into.stderr)")
        if format == "ldif" {
            // Under the same DNs (the LDIF's base is the source container, outside this one,
            // so they keep their RDNs under the people base).
            let moved = try await connection.search(base: empty, filter: .equal("objectClass", "inetOrgPerson")).collect()
            #expect(Set(moved.map { $0.dn.rdn!.string }) == ["uid=ada", "uid=bob", "uid=js1", "uid=js2"])
        }
        #expect(try await people(connection, empty) == people(connection, base), "every person and every value")
    }

    @Test("The LDIF export recreates every entry under its DN in an empty directory, by ldapbook import and by slapadd as it is")
    func ldifIntoEmptyDirectory() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let arguments = CLI.connectionArguments(server, base: base)
        _ = try CLI.run(["import", try writeFile(server, "hard.ldif", hardPeople(under: base)).path] + arguments)
        let exported = try CLI.run(["export", "--format", "ldif"] + arguments)
        // The people, without the container they are in (the export holds only people).
        func withoutContainer(_ lines: [String]) -> [String] {
            lines.filter { $0 != "dn: \(base.string)" && !$0.hasPrefix("\(base.string) ") }
        }
        let source = withoutContainer(try await directoryDump(connection, base))

        let empty = try Slapd(configuration: SlapdConfiguration(suffix: CLI.suffix))
        defer { empty.cleanup() }
        try await empty.start()
        let file = try writeFile(empty, "export.ldif", exported.stdout)
        let imported = try CLI.run(["import", file.path] + CLI.connectionArguments(empty, base: try DistinguishedName(parsing: CLI.suffix)))
        #expect(imported.stdout == "added 4, updated 0, unchanged 0, rejected 0\n", "\(imported.stdout) \(imported.stderr)")
        let target = try await rootConnection(empty)
        let recreated = withoutContainer(try await directoryDump(target, base))
        #expect(recreated == source, "every entry under its DN, with every user attribute")
        await target.close()

        let offline = try Slapd(configuration: SlapdConfiguration(suffix: CLI.suffix))
        defer { offline.cleanup() }
        let container = "dn: \(base.string)\nobjectClass: organizationalUnit\nou: \(base.rdn!.attributes[0].value.lossyString)\n"
        try offline.bulkLoad(ldif: container)
        try offline.bulkLoad(ldifFile: file)
        try await offline.start()
        let loaded = try await rootConnection(offline)
        #expect(withoutContainer(try await directoryDump(loaded, base)) == source, "slapadd takes the export as it is")
        await loaded.close()
    }

    @Test("Records that would take over an account (LDIF and vCard) write nothing privileged, and say what they left out")
    func takeover() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Adam", "Smith", ["adam@example.org"])])
        let arguments = CLI.connectionArguments(server, base: base)
        let adam = base.child("cn", "Adam Smith")
        try await connection.modify(adam, [.add("userPassword", values: [LDAPValue("adams-own-secret")])])
        let privileged = ["userPassword", "uid", "objectClass", "seeAlso", "secretary", "cn", "uidNumber"]
        func privilegedValues() async throws -> [String: [LDAPValue]] {
            let entry = try #require(try await connection.read(adam, attributes: ["*"]))
            return Dictionary(uniqueKeysWithValues: privileged.map { ($0, entry[$0]) })
        }
        let before = try await privilegedValues()
        let ldif = """
            dn: \(adam.string)
            objectClass: inetOrgPerson
            objectClass: posixAccount
            cn: Adam Smith
            cn: root
            sn: Smith
            uid: root
            uidNumber: 0
            gidNumber: 0
            homeDirectory: /root
            userPassword: attacker-chosen
            seeAlso: cn=admins,dc=example,dc=com
            secretary: cn=evil,dc=example,dc=com
            title: Economist

            dn: uid=newcomer,\(base.string)
            objectClass: inetOrgPerson
            uid: newcomer
            cn: New Comer
            sn: Comer
            userPassword: cleartext


            """
        let imported = try CLI.run(["import", try writeFile(server, "takeover.ldif", ldif).path] + arguments)
        #expect(imported.stdout == "added 1, updated 1, unchanged 0, rejected 0\n", "\(imported.stdout) \(imported.stderr)")
        for skipped in ["userPassword (a secret", "uidNumber", "objectClass: posixAccount", "seeAlso (a reference", "secretary (a reference", "uid ("] {
            #expect(imported.stderr.contains(skipped), "the report names \(skipped): \(imported.stderr)")
        }
        let card = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Adam Smith\r
            N:Smith;Adam;;;\r
            EMAIL:adam@example.org\r
            X-LDAPBOOK-USERPASSWORD:attacker-chosen\r
            X-LDAPBOOK-UID:root\r
            X-LDAPBOOK-SECRETARY:cn=evil,dc=example,dc=com\r
            X-LDAPBOOK-SEEALSO:cn=admins,dc=example,dc=com\r
            X-LDAPBOOK-CN:root\r
            X-LDAPBOOK-OBJECTCLASS:posixAccount\r
            X-LDAPBOOK-UIDNUMBER:0\r
            NOTE:an honest note\r
            END:VCARD\r

            """
        let carded = try CLI.run(["import", try writeFile(server, "takeover.vcf", card).path] + arguments)
        #expect(carded.stdout == "added 0, updated 1, unchanged 0, rejected 0\n", "\(carded.stdout) \(carded.stderr)")
        #expect(carded.stderr.contains("X-LDAPBOOK-USERPASSWORD (userPassword: a secret"), "\(carded.stderr)")
        #expect(try await privilegedValues() == before, "nothing privileged changed")
        let entry = try #require(try await connection.read(adam, attributes: ["title", "description"]))
        #expect(entry.strings("title") == ["Economist"] && entry.strings("description") == ["an honest note"])
        let newcomer = try #require(try await connection.read(base.child("uid", "newcomer"), attributes: ["*"]))
        #expect(newcomer["userPassword"].isEmpty, "a new entry gets no password from a file either")
        // Nobody can bind as Adam with the file's password.
        let bind = LDAPConnection(configuration: .init(servers: [server.ldapURI],
                                                       authentication: .simple(dn: adam, password: .init("attacker-chosen")),
                                                       systemDefaults: .ignored))
        await #expect(throws: LDAPError.self) { try await bind.connect() }
    }

    @Test("No export format and no show format prints userPassword or any other secret")
    func secretsStayInside() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.org"])])
        let ada = base.child("cn", "Ada Lovelace")
        try await connection.modify(ada, [.add("userPassword", values: [LDAPValue("ada-secret-9")]),
                                          .add("userPKCS12", values: [LDAPValue(bytes: [0x30, 0x82, 0x01, 0x02])])])
        let arguments = CLI.connectionArguments(server, base: base)
        let runs: [[String]] = [
            ["export", "--format", "vcard"], ["export", "--format", "vcard", "--vcard-version", "3.0"],
            ["export", "--format", "ldif"], ["export", "--format", "json"], ["export", "--format", "csv"],
            ["show", "ada", "--format", "text"], ["show", "ada", "--format", "json"], ["show", "ada", "--format", "vcard"],
            ["show", "ada", "--format", "ldif"], ["fields", "--format", "json"],
            ["find", "ada", "--format", "json"], ["fields"],
        ]
        for run in runs {
            let result = try CLI.run(run + arguments)
            #expect(result.status == 0, "\(run): \(result.stderr)")
            for secret in ["userPassword", "userpassword", "ada-secret-9", Data("ada-secret-9".utf8).base64EncodedString(),
                           "userPKCS12", "MIIBAg"] {
                #expect(!result.stdout.contains(secret), "\(run) prints \(secret)")
            }
        }
        let set = try CLI.run(["set", "ada", "userPassword=hunter2"] + arguments)
        #expect(set.status == 65 && set.stderr.contains("secret") && !set.stderr.contains("hunter2"), "\(set.status) \(set.stderr)")
        #expect(try await connection.read(ada, attributes: ["userPassword"])?.strings("userPassword") == ["ada-secret-9"])
    }

    @Test("Two imports of the same 3,000 people at once leave slapd running with 3,000 new people")
    func concurrentImports() async throws {
        let server = try Slapd(configuration: SlapdConfiguration(suffix: CLI.suffix))
        defer { server.cleanup() }
        try await server.start()
        let base = try DistinguishedName(parsing: "ou=people,\(CLI.suffix)")
        let file = try writeFile(server, "people.ldif", namesakesLDIF(count: 3_000, under: base))
        let arguments = ["import", file.path] + CLI.connectionArguments(server, base: try DistinguishedName(parsing: CLI.suffix))
        let first = try CLI.start(arguments), second = try CLI.start(arguments)
        var summaries: [String] = []
        for (process, out, err) in [first, second] {
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(errors.prefix(500))")
            summaries.append(output)
        }
        #expect(server.isRunning, "slapd is still up")
        let connection = try await rootConnection(server)
        let entries = try await connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson"), attributes: ["1.1"]).collect()
        #expect(entries.count == 3_000, "\(summaries)")
        let added = summaries.compactMap { $0.split(separator: ",").first?.split(separator: " ").last.flatMap { Int($0) } }
        #expect(added.reduce(0, +) == 3_000, "between them, the two imports added each person once: \(summaries)")
        await connection.close()
    }

    @Test("A server that hangs (SIGSTOP) during an import: exit 69 with a summary, no hang; a rerun finishes without duplicates")
    func hungServer() async throws {
        let server = try Slapd(configuration: SlapdConfiguration(suffix: CLI.suffix))
        defer { server.cleanup() }
        try await server.start()
        let base = try DistinguishedName(parsing: "ou=people,\(CLI.suffix)")
        let file = try writeFile(server, "people.ldif", namesakesLDIF(count: 4_000, under: base))
        let config = try writeFile(server, "config", "timeout = 2\n")
        let arguments = ["import", file.path, "--config", config.path]
            + CLI.connectionArguments(server, base: try DistinguishedName(parsing: CLI.suffix))
        let (process, out, err) = try CLI.start(arguments)
        // Stop the server once the import has written a few hundred people. The check blocks
        // this thread (ldapsearch), as the import's own run does, so that it keeps up even
        // when the other tests keep every thread of the cooperative pool busy.
        let probe = ["/usr/bin/ldapsearch", "-x", "-LLL", "-H", server.ldapURI, "-D", server.rootDN, "-y",
                     arguments[arguments.firstIndex(of: "-y")! + 1], "-b", base.child("uid", "person300").string, "-s", "base", "1.1"]
        let deadline = ContinuousClock.now + .seconds(60)
        func found() throws -> Bool {
            let search = SpawnedProcess()
            search.executableURL = URL(fileURLWithPath: probe[0])
            search.arguments = Array(probe.dropFirst())
            search.standardOutput = FileHandle.nullDevice
            search.standardError = FileHandle.nullDevice
            try search.run()
            search.waitUntilExit()
            return search.terminationStatus == 0
        }
        while ContinuousClock.now < deadline, try !found() {
            usleep(2_000)
        }
        server.pause()
        let paused = ContinuousClock.now
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let took = ContinuousClock.now - paused
        server.resume()
        #expect(process.terminationStatus == 69, "\(output) \(errors.suffix(800))")
        #expect(took < .seconds(30), "the import ended \(took) after the server stopped answering")
        #expect(output.contains("not imported"), "\(output)")
        #expect(errors.contains("the import stopped: directory unavailable") && errors.contains("not tried:"), "\(errors.suffix(800))")
        #expect(!errors.contains("rejected:"), "no card is called bad for the server's fault")

        let rerun = try CLI.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr.suffix(500))")
        let connection = try await rootConnection(server)
        let entries = try await connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson"), attributes: ["uid"]).collect()
        #expect(entries.count == 4_000)
        #expect(Set(entries.map { $0.strings("uid") }).count == 4_000, "no one twice")
        await connection.close()
    }

    @Test("A cut-off last LDIF record is refused, naming its line; the records before it are imported")
    func truncatedFile() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let text = "dn: uid=one,\(base.string)\nobjectClass: inetOrgPerson\ncn: One\nsn: One\n\n"
            + "dn: uid=two,\(base.string)\nobjectClass: inetOrgPerson\ncn: Two\nsn: Tw"
        let result = try CLI.run(["import", try writeFile(server, "cut.ldif", text).path] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 65)
        #expect(result.stdout == "added 1, updated 0, unchanged 0, rejected 1\n")
        #expect(result.stderr.contains("cut.ldif: line 6: the file ends in the middle of a line"), "\(result.stderr)")
        let entries = try await connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson"), attributes: ["1.1"]).collect()
        #expect(entries.map(\.dn) == [base.child("uid", "one")], "nothing of the cut record is written")
    }

    @Test("A dump of a whole directory: its containers and groups are left out and counted, its people imported")
    func wholeDump() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let text = "dn: \(base.string)\nobjectClass: organizationalUnit\nou: \(base.rdn!.attributes[0].value.lossyString)\n\n"
            + "dn: cn=staff,\(base.string)\nobjectClass: groupOfNames\ncn: staff\nmember: uid=one,\(base.string)\n\n"
            + "dn: uid=one,\(base.string)\nobjectClass: inetOrgPerson\ncn: One\nsn: One\n\n"
        let result = try CLI.run(["import", try writeFile(server, "dump.ldif", text).path] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "added 1, updated 0, unchanged 0, rejected 0, not people 2\n")
        #expect(result.stderr.contains("not a person, left out: ") && result.stderr.contains("(objectClass: groupOfNames)"), "\(result.stderr)")
        #expect(try await connection.read(base.child("cn", "staff")) == nil)
    }

    @Test("--replace needs values, --clear removes every value; a password file others may read is refused")
    func setAndPasswordFiles() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.org", "ada@work.example"])])
        let arguments = CLI.connectionArguments(server, base: base)
        let ada = base.child("cn", "Ada Lovelace")
        let replace = try CLI.run(["set", "ada", "--replace", "email"] + arguments)
        #expect(replace.status == 64 && replace.stderr.contains("--clear email"), "\(replace.stderr)")
        #expect(try await connection.read(ada, attributes: ["mail"])?.strings("mail").count == 2, "nothing removed")
        let clear = try CLI.run(["set", "ada", "--clear", "email"] + arguments)
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(try await connection.read(ada, attributes: ["mail"])?.strings("mail") == [])

        let open = server.directory.appendingPathComponent("open-password-\(UUID().uuidString.prefix(6))")
        #expect(FileManager.default.createFile(atPath: open.path, contents: Data(server.rootPassword.utf8),
                                               attributes: [.posixPermissions: 0o644]))
        let refused = try CLI.run(["find", "ada", "-H", server.ldapURI, "-b", base.string, "-D", server.rootDN, "-y", open.path])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("may be read by others (mode 0644)") && refused.stderr.contains("chmod 600 \(open.path)"),
                "\(refused.stderr)")
    }

    @Test("add says when someone of the same name exists, and adds a different person")
    func addNamesake() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Grace", "Hopper", ["grace@navy.example"])])
        let added = try CLI.run(["add", "--given", "Grace", "--surname", "Hopper", "email=grace@cobol.example"]
                                + CLI.connectionArguments(server, base: base))
        #expect(added.status == 0)
        #expect(added.stderr.contains("note: someone named Grace Hopper exists already (cn=Grace Hopper,\(base.string) <grace@navy.example>)"),
                "\(added.stderr)")
        let entries = try await connection.search(base: base, filter: .equal("sn", "Hopper"), attributes: ["mail"]).collect()
        #expect(entries.count == 2)
    }
}
