import Foundation
@testable import LDAPBook
import LDAPKit
import SlapdKit
import Testing

/// The best few people ranked from the local index, read alone, against everyone it may
/// mean read and ranked: the same people in the same order, the same one person meant, and
/// the same answer to whether more match.
@Suite("Ranking the best few from the local index")
struct IndexRankingTests {
    /// People whose names try the index's bounds: namesakes (told apart by DN), a first name
    /// that is a word of its own (`Jo`), a full name that is not the names joined, a display
    /// name written last name first, two given names, a nickname, names in other scripts.
    private static let tricky: [LDAPEntry] = {
        func person(_ uid: String, _ attributes: KeyValuePairs<String, [String]>) -> LDAPEntry {
            var entry = LDAPEntry(dn: try! DistinguishedName(parsing: "uid=\(uid)"), attributes)
            entry["objectClass"] = ["inetOrgPerson"]
            entry["uid"] = [LDAPValue(uid)]
            return entry
        }
        return [
            person("jo.smith", ["givenName": ["Jo"], "sn": ["Smith"], "cn": ["Jo Smith"]]),
            person("jo.smith.2", ["givenName": ["Jo"], "sn": ["Smith"], "cn": ["Jo Smith"]]),
            person("johnny", ["givenName": ["John"], "sn": ["Smithson"], "cn": ["Johnny Smithson"], "displayName": ["Smithson, John"]]),
            person("maryann", ["givenName": ["Mary Ann", "Marianne"], "sn": ["Jones"], "cn": ["Mary Ann Jones"]]),
            person("bob", ["givenName": ["Robert"], "sn": ["Lovelace"], "cn": ["Robert Lovelace"], "mail": ["bob@example.com"]]),
            person("peggy", ["givenName": ["Margaret"], "sn": ["Joseph"], "cn": ["Margaret Joseph"], "displayName": ["Peggy Joseph"]]),
            person("wang", ["givenName": ["伟"], "sn": ["王"], "cn": ["王伟"], "displayName": ["Wang Wei"]]),
            person("nguyen", ["givenName": ["Đức"], "sn": ["Nguyễn"], "cn": ["Nguyễn Đức"]]),
            person("greek", ["givenName": ["Γιώργος"], "sn": ["Παπαδόπουλος"], "cn": ["Γιώργος Παπαδόπουλος"]]),
            person("schroeder", ["givenName": ["Jens"], "sn": ["Schröder-Müller"], "cn": ["Jens Schröder-Müller"]]),
            person("vdberg", ["givenName": ["Joost"], "sn": ["van der Berg"], "cn": ["Joost van der Berg"]]),
            person("only.sn", ["sn": ["Johansson"], "cn": ["Johansson"]]),
            // Addresses that are not the names: found by them alone, by a name and them, and a
            // query typed across first and last name found through the address.
            person("ada", ["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Ada Lovelace"],
                           "mail": ["countess@analytical.engine", "ada.lovelace@example.org"]]),
            person("grace", ["givenName": ["Grace"], "sn": ["Hopper"], "cn": ["Grace Hopper"], "mail": ["amazing.grace@navy.mil"]]),
        ]
    }()

    /// The queries: the beginnings of every name, names typed together and apart, typos,
    /// nicknames, other spellings and scripts, an address.
    private static func queries(_ people: [SamplePerson]) -> [String] {
        var queries: Set<String> = [
            "jo", "j", "john smith", "jhon smith", "johns", "maryann", "mary ann", "marian", "bob", "robert", "peggy", "maggie",
            "jack", "johnny", "tom muller", "mueller", "müller", "schroeder", "wang wei", "wang", "papadopoulos", "nguyen duc",
            "duc", "garcia", "jose", "olga", "ivanov", "yamada", "smith, john", "lovelcae", "smtih", "johnsno", "ada@analytical",
            "van der", "vanderberg", "berg", "jo smith", "smith jo", "s", "sm", "zz", "o'brien", "obrien", "brien",
            "countess", "amazing", "amazing grace", "grace amaz", "adalove", "adalovelace", "countess lovelace", "hopper amazing",
            "johnso", "jos", "countess@analytical",
        ]
        for person in people.prefix(400) {
            for name in [person.givenName, person.surname] {
                let letters = Array(name)
                for length in [1, 2, 3, letters.count] where length <= letters.count { queries.insert(String(letters.prefix(length))) }
            }
            queries.insert("\(person.givenName.prefix(2)) \(person.surname.prefix(3))")
        }
        return queries.sorted()
    }

    @Test("the same people, order, person meant and more as reading everyone, for a few hundred queries; after changes too")
    func sameAsReadingEveryone() async throws {
        let server = try await BookDirectory.shared()
        let root = try await BookDirectory.connection(server)
        let base = try DistinguishedName(parsing: BookDirectory.suffix).child("ou", LDAPValue("bounds-\(UUID().uuidString.prefix(8))"))
        try await root.add(LDAPEntry(dn: base, ["objectClass": ["organizationalUnit"], "ou": [base.rdn!.attributes[0].value.string!]]))
        let people = SamplePeople.generate(count: 1200)
        for (number, person) in people.enumerated() {
            var entry = LDAPEntry(dn: base.child("uid", LDAPValue("p\(number)")), [
                "objectClass": ["inetOrgPerson"], "uid": ["p\(number)"], "givenName": [person.givenName], "sn": [person.surname],
                "cn": ["\(person.givenName) \(person.surname)"],
            ])
            if let display = person.displayName { entry["displayName"] = [LDAPValue(display)] }
            if !person.emails.isEmpty { entry["mail"] = person.emails.map { LDAPValue($0) } }
            if !person.phones.isEmpty { entry["telephoneNumber"] = person.phones.map { LDAPValue($0) } }
            try await root.add(entry)
        }
        for person in Self.tricky {
            var entry = person
            entry.dn = base.child("uid", person["uid"][0])
            try await root.add(entry)
        }
        let connection = try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI], base: base,
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            systemDefaults: .ignored))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = try PeopleIndex.open(scope: .init(servers: ["test"], base: base.string, identity: "test"), in: folder)
        let book = AddressBook(connection: connection, configuration: .init(peopleBase: base, index: index))
        try await book.updateIndex()

        // With a field the index holds, each tier is the best of its own (reach).
        let fields = [try await book.field(named: "email"), try await book.field(named: "phone")]
        func dns(_ candidates: some Sequence<Candidate>) -> [String] { candidates.map(\.person.dn.string) }
        func compare(_ queries: [String], limits: [Int]) async throws -> Int {
            var compared = 0
            for text in queries {
                let query = try NameQuery(text)
                for field in fields {
                    let all = try await book.rank(field: field, name: query)
                    for limit in limits where limit > 1 {
                        let some = try await book.rank(field: field, name: query, limit: limit)
                        let said = "\(text), \(field.name), best \(limit)"
                        #expect(dns(some.fieldAndName) == dns(all.fieldAndName.prefix(limit)), "\(said)")
                        #expect(dns(some.nameOnly) == dns(all.nameOnly.prefix(limit)), "\(said)")
                        #expect(some.uniqueFullMatch?.person.dn == all.uniqueFullMatch?.person.dn, "\(said)")
                        #expect(some.holdsEveryNameMatch == (all.fieldAndName.count <= limit && all.nameOnly.count <= limit), "\(said)")
                    }
                }
                let everyone = try await book.rank(field: nil, name: query)
                for limit in limits {
                    let best = try await book.rank(field: nil, name: query, limit: limit)
                    #expect(best.nameOnly.map(\.person.dn.string) == everyone.nameOnly.prefix(limit).map(\.person.dn.string),
                            "\(text), best \(limit)")
                    #expect(best.nameOnly.map(\.score) == everyone.nameOnly.prefix(limit).map(\.score), "\(text), best \(limit)")
                    #expect(best.uniqueFullMatch?.person.dn == everyone.uniqueFullMatch?.person.dn, "\(text), best \(limit)")
                    #expect((best.nameMatches > limit) == (everyone.nameMatches > limit), "\(text), best \(limit)")
                    compared += 1
                }
            }
            return compared
        }
        let queries = Self.queries(people)
        #expect(try await compare(queries, limits: [1, 3, 20]) == queries.count * 3)
        // The best were read, not everyone: the ranking counts only those it read.
        let everyone = try await book.rank(field: nil, name: try NameQuery("j"))
        let read = try await book.rank(field: nil, name: try NameQuery("j"), limit: 3)
        #expect(everyone.nameMatches > 300 && read.nameMatches < 50, "\(everyone.nameMatches) found, \(read.nameMatches) read")

        // Someone new, a namesake, and a rename: the positions are worked out again at the sync.
        try await root.add(LDAPEntry(dn: base.child("uid", LDAPValue("aaron")), [
            "objectClass": ["inetOrgPerson"], "uid": ["aaron"], "givenName": ["Aaron"], "sn": ["Smith"], "cn": ["Aaron Smith"],
        ]))
        try await root.add(LDAPEntry(dn: base.child("uid", LDAPValue("jo.smith.0")), [
            "objectClass": ["inetOrgPerson"], "uid": ["jo.smith.0"], "givenName": ["Jo"], "sn": ["Smith"], "cn": ["Jo Smith"],
        ]))
        try await root.modify(base.child("uid", LDAPValue("johnny")), [.replace("sn", values: ["Abbott"])])
        try await book.updateIndex()
        #expect(try await compare(["smith", "jo smith", "john", "abbott", "a", "jo", "johnny"], limits: [1, 2, 5]) == 21)
        let jo = try await book.rank(field: nil, name: try NameQuery("jo smith"), limit: 2)
        #expect(jo.nameOnly.map { $0.person.dn.rdn!.attributes[0].value.string! } == ["jo.smith", "jo.smith.0"],
                "namesakes by DN, as reading everyone orders them")

        // Someone added by another tool: a miss in an index synced a moment ago is taken for
        // nobody (no request to the server); in one older than a minute, the server is asked.
        try await root.add(LDAPEntry(dn: base.child("uid", LDAPValue("newcomer")), [
            "objectClass": ["inetOrgPerson"], "uid": ["newcomer"], "givenName": ["Quintus"], "sn": ["Newcomer"],
            "cn": ["Quintus Newcomer"],
        ]))
        let fresh = AddressBook(connection: connection, configuration: .init(peopleBase: base, index: index))
        #expect(try await fresh.rank(field: nil, name: try NameQuery("newcomer"), limit: 20).nameOnly.isEmpty)
        try index.write { try $0.setMeta("synced-at", String(Date().timeIntervalSince1970 - 120)) }
        let later = AddressBook(connection: connection, configuration: .init(peopleBase: base, index: index))
        #expect(try await later.rank(field: nil, name: try NameQuery("newcomer"), limit: 20).nameOnly.map(\.person.surnames)
                == [["Newcomer"]])
    }
}
