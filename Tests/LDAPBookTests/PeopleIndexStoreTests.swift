import Foundation
@testable import LDAPBook
import LDAPKit
import SQLiteKit
import Testing

private let base = "dc=example,dc=com"
private let scope = PeopleIndex.Scope(servers: ["ldap://ldap.example.com"], base: base, identity: "cn=reader,dc=example,dc=com")

/// A folder of its own under the system's temporary folder, for `body`, removed afterwards.
private func withFolder<Result>(_ body: (String) throws -> Result) throws -> Result {
    let folder = FileManager.default.temporaryDirectory.path + "/ldapbook-index-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
}

/// The permission bits of the file or folder at `path`.
private func permissions(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

/// A person at `uid=p<number>` under the people of the base (or at `dn`), identified by a UUID made of `number`.
private func person(_ number: Int, _ attributes: KeyValuePairs<String, [String]>, dn: String? = nil) -> LDAPEntry {
    var entry = LDAPEntry(dn: try! DistinguishedName(parsing: dn ?? "uid=p\(number),ou=people,\(base)"), attributes)
    entry["entryUUID"] = [LDAPValue(uuid(number))]
    return entry
}

/// The entryUUID of person `number`.
private func uuid(_ number: Int) -> String {
    let hex = String(number, radix: 16)
    return "597ae2f6-16a6-1027-98f4-" + String(repeating: "0", count: 12 - hex.count) + hex
}

/// The person of `entry`, as a sync files them.
private func filed(_ entry: LDAPEntry) -> FiledPerson {
    FiledPerson(entry, uuid: EntryUUID.bytes(of: entry.string("entryUUID")!), folding: NameFolding())
}

/// Files `people` as a sync does: one by one, each in place of what the index held of them,
/// or as a full load (everyone read anew) in batches.
private func file(_ people: [LDAPEntry], in index: PeopleIndex, fullLoad: Bool = false, batch: Int = 3) throws {
    if fullLoad { try index.write { try $0.beginFullLoad() } }
    for start in stride(from: 0, to: people.count, by: batch) {
        try index.write { store in
            for entry in people[start..<min(start + batch, people.count)] {
                if fullLoad { try store.load(filed(entry)) } else { try store.put(filed(entry)) }
            }
        }
    }
    try index.write { store in
        if fullLoad { try store.finishFullLoad() }
        try store.setMeta("incomplete", nil)
        try store.setMeta("synced-at", String(Date().timeIntervalSince1970))
    }
}

/// The full names of the candidates the index gives for `query`.
private func found(_ query: String, in index: PeopleIndex) throws -> Set<String> {
    Set(try index.candidates(for: NameMatcher(try NameQuery(query))).map { $0.string("cn") ?? "?" })
}

/// Every id filed under a name or phone key: what lookups can reach.
private func filedIDs(in index: PeopleIndex) throws -> Set<Int64> {
    try index.withStore { store in
        var ids = Set<Int64>()
        try store.collect(prefix: [Postings.Kind.name.rawValue], into: &ids)
        try store.collect(prefix: [Postings.Kind.address.rawValue], into: &ids)
        try store.collect(prefix: [Postings.Kind.phone.rawValue], into: &ids)
        return ids
    }
}

/// The id of the person with entryUUID `text`.
private func id(of text: String, in index: PeopleIndex) throws -> Int64? {
    try index.withStore { store in
        let select = try store.statement("SELECT id FROM people WHERE uuid = ?")
        try select.bind(blob: EntryUUID.bytes(of: text), at: 1)
        defer { select.reset() }
        return try select.step() ? select.int64(at: 0) : nil
    }
}

/// The staff of a multicultural company.
private let staff: [LDAPEntry] = [
    person(1, ["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Ada Lovelace"], "mail": ["ada.lovelace@example.com"],
               "telephoneNumber": ["+44 20 7946 0001"], "title": ["Analyst"]]),
    person(2, ["givenName": ["Anna"], "sn": ["Müller"], "cn": ["Anna Müller"], "mobile": ["+49 170 1111111"]]),
    person(3, ["givenName": ["Pieter"], "sn": ["de Jong"], "cn": ["Pieter de Jong"], "mail": ["2ndline.support@example.com"]]),
    person(4, ["givenName": ["María"], "sn": ["López García"], "cn": ["María López García"]]),
    person(5, ["givenName": ["Minh"], "sn": ["Trần"], "cn": ["Trần Minh"]]),
    person(6, ["givenName": ["Robert"], "sn": ["Smith"], "cn": ["Robert Smith"], "homePhone": ["020 7946 0999"]]),
    person(7, ["givenName": ["伟"], "sn": ["王"], "cn": ["王伟"]]),
    person(8, ["givenName": ["Γεώργιος"], "sn": ["Παπαδόπουλος"], "cn": ["Γεώργιος Παπαδόπουλος"]]),
    person(9, ["givenName": ["Lars"], "sn": ["Sørensen"], "cn": ["Lars Sørensen"], "ldapbookNickname": ["Lasse"]]),
    person(10, ["givenName": ["Olga"], "sn": ["Иванова"], "cn": ["Ольга Иванова"], "pager": ["0044 20 7946 0555"]]),
]

/// What queries find among ``staff``.
private let queries: [(String, Set<String>)] = [
    ("mueller", ["Anna Müller"]), ("muller", ["Anna Müller"]), ("müller", ["Anna Müller"]), ("MÜLLER", ["Anna Müller"]),
    ("dejong", ["Pieter de Jong"]), ("de jong", ["Pieter de Jong"]), ("jong", ["Pieter de Jong"]), ("2ndline", ["Pieter de Jong"]),
    ("garcia", ["María López García"]), ("lopez", ["María López García"]), ("maria", ["María López García"]),
    ("tran", ["Trần Minh"]), ("Trần", ["Trần Minh"]), ("lovelcae", ["Ada Lovelace"]), ("lovelace", ["Ada Lovelace"]),
    ("ada", ["Ada Lovelace"]), ("Lovelace, Ada", ["Ada Lovelace"]), ("ada.lovelace@example.com", ["Ada Lovelace"]),
    ("bob", ["Robert Smith"]), ("rob", ["Robert Smith"]), ("0001", ["Ada Lovelace"]), ("+44 20 7946 0001", ["Ada Lovelace"]),
    ("020 7946 0001", ["Ada Lovelace"]), ("7946 0999", ["Robert Smith"]), ("+44 20 7946 0999", ["Robert Smith"]),
    ("+44 20 7946 0555", ["Ольга Иванова"]), ("0170 1111111", ["Anna Müller"]), ("wang wei", ["王伟"]), ("王", ["王伟"]),
    ("wang", ["王伟"]), ("papadopoulos", ["Γεώργιος Παπαδόπουλος"]), ("ΠΑΠΑΔΟΠΟΥΛΟΣ", ["Γεώργιος Παπαδόπουλος"]),
    ("παπαδοπουλος", ["Γεώργιος Παπαδόπουλος"]), ("soerensen", ["Lars Sørensen"]), ("sorensen", ["Lars Sørensen"]),
    ("lasse", ["Lars Sørensen"]), ("sorensne", ["Lars Sørensen"]), ("olga", ["Ольга Иванова"]), ("ivanova", ["Ольга Иванова"]),
    ("Ольга", ["Ольга Иванова"]), ("zzzzzz", []), ("0002", []), ("xavier", []), ("+33 20 7946 0001", []),
]

/// One test at a time: opening an index narrows the process's umask while it makes its file.
@Suite("The local index of people, on a real SQLite file", .serialized)
struct PeopleIndexStoreTests {
    @Test("an index is made empty in a folder of its own: the folder 0700, the files 0600")
    func openAndCreate() throws {
        try withFolder { folder in
            let directory = folder + "/cache/ldapbook/index"
            let index = try PeopleIndex.open(scope: scope, in: directory)
            #expect(index.path == directory + "/" + scope.fileName)
            #expect(index.scope == scope)
            #expect(FileManager.default.fileExists(atPath: index.path))
            #expect(try permissions(directory) == 0o700)
            #expect(try permissions(index.path) == 0o600)
            let status = try index.status()
            #expect(status.people == 0 && status.syncedAt == nil && status.method == nil && status.path == index.path)
            #expect(try index.syncedAt() == nil)
            #expect(try index.incompleteness() == nil)
            #expect(try found("ada", in: index).isEmpty)
            // What SQLite writes beside it, once there is something to write, is private too.
            try file(staff, in: index)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: index.path + suffix) {
                #expect(try permissions(index.path + suffix) == 0o600, "\(suffix)")
            }
            #expect(try index.status().people == staff.count)
            #expect(try index.status().bytes > 0)
        }
    }

    @Test("a folder open to others is made private when the index opens")
    func privateFolder() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            #expect(try permissions(folder) == 0o755)
            _ = try PeopleIndex.open(scope: scope, in: folder)
            #expect(try permissions(folder) == 0o700)
        }
    }

    @Test("a folder that cannot be made is a clear error")
    func folderInTheWay() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: folder + "/file", contents: Data("x".utf8)))
            let error = try #require(throws: AddressBookError.self) { try PeopleIndex.open(scope: scope, in: folder + "/file/index") }
            #expect(error.code == .indexUnavailable)
            #expect(error.message.contains(folder + "/file/index"))
        }
    }

    @Test("a file that cannot be opened as a database is a clear error")
    func fileInTheWay() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/" + scope.fileName, withIntermediateDirectories: true)
            #expect(throws: SQLiteError.self) { try PeopleIndex.open(scope: scope, in: folder) }
        }
    }

    @Test("people filed one by one, or read all at once, are found as their names are typed", arguments: [false, true])
    func lookups(fullLoad: Bool) throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index, fullLoad: fullLoad)
            #expect(try index.status().people == staff.count)
            for (query, expected) in queries {
                let got = try found(query, in: index)
                #expect(got == expected, "\(query): \(got)")
            }
        }
    }

    @Test("the candidates a query gives are the people the matcher then finds: none is missed")
    func noneMissed() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index)
            for (query, expected) in queries {
                let matcher = NameMatcher(try NameQuery(query))
                let matching = Set(staff.filter { matcher.score(Person(entry: $0)).matchedWords > 0 }.map { $0.string("cn")! })
                #expect(matching == expected, "\(query): the matcher finds whom the index gives")
                #expect(try found(query, in: index).isSuperset(of: matching), "\(query)")
            }
        }
    }

    @Test("a candidate comes back with its DN, its entryUUID and what the index holds of them")
    func candidateEntries() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            let outside = person(11, ["sn": ["Hopper"], "cn": ["Grace Hopper"], "jpegPhoto": ["…"], "userPassword": ["secret"]],
                                 dn: "uid=grace,ou=people,o=elsewhere")
            let upper = person(12, ["sn": ["Babbage"], "cn": ["Charles Babbage"]], dn: "uid=charles,ou=People,DC=Example,DC=Com")
            try file(staff + [outside, upper], in: index)
            let ada = try #require(try index.candidates(for: NameMatcher(try NameQuery("lovelace"))).first)
            #expect(ada.dn.string == "uid=p1,ou=people,dc=example,dc=com")
            #expect(ada.string("entryUUID") == uuid(1))
            #expect(ada.strings("mail") == ["ada.lovelace@example.com"] && ada.strings("title") == ["Analyst"])
            #expect(ada.strings("cn") == ["Ada Lovelace"] && ada.strings("telephoneNumber") == ["+44 20 7946 0001"])
            let grace = try #require(try index.candidates(for: NameMatcher(try NameQuery("hopper"))).first)
            #expect(grace.dn.string == "uid=grace,ou=people,o=elsewhere", "a DN outside the base is kept whole")
            #expect(!grace.has("jpegPhoto") && !grace.has("userPassword"), "never a photo or a secret")
            let charles = try #require(try index.candidates(for: NameMatcher(try NameQuery("babbage"))).first)
            #expect(charles.dn.isEquivalent(to: try DistinguishedName(parsing: "uid=charles,ou=People,dc=example,dc=com")))
        }
    }

    @Test("a DN whose base differs in case, and in length once lowered, reads back as the DN it is")
    func caseOfTheBase() throws {
        try withFolder { folder in
            let german = PeopleIndex.Scope(servers: ["ldap://ldap.example.de"], base: "o=straße", identity: "anonymous")
            let index = try PeopleIndex.open(scope: german, in: folder)
            let shouted = person(1, ["sn": ["Weiß"], "cn": ["Anna Weiß"]], dn: "cn=Anna Weiß,o=STRAẞE")
            let quiet = person(2, ["sn": ["Groß"], "cn": ["Otto Groß"]], dn: "cn=Otto Groß,o=straße")
            try file([shouted, quiet], in: index)
            let anna = try #require(try index.candidates(for: NameMatcher(try NameQuery("weiss"))).first)
            #expect(anna.dn.string == "cn=Anna Weiß,o=STRAẞE")
            let otto = try #require(try index.candidates(for: NameMatcher(try NameQuery("gross"))).first)
            #expect(otto.dn.string == "cn=Otto Groß,o=straße")
        }
    }

    @Test("a person taken out is found by no lookup, and leaves no id under any key", arguments: [false, true])
    func removal(fullLoad: Bool) throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index, fullLoad: fullLoad)
            let adaID = try #require(try id(of: uuid(1), in: index))
            let wangID = try #require(try id(of: uuid(7), in: index))
            #expect(try filedIDs(in: index).isSuperset(of: [adaID, wangID]))
            try index.write { store in
                try store.remove(uuid: EntryUUID.bytes(of: uuid(1)))
                try store.remove(uuid: EntryUUID.bytes(of: uuid(7)))
                try store.remove(uuid: EntryUUID.bytes(of: uuid(999)))
            }
            #expect(try index.status().people == staff.count - 2)
            for query in ["ada", "lovelace", "lovelcae", "0001", "+44 20 7946 0001", "020 7946 0001", "ada.lovelace@example.com",
                          "wang", "wang wei", "王", "wei"] {
                #expect(try found(query, in: index).isEmpty, "\(query)")
            }
            let left = try filedIDs(in: index)
            #expect(!left.contains(adaID) && !left.contains(wangID))
            #expect(try id(of: uuid(1), in: index) == nil)
            // The others are as they were.
            for (query, expected) in queries where !expected.contains("Ada Lovelace") && !expected.contains("王伟") {
                let got = try found(query, in: index)
                #expect(got == expected, "\(query): \(got)")
            }
        }
    }

    @Test("everyone not named at the end of a refresh is taken out")
    func removeAllExcept() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index)
            let kept: Set<[UInt8]> = [EntryUUID.bytes(of: uuid(2)), EntryUUID.bytes(of: uuid(3))]
            let removed = try index.write { try $0.removeAll(except: kept) }
            #expect(removed == staff.count - 2)
            #expect(try index.status().people == 2)
            #expect(try found("mueller", in: index) == ["Anna Müller"] && found("dejong", in: index) == ["Pieter de Jong"])
            #expect(try found("lovelace", in: index).isEmpty && found("bob", in: index).isEmpty)
            #expect(try filedIDs(in: index) == Set([2, 3].compactMap { try? id(of: uuid($0), in: index) }))
            #expect(try index.write { try $0.removeAll(except: kept) } == 0, "nobody more to take out")
        }
    }

    @Test("a person filed again with other names leaves no trace of the old ones", arguments: [false, true])
    func rename(fullLoad: Bool) throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index, fullLoad: fullLoad)
            let before = try #require(try id(of: uuid(2), in: index))
            let married = person(2, ["givenName": ["Anna"], "sn": ["Παπαδοπούλου"], "cn": ["Anna Papadopoulou"],
                                     "mobile": ["+49 170 2222222"]], dn: "uid=anna,ou=people,\(base)")
            try file([married], in: index)
            #expect(try id(of: uuid(2), in: index) == before, "the same person, in the same row")
            #expect(try index.status().people == staff.count)
            for query in ["mueller", "muller", "müller", "mulle", "+49 170 1111111", "1111111"] {
                #expect(try found(query, in: index).isEmpty, "\(query)")
            }
            for query in ["anna", "+49 170 2222222", "2222", "papadopoulou", "Παπαδοπούλου"] {
                let got = try found(query, in: index)
                #expect(got.contains("Anna Papadopoulou"), "\(query): \(got)")
                #expect(got.subtracting(["Γεώργιος Παπαδόπουλος"]) == ["Anna Papadopoulou"], "Papadopoulos is a typo away")
            }
            let entry = try #require(try index.candidates(for: NameMatcher(try NameQuery("anna"))).first)
            #expect(entry.dn.string == "uid=anna,ou=people,dc=example,dc=com", "the new DN")
            #expect(entry.strings("sn") == ["Παπαδοπούλου"] && !entry.has("telephoneNumber"))
            // No key of the old name holds the person.
            let oldKeys = IndexKeys(of: PersonRecord(entry: staff[1]).held, folding: NameFolding()).keys
            let newKeys = IndexKeys(of: PersonRecord(entry: married).held, folding: NameFolding()).keys
            for key in oldKeys where !newKeys.contains(key) {
                #expect(try !index.withStore { try $0.list(Array(key)) }.contains(before), "\(String(decoding: key, as: UTF8.self))")
            }
            for key in newKeys {
                #expect(try index.withStore { try $0.list(Array(key)) }.contains(before))
            }
            // Filed again unchanged, nothing changes.
            let keysBefore = try index.withStore { store in try newKeys.map { try store.list(Array($0)) } }
            try file([married], in: index)
            #expect(try index.withStore { store in try newKeys.map { try store.list(Array($0)) } } == keysBefore)
        }
    }

    @Test("as people come, change and go in any order, each key lists exactly who has it, ascending, each once")
    func listsFollowThePeople() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            var generator = SplitMix(state: 533)
            let given = ["Ada", "Anna", "Jürgen", "伟", "Olga"], surnames = ["Lovelace", "Müller", "de Jong", "王", "Иванова", "Love"]
            func someone(_ number: Int) -> LDAPEntry {
                person(number, ["givenName": [given.randomElement(using: &generator)!],
                                "sn": [surnames.randomElement(using: &generator)!],
                                "mobile": ["+44 7700 90000\(Int.random(in: 0...3, using: &generator))"]])
            }
            var present: [Int: LDAPEntry] = [:]
            let first = (1...6).map(someone)
            try file(first, in: index, fullLoad: true)
            for entry in first { present[Int(entry.string("entryUUID")!.suffix(12), radix: 16)!] = entry }
            for step in 0..<150 {
                let number = Int.random(in: 1...12, using: &generator)
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    try index.write { try $0.remove(uuid: EntryUUID.bytes(of: uuid(number))) }
                    present[number] = nil
                } else {
                    let entry = someone(number)
                    try file([entry], in: index)
                    present[number] = entry
                }
                // What each key should list: the ids of those whose keys have it now.
                var expected: [[UInt8]: Set<Int64>] = [:]
                for (number, entry) in present {
                    let id = try #require(try id(of: uuid(number), in: index))
                    for key in IndexKeys(of: PersonRecord(entry: entry).held, folding: NameFolding()).keys {
                        expected[Array(key), default: []].insert(id)
                    }
                }
                let lists = try index.withStore { store in
                    var lists: [[UInt8]: [Int64]] = [:]
                    let select = try store.statement("SELECT key, ids FROM postings WHERE key < ?")
                    try select.bind(blob: [Postings.Kind.shelf.rawValue], at: 1)
                    while try select.step() { lists[select.bytes(at: 0)] = Postings.decode(select.bytes(at: 1)) }
                    select.reset()
                    return lists
                }
                #expect(lists.mapValues(Set.init) == expected, "after step \(step)")
                #expect(lists.values.allSatisfy { ids in !ids.isEmpty && zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 } },
                        "after step \(step)")
                #expect(try index.status().people == present.count)
            }
        }
    }

    @Test("positions are in rows of a few hundred people; the best are taken in the order ties are broken by, across rows (looked up for a few rows, read in turn for many)",
          arguments: [1, 10])
    func positionsAcrossRows(fullRows: Int) throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            // Surnames in the reverse of the order they arrive: the first filed sort last.
            let count = fullRows * PeopleIndex.Store.positionsPerRow + 200
            let people = (0..<count).map { number in
                // count - number in four letters, a to z: `aaab` for 1.
                var rest = count - number, letters = ""
                for _ in 0..<4 {
                    letters = String(Character(UnicodeScalar(UInt8(97 + rest % 26)))) + letters
                    rest /= 26
                }
                let surname = "Smith" + letters
                return person(number, ["givenName": ["Ada"], "sn": [surname], "cn": ["Ada \(surname)"]])
            }
            try file(people, in: index, fullLoad: true, batch: 500)
            let rows = try index.withStore { store in (try store.positions(row: 0)?.count, try store.positions(row: 1)?.count) }
            #expect(rows.0 == 4 * PeopleIndex.Store.positionsPerRow && rows.1 != nil, "two rows")
            let (named, taken) = try index.read { store in
                let ranked = try #require(try store.rankedCandidates(for: NameMatcher(try NameQuery("smith"))))
                var taken: [Int64] = []
                while let best = try ranked.takeBest() { taken.append(best.id) }
                return (ranked.count, taken)
            }
            #expect(named == count)
            // The last filed (ids in the last row) sort first, and so on to the first.
            #expect(taken == (0..<count).map { Int64(count - $0) }, "\(taken.prefix(10))")
        }
    }

    @Test("a shelf of words in many rows, each within a page, gives a typo's word from any row, made in a full load or by changes")
    func shelvesInRows() throws {
        // 400 surnames of eight letters: 13 bytes each on the shelf, some six rows.
        let surnames = (0..<400).map { number in
            "Smyth" + (0..<3).map { String(UnicodeScalar(UInt8(97 + number / [1, 26, 676][$0] % 26))) }.joined()
        }
        func entries(_ range: Range<Int>) -> [LDAPEntry] {
            range.map { person($0, ["givenName": ["Ada"], "sn": [surnames[$0]], "cn": ["Ada \(surnames[$0])"]]) }
        }
        for fullLoad in [true, false] {
            try withFolder { folder in
                let index = try PeopleIndex.open(scope: scope, in: folder)
                try file(entries(0..<200), in: index, fullLoad: fullLoad, batch: 50)
                try file(entries(200..<400), in: index, batch: 50)
                let rows = try index.withStore { store in
                    var sizes: [Int] = []
                    try store.forEachKey(prefix: Vocabulary.shelfKey(length: 8)) { _, row in sizes.append(row.count) }
                    return sizes
                }
                #expect(rows.count >= 5 && rows.allSatisfy { $0 <= Vocabulary.rowBytes }, "\(rows)")
                #expect(rows.reduce(0, +) == 400 * 13, "each word once")
                // The last word filed, with one letter wrong.
                let last = surnames[399].lowercased()
                let typo = String(last.dropLast()) + (last.last == "z" ? "y" : "z")
                #expect(try found(typo, in: index).contains("Ada \(surnames[399])"), "\(typo)")
                #expect(try found("smythaaz", in: index).contains("Ada Smythaaa"))
            }
        }
    }

    @Test("a full load read in several batches, written as it goes, files everyone under each key once")
    func fullLoadInBatches() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            let many = (100..<400).map { number in
                person(number, ["givenName": ["Ada"], "sn": ["Lovelace" + String(UnicodeScalar(UInt8(97 + number % 7)))],
                                "cn": ["Ada Lovelace \(number)"],
                                "mobile": ["+44 7700 900\(number)"]])
            }
            try index.write { try $0.beginFullLoad() }
            #expect(try index.incompleteness() != nil, "incomplete while it is made")
            for start in stride(from: 0, to: many.count, by: 50) {
                try index.write { store in
                    for entry in many[start..<start + 50] { try store.load(filed(entry)) }
                    // What is gathered is written between batches, as when the gathering grows large.
                    try store.flushLoad()
                }
            }
            // The server sends someone twice.
            try index.write { try $0.load(filed(many[0])) }
            try index.write { store in
                try store.finishFullLoad()
                try store.setMeta("incomplete", nil)
            }
            #expect(try index.status().people == many.count)
            let ids = try index.withStore { try $0.list(wholeNameKey("ada", .givenName)) }
            #expect(ids.count == many.count + 1, "everyone once, and the twice-sent again")
            #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ascending, each once")
            #expect(try found("ada", in: index).count == many.count)
            let fourths = try index.withStore { try $0.list(wholeNameKey("lovelaced", .surname)) }
            #expect(fourths.count == many.filter { $0.string("sn") == "Lovelaced" }.count)
            #expect(try found("lovelaced", in: index).count == many.count, "the others are a letter away, a typo")
            #expect(try found("+44 7700 900123", in: index) == ["Ada Lovelace 123"])
            #expect(try found("lovelaecd", in: index).count > 0, "the vocabulary's shelves were written too")
        }
    }

    @Test("the index survives being closed and opened again")
    func reopen() throws {
        try withFolder { folder in
            do {
                let index = try PeopleIndex.open(scope: scope, in: folder)
                try file(staff, in: index)
            }
            let again = try PeopleIndex.open(scope: scope, in: folder)
            #expect(try again.status().people == staff.count)
            #expect(try again.syncedAt() != nil)
            #expect(try found("mueller", in: again) == ["Anna Müller"])
            #expect(try found("wang wei", in: again) == ["王伟"], "the transliterations kept in the records")
        }
    }

    @Test("two handles on one file, as two commands have, each see what the other filed and took out")
    func twoHandles() throws {
        try withFolder { folder in
            let first = try PeopleIndex.open(scope: scope, in: folder)
            let second = try PeopleIndex.open(scope: scope, in: folder)
            #expect(first.path == second.path)
            try file(staff, in: first)
            #expect(try found("mueller", in: second) == ["Anna Müller"])
            try second.write { try $0.remove(uuid: EntryUUID.bytes(of: uuid(2))) }
            #expect(try found("mueller", in: first).isEmpty)
            #expect(try first.status().people == staff.count - 1)
        }
    }

    @Test("an index of another scope is not used")
    func otherScope() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index)
            let others = [
                PeopleIndex.Scope(servers: ["ldap://ldap.example.com"], base: base, identity: "anonymous"),
                PeopleIndex.Scope(servers: ["ldap://replica.example.com"], base: base, identity: scope.identity),
                PeopleIndex.Scope(servers: scope.servers, base: "ou=people," + base, identity: scope.identity),
                PeopleIndex.Scope(servers: scope.servers + ["ldap://replica.example.com"], base: base, identity: scope.identity),
            ]
            for other in others {
                #expect(other.fileName != scope.fileName, "\(other)")
                let elsewhere = try PeopleIndex.open(scope: other, in: folder)
                #expect(try elsewhere.status().people == 0, "\(other)")
                #expect(try found("mueller", in: elsewhere).isEmpty)
            }
            #expect(try PeopleIndex.open(scope: scope, in: folder).status().people == staff.count, "its own is still there")
        }
    }

    @Test("a file of another scope under this scope's name is emptied, not used")
    func otherScopeUnderThisName() throws {
        try withFolder { folder in
            let other = PeopleIndex.Scope(servers: ["ldap://other.example.org"], base: "dc=example,dc=org", identity: "anonymous")
            do {
                let index = try PeopleIndex.open(scope: other, in: folder)
                try file(staff, in: index)
            }
            try FileManager.default.moveItem(atPath: folder + "/" + other.fileName, toPath: folder + "/" + scope.fileName)
            let index = try PeopleIndex.open(scope: scope, in: folder)
            #expect(try index.status().people == 0)
            #expect(try index.syncedAt() == nil, "never brought up to date for this scope")
            #expect(try found("mueller", in: index).isEmpty && found("0001", in: index).isEmpty)
            #expect(try index.withStore { try $0.meta("scope") } == scope.description)
        }
    }

    @Test("a scope's file name is a hash of its description: the same scope, the same file")
    func fileNames() {
        let same = PeopleIndex.Scope(servers: ["ldap://ldap.example.com"], base: base, identity: "cn=reader,dc=example,dc=com")
        #expect(same.fileName == scope.fileName)
        #expect(scope.fileName.hasSuffix(".sqlite") && scope.fileName.count == 16 + 7)
        #expect(scope.fileName.dropLast(7).allSatisfy { $0.isHexDigit })
        #expect(scope.description == "ldap://ldap.example.com dc=example,dc=com as cn=reader,dc=example,dc=com")
    }

    @Test("a file that is no database is replaced by an empty index that works")
    func garbageFile() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/" + scope.fileName
            for contents in [Data("this is not a database, but a note someone left here\n".utf8),
                             Data(repeating: 0xA5, count: 8192), Data("SQLite format 3\0".utf8) + Data(repeating: 0xFF, count: 4096)] {
                #expect(FileManager.default.createFile(atPath: path, contents: contents))
                let index = try PeopleIndex.open(scope: scope, in: folder)
                #expect(try index.status().people == 0)
                try file(staff, in: index)
                #expect(try found("mueller", in: index) == ["Anna Müller"])
                #expect(try permissions(path) == 0o600)
            }
        }
    }

    @Test("a database of something else under the index's name is a clear error or an empty index, never a crash")
    func foreignDatabase() throws {
        try withFolder { folder in
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/" + scope.fileName
            let layouts = [
                "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes(text) VALUES ('hello');",
                "CREATE TABLE people(name TEXT, phone TEXT); INSERT INTO people VALUES ('Ada', '0001');",
                "CREATE TABLE meta(name TEXT, data BLOB);",
                "CREATE TABLE postings(key TEXT, value TEXT); INSERT INTO postings VALUES ('nada', 'x');",
            ]
            for layout in layouts {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                do {
                    let database = try SQLiteDatabase(path: path)
                    try database.execute(layout)
                }
                do {
                    let index = try PeopleIndex.open(scope: scope, in: folder)
                    try file(staff, in: index)
                    #expect(try found("mueller", in: index) == ["Anna Müller"], "\(layout)")
                    #expect(try index.status().people == staff.count)
                } catch let error as SQLiteError {
                    #expect(["meta", "people", "postings"].contains { error.message.contains($0) }, "\(layout): \(error)")
                }
            }
        }
    }

    @Test("a damaged index is replaced by an empty one, or its damage is an SQLite error, never a crash")
    func damagedDatabase() throws {
        try withFolder { folder in
            let path = folder + "/" + scope.fileName
            for offset in [4096, 8192, 100] {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                do {
                    let index = try PeopleIndex.open(scope: scope, in: folder)
                    try file(staff, in: index)
                }
                #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closed, the log is in the file")
                let handle = try #require(FileHandle(forUpdatingAtPath: path))
                try handle.seek(toOffset: UInt64(offset))
                try handle.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }))
                try handle.close()
                do {
                    let index = try PeopleIndex.open(scope: scope, in: folder)
                    let people = try index.status().people
                    #expect(people == 0 || people == staff.count, "at \(offset)")
                    _ = try found("mueller", in: index)
                    try file(staff, in: index)
                    #expect(try found("mueller", in: index) == ["Anna Müller"], "at \(offset)")
                } catch let error as SQLiteError {
                    #expect(error.isDamaged, "at \(offset): \(error)")
                }
            }
        }
    }

    @Test("damaged records and lists in the file are read without trapping")
    func damagedRows() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            try file(staff, in: index)
            let damage: [[UInt8]] = [
                [0x01] + [UInt8](repeating: 0xFF, count: 9) + [0x7F, 0x61], [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
                [0x01] + [UInt8](repeating: 0x80, count: 9) + [0x01], [0x41, 0x40, 0x05], [0xFF],
            ]
            for bytes in damage {
                try index.withStore { store in
                    let update = try store.statement("UPDATE people SET record = ?")
                    try update.bind(blob: bytes, at: 1)
                    try update.run()
                    let lists = try store.statement("UPDATE postings SET ids = ? WHERE key >= ? AND key < ?")
                    try lists.bind(blob: [UInt8](repeating: 0xFF, count: 9) + [0x01] + bytes, at: 1)
                    try lists.bind(blob: [Postings.Kind.phone.rawValue], at: 2)
                    try lists.bind(blob: [Postings.Kind.phone.rawValue + 1], at: 3)
                    try lists.run()
                }
                for query in ["mueller", "ada", "0001", "lovelcae", "wang wei"] {
                    for entry in try index.candidates(for: NameMatcher(try NameQuery(query))) {
                        #expect(entry.attributes.allSatisfy { PersonRecord.holds($0.name) || $0.name == "entryUUID" })
                    }
                }
                // Taking a person out, or filing them again, still works.
                try file([staff[1]], in: index)
                #expect(try found("mueller", in: index) == ["Anna Müller"])
                try index.write { try $0.remove(uuid: EntryUUID.bytes(of: uuid(2))) }
                #expect(try found("mueller", in: index).isEmpty)
            }
        }
    }

    @Test("marked stale, the index says it was brought up to date at no time; status reports what it holds")
    func staleAndStatus() throws {
        try withFolder { folder in
            let index = try PeopleIndex.open(scope: scope, in: folder)
            let before = Date()
            try file(staff, in: index)
            try index.write { try $0.setMeta("method", "poll") }
            let synced = try #require(try index.syncedAt())
            #expect(synced.timeIntervalSince(before) > -1 && synced.timeIntervalSinceNow < 1)
            let status = try index.status()
            #expect(status.people == staff.count && status.method == "poll" && status.scope == scope)
            index.markStale()
            #expect(try index.syncedAt() == Date(timeIntervalSince1970: 0))
            #expect(try index.status().people == staff.count, "still holding everyone")
            // Emptied, it keeps its scope.
            try index.write { try $0.removeEverything() }
            #expect(try index.status().people == 0 && index.syncedAt() == nil)
            #expect(try index.withStore { try $0.meta("scope") } == scope.description)
            #expect(try found("mueller", in: index).isEmpty)
        }
    }

    @Test("the index's folder is under XDG_CACHE_HOME, or the home's .cache")
    func defaultDirectory() {
        #expect(PeopleIndex.defaultDirectory(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"])
            == "/var/cache/me/ldapbook/index")
        #expect(PeopleIndex.defaultDirectory(environment: ["HOME": "/home/me"]) == "/home/me/.cache/ldapbook/index")
        #expect(PeopleIndex.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/me"])
            == "/home/me/.cache/ldapbook/index", "a relative XDG_CACHE_HOME is ignored")
    }
}

/// The key of a one-word name of `attribute`, folded as `text`, as typed: what a person with
/// that name is filed under.
private func wholeNameKey(_ text: String, _ attribute: MatchedAttribute) -> [UInt8] {
    IndexKeys.nameKey(of: NameFolding().fold(text), from: 0, NameClass(attribute: attribute, wholeName: true, otherForm: false))
}
