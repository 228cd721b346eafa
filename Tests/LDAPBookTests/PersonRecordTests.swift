@testable import LDAPBook
import LDAPKit
import Testing

private let dn = try! DistinguishedName(parsing: "uid=ada,ou=people,dc=example,dc=com")

/// An entry at `dn` with `attributes`, each value given as bytes.
private func entry(_ attributes: [(String, [[UInt8]])]) -> LDAPEntry {
    LDAPEntry(dn: dn, attributes: attributes.map { LDAPAttribute(name: $0.0, values: $0.1.map { LDAPValue(bytes: $0) }) })
}

/// An entry at `dn` with `attributes`, each value given as text.
private func entry(_ attributes: KeyValuePairs<String, [String]>) -> LDAPEntry {
    LDAPEntry(dn: dn, attributes)
}

/// The entry a record of `entry` gives back, once it is read from its bytes.
private func readBack(_ entry: LDAPEntry) -> LDAPEntry {
    PersonRecord(bytes: PersonRecord(entry: entry).bytes).entry(dn: entry.dn)
}

/// The names and values of `entry`'s attributes.
private func contents(_ entry: LDAPEntry) -> [String: [[UInt8]]] {
    Dictionary(entry.attributes.map { ($0.name, $0.values.map(\.bytes)) }, uniquingKeysWith: +)
}

@Suite("What the index keeps of a person, in a few bytes")
struct PersonRecordTests {
    @Test("the attributes held are names, addresses, phones, title and organisation; never a secret or a photo")
    func heldAttributes() {
        for held in ["givenName", "sn", "cn", "displayName", "ldapbookNickname", "mail", "telephoneNumber", "mobile", "homePhone",
                     "pager", "title", "ou", "o", "GIVENNAME", "Mail", "cn;lang-ja", "SN;lang-de;phonetic"] {
            #expect(PersonRecord.holds(held), "\(held)")
        }
        for other in ["jpegPhoto", "userPassword", "objectClass", "uid", "entryUUID", "description", "c", "mailAlternate",
                      "givenNames", "", ";lang-ja", "userCertificate;binary"] {
            #expect(!PersonRecord.holds(other), "\(other)")
        }
        #expect(PersonRecord.attributes.count == 13, "numbered from 1, below the marks 0x40 and 0x41")
    }

    @Test("a person's names, addresses and phones come back as they were, in the order of the attributes held")
    func roundTrip() {
        let person = entry([
            "objectClass": ["inetOrgPerson"], "sn": ["Lovelace"], "givenName": ["Ada"], "cn": ["Ada Lovelace", "Augusta Ada King"],
            "mail": ["ada@example.org", "ada.lovelace@example.com"], "telephoneNumber": ["+44 20 7946 0001"],
            "mobile": ["+44 7700 900001"], "title": ["Analyst"], "ou": ["Engines"], "o": ["Analytical"],
            "userPassword": ["secret"], "jpegPhoto": ["\u{FF}\u{D8}"], "displayName": ["Countess of Lovelace"],
            "ldapbookNickname": ["Ada"], "homePhone": ["020 7946 0002"], "pager": ["0003"],
        ])
        let back = readBack(person)
        #expect(back.dn == person.dn)
        #expect(back.attributes.map(\.name) == PersonRecord.attributes, "every attribute held, in its order, nothing else")
        #expect(back.strings("cn") == ["Ada Lovelace", "Augusta Ada King"])
        #expect(back.strings("mail") == ["ada@example.org", "ada.lovelace@example.com"])
        #expect(back.strings("givenName") == ["Ada"] && back.strings("sn") == ["Lovelace"])
        #expect(back.strings("pager") == ["0003"] && back.strings("o") == ["Analytical"])
        #expect(!back.has("userPassword") && !back.has("jpegPhoto") && !back.has("objectClass"))
        // What a record made from an entry holds is what it gives back, before and after its bytes are read.
        #expect(PersonRecord(entry: person).held == PersonRecord(bytes: PersonRecord(entry: person).bytes).values())
    }

    @Test("bytes that are no text, or look like the record's own marks and lengths, come back byte for byte")
    func binaryUnsafeValues() {
        let awkward: [[UInt8]] = [
            [0x00], [0xFF, 0xFE, 0x00, 0x80], [0x40], [0x41], [0x41, 0x41, 0x41], [0x01, 0x03, 0x41, 0x64, 0x61], [0x80, 0x80, 0x80],
            [0xC3], [0xED, 0xA0, 0x80], Array(0...255), [UInt8](repeating: 0x80, count: 127), [UInt8](repeating: 0x00, count: 128),
        ]
        for number in PersonRecord.attributes.indices {
            let name = PersonRecord.attributes[number]
            let back = readBack(entry([(name, awkward)]))
            #expect(contents(back) == [name: awkward], "\(name)")
        }
        // Every attribute at once, each with every awkward value.
        let all = entry(PersonRecord.attributes.map { ($0, awkward) })
        #expect(readBack(all).attributes.map { $0.values.map(\.bytes) } == PersonRecord.attributes.map { _ in awkward })
    }

    @Test("names in other scripts come back as they were, their Latin letters kept after them")
    func otherScripts() throws {
        let names = ["王伟", "Παπαδόπουλος", "Ольга", "やまだ", "Müller", "Sørensen", "Trần", "Đặng", "İstanbul", "👩🏽‍💻"]
        let person = entry(["givenName": names, "cn": names.reversed(), "title": ["Инженер"]])
        let record = PersonRecord(entry: person)
        let back = PersonRecord(bytes: record.bytes).entry(dn: dn)
        #expect(back.strings("givenName") == names)
        #expect(back.strings("cn") == names.reversed())
        #expect(back.strings("title") == ["Инженер"])
        // The transliteration follows its value, marked 0x40; a Latin name has none, and neither has a title.
        let latin = try #require(Transliteration.latin(of: "王伟"))
        let marked = [UInt8(0x40), UInt8(latin.utf8.count)] + Array(latin.utf8)
        #expect(record.bytes.firstRange(of: marked) != nil, "王伟 carries \(latin)")
        #expect(Transliteration.latin(of: "Müller") == nil && Transliteration.latin(of: "Trần") == nil)
        #expect(record.bytes.firstRange(of: Array("Inzhener".utf8)) == nil
            && record.bytes.firstRange(of: Array("Inžener".utf8)) == nil, "titles are not transliterated")
        #expect(record.bytes.filter { $0 == 0x40 }.count == 8,
                "one after each of 王伟, Παπαδόπουλος, Ольга and やまだ, as given names and as full names")
    }

    @Test("a full name that is the given name and surname joined by a space is one byte")
    func joinedName() {
        let person = entry(["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Ada Lovelace"]])
        let record = PersonRecord(entry: person)
        #expect(record.bytes == [1, 3] + Array("Ada".utf8) + [2, 8] + Array("Lovelace".utf8) + [0x41])
        #expect(readBack(person).strings("cn") == ["Ada Lovelace"])

        // The surname before the given name, and other names first: the joined name is the first names'.
        let reordered = entry(["cn": ["Lovelace Ada", "Ada Lovelace"], "sn": ["Lovelace", "King"], "givenName": ["Ada", "Augusta"]])
        let back = readBack(reordered)
        #expect(back.strings("cn") == ["Lovelace Ada", "Ada Lovelace"])
        let bytes = PersonRecord(entry: reordered).bytes
        #expect(bytes.last == 0x41 && bytes.firstRange(of: Array("Ada Lovelace".utf8)) == nil)
        #expect(bytes.count == 2 * 4 + "AdaAugustaLovelaceKing".utf8.count + 2 + "Lovelace Ada".utf8.count + 1)

        // Nearly joined is spelt out.
        for cn in ["Ada  Lovelace", "ada lovelace", "Ada Lovelace ", "Ada-Lovelace", "Augusta Lovelace"] {
            let near = entry(["givenName": ["Ada", "Augusta"], "sn": ["Lovelace"], "cn": [cn]])
            #expect(PersonRecord(entry: near).bytes.firstRange(of: Array(cn.utf8)) != nil, "\(cn)")
            #expect(readBack(near).strings("cn") == [cn])
        }
        // Without a given name there is nothing to join.
        let surnameOnly = entry(["sn": ["Lovelace"], "cn": [" Lovelace", "Lovelace"]])
        #expect(readBack(surnameOnly).strings("cn") == [" Lovelace", "Lovelace"])
    }

    @Test("no attributes, or only empty values and attributes not held, make an empty record")
    func emptyRecords() {
        for person in [entry([:] as KeyValuePairs<String, [String]>), entry(["sn": [""], "cn": ["", ""], "jpegPhoto": ["x"]])] {
            let record = PersonRecord(entry: person)
            #expect(record.bytes.isEmpty)
            #expect(PersonRecord(bytes: []).entry(dn: dn).attributes.isEmpty)
            #expect(record.held.allSatisfy { $0.isEmpty })
        }
        // An empty value among others is left out, the others kept in order.
        #expect(readBack(entry(["mail": ["", "a@example.org", "", "b@example.org"]])).strings("mail") == ["a@example.org", "b@example.org"])
    }

    @Test("many values, and values whose lengths take two or three bytes, come back in order")
    func manyAndLongValues() {
        let mails = (0..<2000).map { "person.\($0)@example.org" }
        #expect(readBack(entry(["mail": mails])).strings("mail") == mails)
        for length in [127, 128, 129, 16383, 16384, 100_000] {
            let value = [UInt8]((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let person = entry([("title", [value]), ("o", [[0x61]])])
            #expect(contents(readBack(person)) == ["title": [value], "o": [[0x61]]], "\(length) bytes")
        }
        #expect(PersonRecord(entry: entry([("ou", [[UInt8](repeating: 0x61, count: 128)])])).bytes.prefix(3) == [12, 0x80, 0x01],
                "a length of 128 in two seven-bit groups")
    }

    @Test("attributes with options are held under their type, in any case")
    func options() {
        let person = entry(["cn;lang-ja": ["山田"], "CN": ["Yamada Taro"], "Mail": ["taro@example.jp"], "sn;lang-en": ["Yamada"]])
        let back = readBack(person)
        #expect(back.strings("cn") == ["山田", "Yamada Taro"])
        #expect(back.strings("mail") == ["taro@example.jp"] && back.strings("sn") == ["Yamada"])
        #expect(back.attributes.map(\.name) == ["sn", "cn", "mail"], "named as the index names them")
    }

    @Test("a record read back and made again is the same bytes; random entries survive the round trip")
    func bytesForBytes() {
        var generator = SplitMix(state: 42)
        let pool: [[UInt8]] = [Array("Ada".utf8), Array("Lovelace".utf8), Array("Ada Lovelace".utf8), Array("王伟".utf8),
                               Array("Müller".utf8), [0x00, 0xFF], [0x41], [0x40, 0x40], Array("Ольга".utf8)]
        for _ in 0..<300 {
            var attributes: [(String, [[UInt8]])] = []
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let name = (PersonRecord.attributes + ["uid", "jpegPhoto"]).randomElement(using: &generator)!
                let values = (0..<Int.random(in: 0...3, using: &generator)).map { _ -> [UInt8] in
                    Bool.random(using: &generator) ? pool.randomElement(using: &generator)!
                        : (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                }
                attributes.append((name, values))
            }
            let person = entry(attributes)
            let record = PersonRecord(entry: person)
            let back = PersonRecord(bytes: record.bytes).entry(dn: dn)
            #expect(PersonRecord(bytes: record.bytes).values() == record.held)
            // The values of each attribute held, in order, empty ones left out.
            for name in PersonRecord.attributes {
                let expected = attributes.filter { $0.0 == name }.flatMap { $0.1 }.filter { !$0.isEmpty }
                #expect(back[name].map(\.bytes) == expected, "\(name)")
            }
            let again = PersonRecord(entry: back)
            #expect(PersonRecord(bytes: again.bytes).entry(dn: dn).attributes == back.attributes)
            #expect(PersonRecord(entry: PersonRecord(bytes: again.bytes).entry(dn: dn)).bytes == again.bytes,
                    "read back, a record is made again byte for byte")
        }
    }

    @Test("bytes that are no record, cut or damaged, read without trapping and give only attributes held")
    func damagedRecords() {
        let whole = PersonRecord(entry: entry(["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Ada Lovelace"], "mail": ["ada@example.org"]]))
        for cut in 0...whole.bytes.count {
            let back = PersonRecord(bytes: Array(whole.bytes.prefix(cut))).entry(dn: dn)
            #expect(back.attributes.allSatisfy { PersonRecord.holds($0.name) })
        }
        let damaged: [[UInt8]] = [
            [0x00, 0x01, 0x61], [0x0E, 0x01, 0x61], [0xFF, 0x02, 0x61, 0x62], [0x41], [0x40, 0x01, 0x61],
            [0x01] + [UInt8](repeating: 0xFF, count: 12), [0x01] + [UInt8](repeating: 0xFF, count: 9) + [0x7F, 0x61],
            [0x01] + [UInt8](repeating: 0x80, count: 9) + [0x01, 0x61], [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
        ]
        for bytes in damaged {
            let back = PersonRecord(bytes: bytes).entry(dn: dn)
            #expect(back.attributes.allSatisfy { PersonRecord.holds($0.name) }, "\(bytes)")
        }
        // Unknown numbers are skipped, the values after them kept.
        #expect(PersonRecord(bytes: [0x0E, 0x01, 0x61, 0x02, 0x01, 0x62]).entry(dn: dn).strings("sn") == ["b"])
        var generator = SplitMix(state: 99)
        for _ in 0..<1000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(PersonRecord(bytes: bytes).entry(dn: dn).attributes.count <= PersonRecord.attributes.count)
        }
    }
}
