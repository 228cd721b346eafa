import Foundation
import LDAPKit
import SlapdKit
import Testing

/// People whose names are typed in many ways, each with an email address and, but for Zed Smith, a photo of their own.
private let townsfolk: [(given: String?, surname: String, extra: [String: [String]])] = [
    ("Zoë", "Ångström", [:]), ("José", "Fernández", [:]), ("Jürgen", "Krüger", [:]), ("María", "López", [:]),
    ("Jérôme", "Moreau", [:]), ("Pieter", "van der Berg", [:]), ("Conan", "O'Brien", [:]), ("Jean-Luc", "Picard", [:]),
    ("Lucía", "García", [:]), ("Lucía", "Luna", [:]), ("Mary Ann", "Evans", [:]), ("Mary", "Brown", [:]),
    ("Ada", "Lovelace", ["cn": ["Ada Lovelace", "Countess of Lovelace"]]), ("Adam", "Smith", [:]), ("Zed", "Smith", [:]),
    ("Adam", "Jones", [:]), ("María", "Müller", [:]), ("Margaret", "Smith", ["title": ["Accountant"]]),
    ("Margaret", "Smith", ["title": ["Surgeon"]]),
]

/// A small JPEG that only the person at `index` has.
private func photo(_ index: Int) -> [UInt8] {
    [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, UInt8(index), 0xFF, 0xD9]
}

@Suite("One matcher: every command finds the person a name means")
struct NameMatchingCommandTests {
    /// The shared server's container of `townsfolk`; Ada's address is ada@analytical.example,
    /// everyone else's person<index>@example.org.
    private static let town = Town()
    /// Zed Smith, the one person without a photo.
    private static let withoutPhoto = 14

    private actor Town {
        private var made: (base: DistinguishedName, arguments: [String], files: URL)?

        func get() async throws -> (base: DistinguishedName, arguments: [String], files: URL) {
            if let made { return made }
            let server = try await CLI.shared()
            let (connection, base) = try await CLI.container(server, people: [])
            for (index, person) in townsfolk.enumerated() {
                let dn = base.child("uid", LDAPValue("person\(index)"))
                var entry = LDAPEntry(dn: dn, [
                    "objectClass": ["inetOrgPerson"], "uid": ["person\(index)"], "sn": [person.surname],
                    "cn": [[person.given, person.surname].compactMap { $0 }.joined(separator: " ")],
                    "mail": [person.surname == "Lovelace" ? "ada@analytical.example" : "person\(index)@example.org"],
                ])
                if let given = person.given { entry["givenName"] = [LDAPValue(given)] }
                for (name, values) in person.extra { entry[name] = values.map { LDAPValue($0) } }
                if index != NameMatchingCommandTests.withoutPhoto { entry["jpegPhoto"] = [LDAPValue(bytes: photo(index))] }
                try await connection.add(entry)
            }
            let files = server.directory.appendingPathComponent("town-\(UUID().uuidString.prefix(6))")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            made = (base, CLI.connectionArguments(server, base: base), files)
            return made!
        }
    }

    @Test("find, reach, show, query and photo agree on the person", arguments: [
        ("zoe", 0), ("angstrom", 0), ("ZOË", 0), ("fernandez", 1), ("jurgen", 2), ("lopez", 3), ("jerome", 4), ("berg", 5),
        ("obrien", 6), ("o brien", 6), ("jean luc", 7), ("jeanluc", 7), ("mary ann", 10), ("ada@analytical", 12),
        ("countess", 12), ("adam smith", 13), ("maria muller", 16), ("Lovelace, Ada", 12), ("ann", 10), ("bri", 6),
    ] as [(String, Int)])
    func everyCommand(_ name: String, _ index: Int) async throws {
        let (base, arguments, files) = try await Self.town.get()
        let words = name.split(separator: " ").map(String.init)
        let dn = base.child("uid", LDAPValue("person\(index)")).string
        let mail = townsfolk[index].surname == "Lovelace" ? "ada@analytical.example" : "person\(index)@example.org"

        let found = try CLI.run(["find"] + words + ["--format", "json"] + arguments)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
        let matches = try #require(list["matches"] as? [[String: Any]])
        #expect(matches.first?["dn"] as? String == dn, "find \(name): \(matches.map { $0["dn"] ?? "" })")

        let reached = try CLI.run(["reach", "email"] + words + ["--yes", "--no-input"] + arguments)
        #expect(reached.status == 0 && reached.stdout == mail + "\n", "reach email \(name): \(reached.stdout) \(reached.stderr)")

        let shown = try CLI.run(["show"] + words + ["--no-input", "--format", "json"] + arguments)
        let shownPerson = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect(shown.status == 0 && shownPerson?["dn"] as? String == dn, "show \(name): \(shown.stderr)")

        let queried = try CLI.run(["query"] + words + arguments)
        #expect(queried.stdout.split(separator: "\n").dropFirst().first?.hasPrefix(mail + "\t") == true,
                "query \(name): \(queried.stdout)")

        let file = files.appendingPathComponent("\(index)-\(UUID().uuidString.prefix(6)).jpg")
        let pictured = try CLI.run(["photo"] + words + ["-o", file.path] + arguments)
        #expect(pictured.status == 0, "photo \(name): \(pictured.stderr)")
        #expect(try Data(contentsOf: file) == Data(photo(index)), "photo \(name) is that person's")
    }

    @Test("namesakes are told apart in every list: find, the --no-input choices, query")
    func namesakesToldApart() async throws {
        let (_, arguments, _) = try await Self.town.get()
        let found = try CLI.run(["find", "margaret", "smith"] + arguments)
        #expect(found.stdout.contains("Accountant") && found.stdout.contains("Surgeon"), "\(found.stdout)")
        let choices = try CLI.run(["show", "margaret", "smith", "--no-input"] + arguments)
        #expect(choices.status == 3)
        #expect(choices.stderr.contains("Margaret Smith — Accountant") && choices.stderr.contains("Margaret Smith — Surgeon"),
                "\(choices.stderr)")
        let queried = try CLI.run(["query", "margaret"] + arguments)
        #expect(queried.stdout.contains("\tMargaret Smith\tAccountant") && queried.stdout.contains("\tMargaret Smith\tSurgeon"))
    }

    @Test("photo gives the photo of the person every word means, never of someone one word matches")
    func photoOfThePersonMeant() async throws {
        let (_, arguments, files) = try await Self.town.get()
        // Zed Smith has no photo: "zed smith" means him alone, and Adam Smith's photo is not his.
        let file = files.appendingPathComponent("zed-\(UUID().uuidString.prefix(6)).jpg")
        let zedPhoto = try CLI.run(["photo", "zed", "smith", "-o", file.path] + arguments)
        #expect(zedPhoto.status == 1 && zedPhoto.stderr.contains("no photo found"), "\(zedPhoto.status) \(zedPhoto.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // Two Adams have a photo: which one is asked, never guessed; --pick chooses.
        let adam = try CLI.run(["photo", "adam", "-o", file.path, "--no-input"] + arguments)
        #expect(adam.status == 3 && adam.stderr.contains("Adam Smith") && adam.stderr.contains("Adam Jones"), "\(adam.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let picked = try CLI.run(["photo", "adam", "-o", file.path, "--pick", "1"] + arguments)
        #expect(picked.status == 0 && picked.stderr.contains("Adam"), "\(picked.stderr)")
        #expect(try Data(contentsOf: file) == Data(photo(15)) || Data(contentsOf: file) == Data(photo(13)),
                "one of the Adams: \(picked.stderr)")
    }

    @Test("a unique full match resolves; one word shared by many still lists them")
    func uniqueFullMatch() async throws {
        let (_, arguments, _) = try await Self.town.get()
        let smiths = try CLI.run(["show", "smith", "--no-input"] + arguments)
        #expect(smiths.status == 3, "several Smiths: a list")
        let adam = try CLI.run(["reach", "email", "adam", "smith", "--no-input"] + arguments)
        #expect(adam.status == 3 && adam.stderr.contains("Print email"), "a confirmation, not a list: \(adam.stderr)")
    }
}
