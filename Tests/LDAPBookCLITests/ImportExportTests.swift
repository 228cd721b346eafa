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
        #expect(csv.stdout.hasPrefix("dn,given name,surname,email"))
        #expect(csv.stdout.contains(",Ada,Lovelace,ada@example.com,"))

        let (_, target) = try await CLI.container(server, people: [])
        let file = server.directory.appendingPathComponent("people-\(UUID().uuidString.prefix(6)).ldif")
        try ldif.stdout.write(to: file, atomically: true, encoding: .utf8)
        let imported = try CLI.run(["import", file.path] + CLI.connectionArguments(server, base: target))
        #expect(imported.stdout.hasPrefix("added 2, updated 0, unchanged 0, rejected 0"), "\(imported.stdout)")
        let copied = try await connection.search(base: target, filter: .equal("mail", "ada@example.com")).collect()
        #expect(copied.count == 1)
    }
}
