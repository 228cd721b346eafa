import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("ldapbook import and export against a real directory")
struct ImportExportTests {
    private static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + (0...255).map { UInt8($0) } + [0xFF, 0xD9]

    @Test("vCards round-trip: export, import into an empty container, export again, identical")
    func vCardRoundTrip() async throws {
        let server = try await CLI.shared()
        let (_, source) = try await CLI.container(server, people: [])
        let from = CLI.connectionArguments(server, base: source)
        let photo = server.directory.appendingPathComponent("rt-\(UUID().uuidString.prefix(6)).jpg")
        try Data(Self.jpeg).write(to: photo)
        #expect(try CLI.run(["add", "--given", "Zoë", "--surname", "Ångström", "email=zoe@example.com", "email=z@example.org",
                             "phone=+45 1234 5678", "photo=@\(photo.path)", "birthday=1990-02-03", "shoe-size=38",
                             "nickname=Zo"] + from).status == 0)
        #expect(try CLI.run(["add", "--given", "山田", "--surname", "太郎", "organization=Example KK"] + from).status == 0)
        let exported = try CLI.run(["export"] + from)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("BEGIN:VCARD"))

        let (_, target) = try await CLI.container(server, people: [])
        let into = CLI.connectionArguments(server, base: target)
        let file = server.directory.appendingPathComponent("export-\(UUID().uuidString.prefix(6)).vcf")
        try exported.stdout.write(to: file, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", file.path] + into + ["--config", "/dev/null"])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        #expect(imported.stdout.hasPrefix("added 2, updated 0, unchanged 0, rejected 0"))

        let again = try CLI.run(["export"] + into)
        func people(_ text: String) -> Set<String> {
            // Unfolded, and without the UID, which names the entry's DN in its container.
            Set(text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "END:VCARD").map { card in
                card.split(separator: "\r\n").filter { !$0.hasPrefix("UID") }.sorted().joined(separator: "\n")
            })
        }
        #expect(people(again.stdout) == people(exported.stdout))

        let twice = try CLI.run(["import", file.path] + into)
        #expect(twice.stdout.hasPrefix("added 0, updated 0, unchanged 2, rejected 0"), "\(twice.stdout)")
    }

    @Test("a bad card is reported with its line and skipped; --dry-run writes nothing")
    func badCardsAndDryRun() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base)
        let cards = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Ada Lovelace\r
            N:Lovelace;Ada;;;\r
            EMAIL:ada@example.com\r
            TEL:+44 20 7946 0000\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Broken Card\r
            N:Card;Broken;;;\r
            EMAIL:nöt an address\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Grace Hopper\r
            N:Hopper;Grace;;;\r
            EMAIL:grace@example.com\r
            END:VCARD\r

            """
        let file = server.directory.appendingPathComponent("cards-\(UUID().uuidString.prefix(6)).vcf")
        try cards.write(to: file, atomically: true, encoding: .utf8)
        let before = try await connection.search(base: base, attributes: ["*"]).collect().count
        let dry = try CLI.run(["import", "--dry-run", file.path] + arguments)
        let plan = dry.stdout.split(separator: "\n").map(String.init)
        #expect(plan.last == "would be added 1, would be updated 1, unchanged 0, rejected 1", "\(dry.stdout)")
        #expect(plan.count == 4, "\(plan)")
        #expect(plan.first?.hasPrefix("add ou=people,") == true && plan.first?.hasSuffix("(a container)") == true)
        #expect(plan.dropFirst().first?.hasPrefix("update cn=Ada Lovelace,") == true && plan.dropFirst().first?.contains(": telephoneNumber") == true
                && plan.dropFirst(2).first?.hasPrefix("add uid=grace.hopper") == true, "the dry run lists each write: \(dry.stdout)")
        #expect(try await connection.search(base: base, attributes: ["*"]).collect().count == before)

        let real = try CLI.run(["import", file.path] + arguments)
        #expect(real.status == 65, "a rejected card makes the exit status say so")
        #expect(real.stdout.hasPrefix("added 1, updated 1, unchanged 0, rejected 1"), "\(real.stdout)")
        #expect(real.stderr.contains("line 12"), "the error names the line: \(real.stderr)")
        #expect(!real.stdout.contains("line 12"), "reasons go to standard error, the summary to standard output")
        let ada = try await connection.search(base: base, filter: .equal("mail", "ada@example.com")).collect()
        #expect(ada.count == 1, "no duplicate")
        #expect(ada.first?.strings("telephoneNumber") == ["+44 20 7946 0000"], "the missing value was added")
    }

    @Test("LDIF, JSON and CSV export; LDIF import")
    func otherFormats() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"]), ("Alan", "Turing", [])])
        let arguments = CLI.connectionArguments(server, base: base)
        let ldif = try CLI.run(["export", "--format", "ldif"] + arguments)
        #expect(ldif.stdout.hasPrefix("dn: "), "no version line, which slapadd refuses")
        #expect(ldif.stdout.contains("mail: ada@example.com"))
        let json = try CLI.run(["export", "--format", "json", "ada"] + arguments)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        let csv = try CLI.run(["export", "--format", "csv"] + arguments)
        let rows = csv.stdout.split(separator: "\r\n").map { csvCells(String($0)) }
        let header = try #require(rows.first)
        #expect(header.first == "dn")
        #expect(header == ["dn", "email", "given-name", "surname", "cn"], "the fields the people have, by name")
        #expect(try CLI.run(["set", "ada", "shoe-size=38"] + arguments).status == 0)
        let withCustom = try CLI.run(["export", "--format", "csv"] + arguments)
        #expect(withCustom.stdout.hasPrefix("dn,email,given-name,surname,cn,shoe-size\r\n"), "\(withCustom.stdout)")
        let ada = try #require(rows.first { $0.contains("Ada") })
        #expect(ada[header.firstIndex(of: "email")!] == "ada@example.com", "\(csv.stdout.debugDescription) \(ada)")
        #expect(ada[header.firstIndex(of: "surname")!] == "Lovelace")

        let (_, target) = try await CLI.container(server, people: [])
        let file = server.directory.appendingPathComponent("people-\(UUID().uuidString.prefix(6)).ldif")
        try ldif.stdout.write(to: file, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", file.path] + CLI.connectionArguments(server, base: target))
        #expect(imported.stdout.hasPrefix("added 2, updated 0, unchanged 0, rejected 0"), "\(imported.stdout)")
        let copied = try await connection.search(base: target, filter: .equal("mail", "ada@example.com")).collect()
        #expect(copied.count == 1)
    }

    @Test("slapcat's dump of a directory imports its people; its dc and ou entries are counted, not errors")
    func slapcatDump() async throws {
        let server = try await CLI.shared()
        let (connection, source) = try await CLI.container(server, people: [("Dora", "Dump", ["dora@example.com"])])
        await connection.close()
        let slapcat = SpawnedProcess()
        slapcat.executableURL = URL(fileURLWithPath: "/usr/sbin/slapcat")
        slapcat.arguments = ["-F", server.directory.appendingPathComponent("slapd.d").path, "-b", CLI.suffix,
                             "-a", "(|(entryDN=\(CLI.suffix))(entryDN=\(source))(entryDN:dnSubordinateMatch:=\(source)))"]
        let output = Pipe()
        slapcat.standardOutput = output
        slapcat.standardError = FileHandle.nullDevice
        try slapcat.run()
        let dump = output.fileHandleForReading.readDataToEndOfFile()
        slapcat.waitUntilExit()
        #expect(slapcat.terminationStatus == 0)
        let text = String(decoding: dump, as: UTF8.self)
        #expect(text.contains("objectClass: dcObject") || text.contains("objectClass: domain"), "\(text.prefix(300))")
        #expect(text.contains("Dora"))

        let (_, target) = try await CLI.container(server, people: [])
        let file = server.directory.appendingPathComponent("slapcat-\(UUID().uuidString.prefix(6)).ldif")
        try dump.write(to: file)
        // slapcat's DNs are those of the source: import them under the target's base by
        // rewriting the one line that names it, as someone moving people would.
        let moved = text.replacingOccurrences(of: source.string, with: target.string)
        try moved.write(to: file, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", file.path] + CLI.connectionArguments(server, base: target))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("added 1"), "\(imported.stdout)")
        #expect(imported.stdout.contains("not people 2"), "the suffix and the container: \(imported.stdout)")
        #expect(imported.stderr.contains("not a person, left out"), "\(imported.stderr)")
    }

    @Test("An LDIF value given as a file URL is read with --allow-file-urls, and refused without, naming the flag")
    func fileURLs() async throws {
        let server = try await CLI.shared()
        let (connection, target) = try await CLI.container(server, people: [])
        await connection.close()
        let photo = server.directory.appendingPathComponent("photo-\(UUID().uuidString.prefix(6)).jpg")
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9]
        try Data(jpeg).write(to: photo)
        let file = server.directory.appendingPathComponent("url-\(UUID().uuidString.prefix(6)).ldif")
        try """
            dn: cn=Uri Photo,\(target)
            objectClass: inetOrgPerson
            cn: Uri Photo
            givenName: Uri
            sn: Photo
            jpegPhoto:< file://\(photo.path)

            """.write(to: file, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["import", file.path] + CLI.connectionArguments(server, base: target))
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-file-urls"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("allowFileURLs"))
        let read = try CLI.run(["import", "--allow-file-urls", file.path] + CLI.connectionArguments(server, base: target))
        #expect(read.status == 0, "\(read.stderr)")
        let saved = server.directory.appendingPathComponent("saved-\(UUID().uuidString.prefix(6)).jpg")
        let written = try CLI.run(["photo", "uri photo", "-o", saved.path] + CLI.connectionArguments(server, base: target))
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try [UInt8](Data(contentsOf: saved)) == jpeg)
    }

    @Test("CSV cells a spreadsheet would run as formulas are written as text (OWASP): a leading ', quoted")
    func csvInjection() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        try await connection.add(LDAPEntry(dn: base.child("cn", "Formula Person"), [
            "objectClass": ["inetOrgPerson"], "cn": ["Formula Person"], "givenName": ["=HYPERLINK(\"http://evil\")"],
            "sn": ["Person"], "title": ["+cmd|' /C calc'!A0"], "description": ["@SUM(1)"], "telephoneNumber": ["-1"],
        ]))
        await connection.close()
        let csv = try CLI.run(["export", "--format", "csv"] + CLI.connectionArguments(server, base: base))
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.contains("\"'=HYPERLINK(\"\"http://evil\"\")\""), "\(csv.stdout)")
        #expect(csv.stdout.contains("\"'+cmd|' /C calc'!A0\""))
        #expect(csv.stdout.contains("\"'@SUM(1)\""))
        #expect(csv.stdout.contains("\"'-1\""))
        for line in csv.stdout.split(separator: "\r\n").dropFirst() {
            for cell in line.split(separator: ",") {
                #expect(!"=+-@".contains(cell.first ?? " "), "a cell starts a formula: \(cell)")
            }
        }
    }

    @Test("import reads ldapbook's CSV and JSON back, and Google's and Outlook's CSV, leaving out and naming columns no field holds")
    func tablesImported() async throws {
        let server = try await CLI.shared()
        let (connection, source) = try await CLI.container(server, people: [])
        try await connection.add(LDAPEntry(dn: source.child("cn", "Tab Person"), [
            "objectClass": ["inetOrgPerson"], "cn": ["Tab Person"], "givenName": ["Tab"], "sn": ["Person"],
            "mail": ["tab@example.org", "tab2@example.org"], "telephoneNumber": ["+1 555 0100"], "description": ["two\nlines"],
        ]))
        let arguments = CLI.connectionArguments(server, base: source)
        for format in ["csv", "json"] {
            let exported = try CLI.run(["export", "--format", format] + arguments)
            let file = server.directory.appendingPathComponent("tab-\(UUID().uuidString.prefix(6)).\(format)")
            // The people move to a container of their own: their DNs say where.
            let (_, target) = try await CLI.container(server, people: [])
            try exported.stdout.replacingOccurrences(of: source.string, with: target.string).write(to: file, atomically: true, encoding: .utf8)
            let imported = try CLI.run(["import", file.path] + CLI.connectionArguments(server, base: target))
            #expect(imported.status == 0 && imported.stdout.hasPrefix("added 1,"), "\(format): \(imported.stdout) \(imported.stderr)")
            let copy = try #require(try await connection.read(target.child("cn", "Tab Person")), "\(format)")
            #expect(Set(copy.strings("mail")) == ["tab@example.org", "tab2@example.org"], "\(format)")
            #expect(copy.strings("telephoneNumber") == ["+1 555 0100"], "\(format): the ' that kept the cell text is gone")
            #expect(copy.strings("description") == ["two\nlines"], "\(format)")
        }

        let (_, target) = try await CLI.container(server, people: [])
        let google = server.directory.appendingPathComponent("google-\(UUID().uuidString.prefix(6)).csv")
        try """
            First Name,Middle Name,Last Name,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value,Organization Name,Organization Title
            Grace,Brewster,Googler,myContacts,* Work,grace@example.org,Mobile,+1 555 0101,Work Fax,+1 555 0109,Navy,Rear Admiral

            """.write(to: google, atomically: true, encoding: .utf8)
        let outlook = server.directory.appendingPathComponent("outlook-\(UUID().uuidString.prefix(6)).csv")
        try "\"First Name\",\"Last Name\",\"Title\",\"Company\",\"Job Title\",\"Business Phone\",\"E-mail Address\"\r\n\"Otto\",\"Outlooker\",\"Dr.\",\"Contoso\",\"Manager\",\"+49 30 111\",\"otto@contoso.example\"\r\n"
            .write(to: outlook, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", google.path, outlook.path] + CLI.connectionArguments(server, base: target))
        #expect(imported.status == 0 && imported.stdout.hasPrefix("added 2,"), "\(imported.stdout) \(imported.stderr)")
        #expect(imported.stderr.contains("Middle Name") && imported.stderr.contains("Labels") && imported.stderr.contains("Title"),
                "columns left out are named: \(imported.stderr)")
        let grace = try #require(try await connection.search(base: target, filter: .equal("sn", "Googler")).collect().first)
        #expect(grace.strings("mail") == ["grace@example.org"] && grace.strings("mobile") == ["+1 555 0101"])
        #expect(grace.strings("facsimileTelephoneNumber") == ["+1 555 0109"] && grace.strings("title") == ["Rear Admiral"])
        // A hand-made table without DNs adds new people: their uid and references are never taken from it.
        let handMade = server.directory.appendingPathComponent("hand-\(UUID().uuidString.prefix(6)).csv")
        try "given-name,surname,uid,manager,email\nHana,Handmade,root,\"cn=Boss,\(CLI.suffix)\",hana@example.org\n"
            .write(to: handMade, atomically: true, encoding: .utf8)
        let privileged = try CLI.run(["import", handMade.path] + CLI.connectionArguments(server, base: target))
        #expect(privileged.status == 0 && privileged.stdout.hasPrefix("added 1,"), "\(privileged.stdout) \(privileged.stderr)")
        #expect(privileged.stderr.contains("uid") && privileged.stderr.contains("manager"), "said to be left out: \(privileged.stderr)")
        let hana = try #require(try await connection.search(base: target, filter: .equal("sn", "Handmade"),
                                                            attributes: ["uid", "manager", "mail"]).collect().first)
        #expect(!hana.strings("uid").contains("root") && hana.strings("manager").isEmpty && hana.strings("mail") == ["hana@example.org"])
        let otto = try #require(try await connection.search(base: target, filter: .equal("sn", "Outlooker")).collect().first)
        #expect(otto.strings("title") == ["Manager"], "Outlook's Title is a form of address, not the job title")
        #expect(otto.strings("o") == ["Contoso"] && otto.strings("telephoneNumber") == ["+49 30 111"])
        await connection.close()
    }
}

/// The cells of one CSV line (RFC 4180: quoted cells may hold commas and doubled quotes).
func csvCells(_ line: String) -> [String] {
    var cells: [String] = [], cell = "", quoted = false
    var characters = line.makeIterator()
    while let character = characters.next() {
        switch (character, quoted) {
        case ("\"", true):
            if let next = characters.next() {
                if next == "\"" { cell.append("\"") } else { quoted = false; if next == "," { cells.append(cell); cell = "" } else { cell.append(next) } }
            } else {
                quoted = false
            }
        case ("\"", false) where cell.isEmpty: quoted = true
        case (",", false): cells.append(cell); cell = ""
        default: cell.append(character)
        }
    }
    cells.append(cell)
    return cells
}
