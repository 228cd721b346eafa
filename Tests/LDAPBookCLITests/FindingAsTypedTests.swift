import Foundation
import LDAPKit
import SlapdKit
import Testing

/// A staff of many cultures, their names in their own scripts, with namesakes around them:
/// uid, given name, surname, and other attributes (`cn` defaults to "given surname").
private let staff: [(uid: String, given: String, surname: String, extra: [String: [String]])] = [
    ("tmueller", "Thomas", "Müller", ["mail": ["thomas.mueller@example.org"]]),
    ("hmuller", "Hans", "Muller", [:]), ("smuller", "Sabine", "Müllner", [:]),
    ("jsorensen", "Jørgen", "Sørensen", [:]), ("iodegaard", "Ingrid", "Ødegaard", [:]),
    ("kkoehler", "Klaus", "Köhler", [:]), ("kkohl", "Karl", "Kohl", [:]),
    // Vietnamese: the family name first in cn.
    ("tran", "Văn Đức", "Trần", ["cn": ["Trần Văn Đức"]]), ("dang", "Thị Hoa", "Đặng", ["cn": ["Đặng Thị Hoa"]]),
    ("vu", "Minh Châu", "Vũ", ["cn": ["Vũ Minh Châu"]]), ("huynh", "Lan", "Huỳnh", ["cn": ["Huỳnh Lan"]]),
    ("papa", "Γιώργος", "Παπαδόπουλος", [:]), ("georgiou", "Ελένη", "Γεωργίου", [:]),
    ("dejong", "Pieter", "de Jong", [:]), ("devries", "Anouk", "de Vries", [:]), ("alrashid", "Omar", "al-Rashid", [:]),
    ("elmasri", "Yasmin", "El Masri", [:]), ("dasilva", "João", "da Silva", [:]), ("leblanc", "Marie", "Le Blanc", [:]),
    ("lgarcia", "Carmen", "López García", [:]), ("jgarcia", "José", "García", [:]),
    ("schroeder", "Anna", "Schröder-Müller", [:]),
    // Stored in Chinese script only: no romanised name anywhere.
    ("wangwei", "伟", "王", ["cn": ["王伟"]]), ("gweiss", "Grete", "Weiß", [:]), ("pweiss", "Paul", "Weiss", [:]),
    ("olga", "Ольга", "Иванова", [:]),
    ("ada", "Ada", "Lovelace", ["telephoneNumber": ["+44 20 7946 0001"], "mail": ["ada@example.org"]]),
    ("jsmith1", "John", "Smith", ["title": ["Engineer"]]), ("jsmith2", "John", "Smith", ["title": ["Baker"]]),
    ("jasmith", "Jane", "Smith", [:]), ("josmith", "Joan", "Smith", [:]), ("jysmith", "Jay", "Smith", [:]),
    ("asmith", "Adam", "Smith", [:]), ("msmith", "Mary", "Smith", [:]), ("jsmithers", "Johanna", "Smithers", [:]),
    ("rbrown", "Robert", "Brown", [:]), ("wgates", "William", "Gates", [:]), ("bobby", "Bobbie", "Gentry", [:]),
    ("kjohnson", "Katherine", "Johnson", ["mail": ["kj@nasa.example", "katherine@nasa.example", "kjohnson@example.org"]]),
    ("khepburn", "Katherine", "Hepburn", ["mail": ["kh@example.org"]]), ("mjohnson", "Magic", "Johnson", ["mail": ["magic@example.org"]]),
    ("mona", "Mona", "Holder", ["mobile": ["+49 170 1111111"]]),
    ("other1", "Otto", "Other", ["mobile": ["+49 170 2222222"]]), ("other2", "Olivia", "Other", ["mobile": ["+49 171 3333333"]]),
]

/// A small JPEG of its own for `uid`.
private func photo(of uid: String) -> [UInt8] {
    [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00] + Array(uid.utf8) + [0xFF, 0xD9]
}

@Suite("Everyone is found as they are typed, through the local index")
struct FindingAsTypedTests {
    private static let office = Office()

    /// The shared server's container of `staff`; John Smith the engineer and the baker have a photo.
    private actor Office {
        private var made: (connection: LDAPConnection, base: DistinguishedName, arguments: [String])?

        func get() async throws -> (connection: LDAPConnection, base: DistinguishedName, arguments: [String]) {
            if let made { return made }
            let server = try await CLI.shared()
            let (connection, base) = try await CLI.container(server, people: [])
            for person in staff {
                var entry = LDAPEntry(dn: base.child("uid", LDAPValue(person.uid)), [
                    "objectClass": ["inetOrgPerson"], "uid": [person.uid], "givenName": [person.given],
                    "sn": [person.surname], "cn": ["\(person.given) \(person.surname)"],
                ])
                for (name, values) in person.extra { entry[name] = values.map { LDAPValue($0) } }
                if person.uid.hasPrefix("jsmith") && person.uid != "jsmithers" { entry["jpegPhoto"] = [LDAPValue(bytes: photo(of: person.uid))] }
                try await connection.add(entry)
            }
            made = (connection, base, CLI.connectionArguments(server, base: base))
            return made!
        }
    }

    /// The uids `find` lists for `query`, typed as words, best first.
    private func found(_ query: String, _ arguments: [String]) throws -> [String] {
        let result = try CLI.run(["find"] + query.split(separator: " ").map(String.init) + ["--format", "json", "--limit", "100"] + arguments)
        guard result.status == 0 else { return [] }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let matches = try #require(json["matches"] as? [[String: Any]])
        return matches.compactMap { ($0["dn"] as? String)?.split(separator: ",").first.map { String($0.dropFirst(4)) } }
    }

    @Test("each person is found, and first, as colleagues type the name", arguments: [
        // German ue/oe/ae, and the Scandinavian letters typed as they are on an English keyboard.
        ("mueller", ["tmueller"]), ("muller", ["tmueller", "hmuller"]), ("soerensen", ["jsorensen"]),
        ("sorensen", ["jsorensen"]), ("oedegaard", ["iodegaard"]), ("koehler", ["kkoehler"]),
        // Vietnamese without its accents; a later word of the name.
        ("tran", ["tran"]), ("dang", ["dang"]), ("vu", ["vu"]), ("huynh", ["huynh"]), ("duc", ["tran"]),
        // Greek as stored, without its tonos, in capitals with a final sigma, and in Latin letters.
        ("Παπαδόπουλος", ["papa"]), ("Παπαδοπουλος", ["papa"]), ("ΠΑΠΑΔΟΠΟΥΛΟΣ", ["papa"]), ("papadopoulos", ["papa"]),
        ("Γεωργίου", ["georgiou"]), ("georgiou", ["georgiou"]),
        // Particles joined.
        ("dejong", ["dejong"]), ("devries", ["devries"]), ("alrashid", ["alrashid"]), ("elmasri", ["elmasri"]),
        ("dasilva", ["dasilva"]), ("leblanc", ["leblanc"]), ("de jong", ["dejong"]), ("al rashid", ["alrashid"]),
        // An accented later word, and a hyphenated one.
        ("garcia", ["jgarcia", "lgarcia"]), ("müller schroder", ["schroeder"]), ("anna muller", ["schroeder"]),
        // Chinese and Cyrillic script, typed in Latin letters, or as stored.
        ("wang wei", ["wangwei"]), ("王伟", ["wangwei"]), ("wang", ["wangwei"]), ("olga", ["olga"]), ("ivanova", ["olga"]),
        // Typos: one in a word of five letters or more; swapped letters.
        ("lovelcae", ["ada"]), ("jhon smith", ["jsmith1", "jsmith2"]), ("ada lovelac", ["ada"]),
        // Nicknames.
        ("bob", ["rbrown", "bobby"]), ("bill gates", ["wgates"]), ("tom muller", ["tmueller"]), ("kate johnson", ["kjohnson"]),
        // Phone numbers, in any format, or their last digits.
        ("+44 20 7946 0001", ["ada"]), ("+44 (0)20 7946-0001", ["ada"]), ("0001", ["ada"]), ("+49 170 1111111", ["mona"]),
        ("1111111", ["mona"]),
    ] as [(String, [String])])
    func foundAsTyped(_ query: String, _ expected: [String]) async throws {
        let (_, _, arguments) = try await Self.office.get()
        let uids = try found(query, arguments)
        #expect(Set(uids.prefix(expected.count)) == Set(expected), "\(query): \(uids)")
        if query == "mueller" { #expect(uids.contains("hmuller"), "Muller, as Müller is written without its umlaut: \(uids)") }
    }

    @Test("a name nobody has finds nobody, and says so")
    func misses() async throws {
        let (_, _, arguments) = try await Self.office.get()
        for query in ["zzzzzz", "xq", "qwertyuiop"] {
            let result = try CLI.run(["find", query] + arguments)
            #expect(result.status == 1 && result.stdout.contains("no match"), "\(query): \(result.stdout)")
        }
        // "jhon smith" puts the John Smiths first, before the other Smiths whose first name starts with j.
        let smiths = try found("jhon smith", arguments)
        #expect(Set(smiths.prefix(2)) == ["jsmith1", "jsmith2"] && smiths.contains("jasmith"), "\(smiths)")
    }

    @Test("--explain says which kind of forgiveness found each person", arguments: [
        ("lovelcae", "one typo"), ("bob", "nickname of Robert"), ("papadopoulos", "transliterated"), ("0001", "phone digits"),
        ("tran", "accents folded"),
    ])
    func explained(_ query: String, _ words: String) async throws {
        let (_, _, arguments) = try await Self.office.get()
        let result = try CLI.run(["find", query, "--explain"] + arguments)
        #expect(result.status == 0 && result.stdout.contains(words), "\(query): \(result.stdout)")
    }

    @Test("a phone number in NAME is the holder's number, never a name to fill in")
    func phoneNumberAsName() async throws {
        let (connection, base, arguments) = try await Self.office.get()
        let asked = try CLI.run(["reach", "phone", "+44 20 7946 0001", "--no-input"] + arguments)
        #expect(asked.status == 3 && asked.stderr.contains("Print phone +44 20 7946 0001 of Ada Lovelace?"), "\(asked.stderr)")
        let printed = try CLI.run(["reach", "phone", "+44", "20", "7946", "0001", "--yes", "--no-input"] + arguments)
        #expect(printed.status == 0 && printed.stdout == "+44 20 7946 0001\n", "\(printed.stdout) \(printed.stderr)")
        // The holder of a mobile number, not everyone with a mobile.
        let mobile = try CLI.run(["reach", "mobile", "+49 170 1111111", "--no-input"] + arguments)
        #expect(mobile.status == 3 && mobile.stderr.contains("Print mobile +49 170 1111111 of Mona Holder?"), "\(mobile.stderr)")
        // query and show find the holder by the number too.
        let queried = try CLI.run(["query", "+44 20 7946 0001"] + arguments)
        #expect(queried.status == 0 && queried.stdout.contains("ada@example.org\tAda Lovelace"), "\(queried.stdout) \(queried.stderr)")
        let shown = try CLI.run(["show", "0001", "--format", "ldif"] + arguments)
        #expect(shown.status == 0 && shown.stdout.contains("sn: Lovelace"), "\(shown.stdout) \(shown.stderr)")
        // A number nobody has is not a name for a new entry.
        let nobody = try CLI.run(["reach", "email", "+1 555 0199", "--value", "x@example.org", "--yes", "--no-input"] + arguments)
        #expect(nobody.status == 65, "\(nobody.status) \(nobody.stderr)")
        let ada = try #require(try await connection.read(base.child("uid", "ada"), attributes: ["givenName", "sn", "cn"]))
        #expect(ada.strings("givenName") == ["Ada"] && ada.strings("sn") == ["Lovelace"] && ada.strings("cn") == ["Ada Lovelace"])
        var numbered: [DistinguishedName] = []
        for try await entry in connection.search(base: base, filter: .or([.substrings("cn", initial: nil, any: ["0199"], final: nil), .substrings("cn", initial: nil, any: ["7946"], final: nil)]),
                                                 attributes: ["1.1"]) {
            numbered.append(entry.dn)
        }
        #expect(numbered.isEmpty, "no one is named by digits: \(numbered)")
    }

    @Test("one full match with several values lists just that person's values")
    func oneFullMatchSeveralValues() async throws {
        let (_, _, arguments) = try await Self.office.get()
        let result = try CLI.run(["reach", "email", "katherine", "johnson", "--no-input"] + arguments)
        #expect(result.status == 3)
        for mail in ["kj@nasa.example", "katherine@nasa.example", "kjohnson@example.org"] {
            #expect(result.stderr.contains(mail), "\(result.stderr)")
        }
        #expect(!result.stderr.contains("kh@example.org") && !result.stderr.contains("magic@example.org"), "\(result.stderr)")
        let picked = try CLI.run(["reach", "email", "katherine", "johnson", "--pick", "2", "--yes", "--no-input"] + arguments)
        #expect(picked.status == 0 && picked.stdout == "katherine@nasa.example\n", "\(picked.stdout) \(picked.stderr)")
    }

    @Test("photo of an ambiguous name asks, and says whose it wrote")
    func ambiguousPhoto() async throws {
        let (_, _, arguments) = try await Self.office.get()
        let asked = try CLI.run(["photo", "smith", "--no-input"] + arguments)
        #expect(asked.status == 3 && asked.stdoutBytes.isEmpty, "\(asked.stderr)")
        #expect(asked.stderr.contains("John Smith — Engineer") && asked.stderr.contains("John Smith — Baker"), "\(asked.stderr)")
        let picked = try CLI.run(["photo", "smith", "--pick", "1", "--no-input"] + arguments)
        #expect(picked.status == 0 && picked.stderr.contains("the photo of John Smith"), "\(picked.stderr)")
        #expect(picked.stdoutBytes == photo(of: "jsmith1") || picked.stdoutBytes == photo(of: "jsmith2"))
    }

    @Test("a typo is never taken for nobody: reach offers the person the typo means")
    func typoIsNotNobody() async throws {
        let (_, _, arguments) = try await Self.office.get()
        let result = try CLI.run(["reach", "phone", "lovelcae", "--no-input"] + arguments)
        #expect(result.status == 3 && result.stderr.contains("Ada Lovelace") && !result.stderr.contains("new entry's"), "\(result.stderr)")
        // Without the index, too: a lookup asks the server only for names as selective as the
        // word (so `find lovelcae` finds nobody), and reach asks again, forgiving, before it
        // offers a new entry.
        let found = try CLI.run(["find", "lovelcae", "--no-cache"] + arguments)
        #expect(found.status == 1 && found.stdout.contains("no match"), "\(found.stdout)")
        let reached = try CLI.run(["reach", "phone", "lovelcae", "--no-cache", "--no-input"] + arguments)
        #expect(reached.status == 3 && reached.stderr.contains("Ada Lovelace") && !reached.stderr.contains("new entry's"), "\(reached.stderr)")
        let nobody = try CLI.run(["reach", "phone", "zzzzzz", "--no-cache", "--no-input"] + arguments)
        #expect(nobody.status == 3 && nobody.stderr.contains("new entry's"), "\(nobody.stderr)")
    }

    @Test("without the index, names are found with one accent anywhere, the word spelt out, a nickname with another word",
          arguments: [
              ("garcia", ["jgarcia"]), ("mueller", ["tmueller"]), ("muller", ["tmueller", "hmuller"]), ("koehler", ["kkoehler"]),
              ("sorensen", ["jsorensen"]), ("tom muller", ["tmueller"]), ("bob", ["rbrown", "bobby"]),
              ("john smith", ["jsmith1", "jsmith2"]), ("+44 20 7946 0001", ["ada"]),
          ] as [(String, [String])])
    func foundWithoutIndex(_ query: String, _ expected: [String]) async throws {
        let (_, _, arguments) = try await Self.office.get()
        let uids = try found(query, arguments + ["--no-cache"])
        #expect(Set(uids.prefix(expected.count)) == Set(expected), "\(query): \(uids)")
    }

    @Test("a new person given an address someone holds is warned of them; names are written as people write them")
    func createWithHeldValue() async throws {
        let (connection, base, arguments) = try await Self.office.get()
        let created = try CLI.run(["reach", "email", "vincent", "van", "gogh", "--value", "ada@example.org", "--yes", "--no-input"] + arguments)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr.contains("ada@example.org is already Ada Lovelace's"), "\(created.stderr)")
        var people: [LDAPEntry] = []
        for try await entry in connection.search(base: base, filter: .equal("mail", "ada@example.org"), attributes: ["cn", "givenName", "sn"]) {
            people.append(entry)
        }
        let vincent = try #require(people.first { $0.strings("sn") != ["Lovelace"] })
        #expect(vincent.strings("cn") == ["Vincent van Gogh"] && vincent.strings("givenName") == ["Vincent"] && vincent.strings("sn") == ["van Gogh"],
                "\(vincent)")
        // The next call with the same name and field finds the new entry.
        let again = try CLI.run(["reach", "email", "vincent", "van", "gogh", "--yes", "--no-input"] + arguments)
        #expect(again.status == 0 && again.stdout == "ada@example.org\n", "\(again.stdout) \(again.stderr)")
        try await connection.delete(vincent.dn)
    }
}
