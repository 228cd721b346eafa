import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("Ranking against a real directory")
struct RankingOnServerTests {
    private func book(_ people: [(String?, String, [String])]) async throws -> AddressBook {
        let server = try await BookDirectory.shared()
        let connection = try await BookDirectory.connection(server)
        let base = try DistinguishedName(parsing: BookDirectory.suffix).child("ou", LDAPValue("rank-\(UUID().uuidString.prefix(8))"))
        try await connection.add(LDAPEntry(dn: base, ["objectClass": ["organizationalUnit"], "ou": [base.rdn!.attributes[0].value.string!]]))
        let book = AddressBook(connection: connection, configuration: .init(peopleBase: base))
        let email = try await book.field(named: "email")
        for (given, surname, mails) in people {
            try await book.add(NewPerson(givenName: given, surname: surname, values: mails.isEmpty ? [] : [(email, mails.map { LDAPValue($0) })]))
        }
        return book
    }

    @Test("tiers and order: both before one, exact before prefix, then surname, given name")
    func tiersAndOrder() async throws {
        let book = try await book([
            ("Ada", "Lovelace", ["ada@example.com"]), ("Adam", "Lovell", ["adam@example.com"]),
            ("Ada", "King", ["king@example.com"]), ("Bob", "Lovelace", []), ("Zed", "Zulu", ["ada.fan@example.com"]),
            ("Carol", "Danvers", ["carol@example.com"]),
        ])
        let field = try await book.field(named: "email")
        let ranking = try await book.rank(field: field, name: try NameQuery("ada love"), base: try book.peopleBase())
        #expect(ranking.fieldAndName.map { $0.person.commonNames[0] } == ["Ada Lovelace", "Adam Lovell", "Ada King"])
        #expect(ranking.fieldAndName.map(\.score.match) == [.both, .both, .given])
        #expect(ranking.nameOnly.map { $0.person.commonNames[0] } == ["Bob Lovelace"])
        let cursor = try #require(ranking.fieldOnly)
        let fieldOnly = try await cursor.next(10)
        // Only a value starting with a word of the query makes a candidate: Carol's does not.
        #expect(fieldOnly.map { $0.person.commonNames[0] } == ["Zed Zulu"])
        #expect(await cursor.isExhausted)
        #expect(try await cursor.more(10).map { $0.person.commonNames[0] } == ["Carol Danvers"], "only when asked for more")
        #expect(ranking.fieldAndName[0].explanation(for: ranking.query)
                == "tier field-and-name; ada: first name Ada (exact); love: last name Lovelace (prefix); 1 value")
    }

    @Test("nicknames and display names find people no name does through the local index; an address always")
    func otherAttributes() async throws {
        let book = try await book([("Ada", "Lovelace", ["ada@analytical.example"]), ("Zed", "Zulu", ["zz@example.com"])])
        let ada = try #require(try await book.rank(field: nil, name: try NameQuery("ada"), base: try book.peopleBase()).nameOnly.first)
        try await book.connection.modify(ada.person.dn, [.add("objectClass", values: ["ldapbookPerson"]),
                                                         .add(LDAPBookSchemaName.nickname, values: ["The Enchantress"]),
                                                         .add("displayName", values: ["Countess of Lovelace"])])
        // Without the index, the server is asked about addresses, which look like one; a word
        // that is nobody's name is never looked for in attributes the server scans to search.
        for query in ["ada@analytical", "zz@example"] {
            let ranking = try await book.rank(field: nil, name: try NameQuery(query), base: try book.peopleBase())
            #expect(ranking.nameOnly.count == 1, "\(query)")
        }
        #expect(try await book.rank(field: nil, name: try NameQuery("countess"), base: try book.peopleBase()).nameOnly.isEmpty)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = try PeopleIndex.open(scope: .init(servers: ["test"], base: BookDirectory.suffix, identity: "test"), in: folder)
        let indexed = AddressBook(connection: book.connection, configuration: .init(peopleBase: try book.peopleBase(), index: index))
        for query in ["enchantress", "countess", "ada@analytical", "zz@example"] {
            let ranking = try await indexed.rank(field: nil, name: try NameQuery(query), base: try indexed.peopleBase())
            #expect(ranking.nameOnly.count == 1, "\(query)")
        }
        let explained = try await indexed.rank(field: nil, name: try NameQuery("enchantress"), base: try indexed.peopleBase())
        #expect(explained.nameOnly.first?.explanation(for: explained.query) == "enchantress: nickname The Enchantress (a later word, exact)")
    }

    @Test("Unicode and hostile names are found as typed", arguments: [
        ("Zoë", "Ångström", "zoë"), ("Hans", "Ørsted", "ørs"), ("Conan", "O'Brien", "o'brien"),
        ("Star*", "(Paren)", "star*"), ("Back\\slash", "Name", "back\\"), ("Ann", "(Paren)", "(par"),
    ])
    func unusualNames(_ given: String, _ surname: String, _ query: String) async throws {
        let book = try await book([(given, surname, ["someone@example.com"]), ("Other", "Person", ["other@example.com"])])
        let field = try await book.field(named: "email")
        let ranking = try await book.rank(field: field, name: try NameQuery(query), base: try book.peopleBase())
        #expect(ranking.fieldAndName.map { $0.person.surnames } == [[surname]])
    }

    @Test("without a field, only name matches are listed")
    func nameOnlyRanking() async throws {
        let book = try await book([("Ada", "Lovelace", []), ("Alan", "Turing", ["alan@example.com"])])
        let ranking = try await book.rank(field: nil, name: try NameQuery("a"), base: try book.peopleBase())
        #expect(ranking.fieldAndName.isEmpty)
        #expect(ranking.nameOnly.count == 2)
        #expect(ranking.nameOnly.allSatisfy { $0.tier == nil })
        #expect(ranking.fieldOnly == nil)
    }
}

@Suite("A field-only tier of 50,000 people")
struct LargeFieldOnlyTierTests {
    @Test("browsed on request, returns its first page without reading the rest")
    func firstPageOnly() async throws {
        // Anonymous searches may return at most 1,000 entries in all, even
        // paged: reading the whole tier would fail, so a first page that
        // arrives proves the rest was not read.
        var configuration = SlapdConfiguration(suffix: BookDirectory.suffix)
        configuration.databaseLimits = ["* size.soft=1000 size.hard=1000 size.prtotal=1000"]
        let server = try Slapd(configuration: configuration)
        var ldif = "dn: ou=people,\(BookDirectory.suffix)\nobjectClass: organizationalUnit\nou: people\n\n"
        ldif.reserveCapacity(50_000 * 160)
        for index in 0..<50_000 {
            ldif += "dn: uid=p\(index),ou=people,\(BookDirectory.suffix)\nobjectClass: inetOrgPerson\nuid: p\(index)\n"
                + "cn: Person \(index)\ngivenName: Person\nsn: Number\(index)\nmail: p\(index)@example.com\n\n"
        }
        try server.bulkLoad(ldif: ldif)
        try await server.start()
        let connection = LDAPConnection(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: BookDirectory.suffix),
            operationTimeout: .seconds(30), pageSize: 100, systemDefaults: .ignored))
        let book = AddressBook(connection: connection)

        let ranking = try await book.rank(field: try await book.field(named: "email"), name: try NameQuery("Ada"))
        let cursor = try #require(ranking.fieldOnly)
        #expect(try await cursor.next(50).isEmpty, "nobody's address has anything of ada: no candidate")
        let first = try await cursor.more(50)
        #expect(first.count == 50)
        #expect(await cursor.hasMore)
        let second = try await cursor.more(50)
        #expect(second.count == 50)
        #expect(Set((first + second).map(\.person.dn.string)).count == 100)
        #expect((first + second).allSatisfy { $0.tier == .fieldOnly })

        // The limit is real: reading everything does fail.
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.search(filter: .present("mail"), attributes: ["1.1"]).collect()
        }
        #expect(error?.code == .sizeLimitExceeded || error?.code == .adminLimitExceeded)
        await server.stop()
    }
}

@Suite("Name searches under a server's limits")
struct NameSearchLimitTests {
    /// A server with 60 people named Jo (one of them Jo Exact), read anonymously, so that its
    /// limits apply.
    private func book(_ configure: (inout SlapdConfiguration) -> Void) async throws -> (Slapd, AddressBook) {
        var configuration = SlapdConfiguration(suffix: BookDirectory.suffix)
        configure(&configuration)
        let server = try Slapd(configuration: configuration)
        var ldif = "dn: ou=people,\(BookDirectory.suffix)\nobjectClass: organizationalUnit\nou: people\n\n"
        for index in 0..<60 {
            let surname = index == 0 ? "Exact" : "Number\(index)"
            ldif += "dn: uid=p\(index),ou=people,\(BookDirectory.suffix)\nobjectClass: inetOrgPerson\nuid: p\(index)\n"
                + "cn: Jo \(surname)\ngivenName: Jo\nsn: \(surname)\n\n"
        }
        try server.bulkLoad(ldif: ldif)
        try await server.start()
        let connection = LDAPConnection(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: BookDirectory.suffix),
            operationTimeout: .seconds(30), systemDefaults: .ignored))
        return (server, AddressBook(connection: connection))
    }

    @Test("at the size limit, what arrived is ranked, the ranking says so, and no one is taken as the only match")
    func sizeLimit() async throws {
        let (server, book) = try await book { $0.sizeLimit = .entries(20) }
        let ranking = try await book.rank(field: nil, name: try NameQuery("jo exact"))
        #expect(ranking.isTruncated)
        #expect(ranking.nameMatches == 20)
        #expect(ranking.nameOnly.count == 20)
        #expect(ranking.uniqueFullMatch == nil, "whom the server did not send may match as fully")
        await server.stop()
    }

    @Test("a server that refuses large pages (size.pr) is asked without pages, and answers in full")
    func refusedPageSize() async throws {
        let (server, book) = try await book { $0.databaseLimits = ["* size.pr=10"] }
        // The limit is real: a page larger than 10 is refused.
        let error = await #expect(throws: LDAPError.self) {
            _ = try await book.connection.search(filter: .present("cn"), attributes: ["1.1"], pageSize: 11).collect()
        }
        #expect(error?.code == .adminLimitExceeded)
        let ranking = try await book.rank(field: nil, name: try NameQuery("jo exact"))
        #expect(!ranking.isTruncated)
        #expect(ranking.nameMatches == 60)
        #expect(ranking.uniqueFullMatch?.person.surnames == ["Exact"])
        await server.stop()
    }
}
