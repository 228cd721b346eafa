import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("Validation and new entries on a real directory")
struct WriteSafetyTests {
    /// Every attribute of an entry, for before/after comparisons.
    private func snapshot(_ connection: LDAPConnection, _ dn: DistinguishedName) async throws -> [String: Set<[UInt8]>] {
        let entry = try #require(try await connection.read(dn, attributes: ["*", "+"]))
        var result: [String: Set<[UInt8]>] = [:]
        for attribute in entry.attributes {
            result[attribute.name.lowercased()] = Set(attribute.values.map(\.bytes))
        }
        return result
    }

    @Test("invalid values are refused before anything reaches the server", arguments: [
        ("email", [LDAPValue("not an address")]),
        ("phone", [LDAPValue("call me maybe")]),
        ("photo", [LDAPValue(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])]),
        ("birthday", [LDAPValue("10/12/1815")]),
        ("birthday", [LDAPValue("1815-12-10"), LDAPValue("1815-12-11")]),
        ("manager", [LDAPValue("Charles Babbage")]),
        ("url", [LDAPValue("example.com")]),
        ("display-name", [LDAPValue("One"), LDAPValue("Two")]),
        ("note", [LDAPValue("\u{1B}]0;owned\u{7}")]),
    ])
    func invalidValuesChangeNothing(_ name: String, _ values: [LDAPValue]) async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let field = try await book.field(named: name)
        let person = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace"))
        let before = try await snapshot(book.connection, person.dn)

        // With the connection closed, any request would fail with serverDown:
        // an AddressBookError proves the values were refused before sending.
        await book.connection.close()
        let error = await #expect(throws: AddressBookError.self) {
            try await book.add(values, to: field, of: person)
        }
        #expect(error?.code == .invalidValue || error?.code == .tooManyValues)
        #expect(error?.message.hasPrefix(field.name) == true, "the error names the field: \(error?.message ?? "")")

        let after = try await snapshot(try await BookDirectory.connection(server), person.dn)
        #expect(before == after)
    }

    @Test("a second value for a single-valued field that has one is refused")
    func singleValueAlreadySet() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let birthday = try await book.field(named: "birthday")
        let person = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace", values: [(birthday, ["1815-12-10"])]))
        let error = await #expect(throws: AddressBookError.self) {
            try await book.add(["1815-12-11"], to: birthday, of: person)
        }
        #expect(error?.code == .tooManyValues)
        #expect(try await book.person(at: person.dn, fields: [birthday])?.strings(of: birthday) == ["1815-12-10"])
        let same = try await book.add(["1815-12-10"], to: birthday, of: person)
        #expect(same.strings(of: birthday) == ["1815-12-10"], "the value already there is not an error")
    }

    @Test("new people are inetOrgPersons named by a readable, unique uid under a created people base")
    func newPeople() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let base = try book.peopleBase()
        #expect(try await book.connection.read(base) == nil, "the people base does not exist yet")

        // uids are unique in the whole directory, which other tests share: a
        // surname of this test's own keeps the expected ids predictable.
        let surname = "Lovelace" + UUID().uuidString.prefix(8).lowercased()
        let ada = try await book.add(NewPerson(givenName: "Ada", surname: surname, values: [(email, ["ada@example.com"])]))
        #expect(try await book.connection.read(base) != nil, "the people base was created")
        #expect(ada.dn == base.child("uid", LDAPValue("ada.\(surname.lowercased())")))
        #expect(ada.commonNames == ["Ada \(surname)"])
        #expect(ada.surnames == [surname])
        #expect(ada.givenNames == ["Ada"])
        #expect(Set(ada.objectClasses) == ["inetOrgPerson"])
        #expect(ada.strings(of: email) == ["ada@example.com"])

        let twin = try await book.add(NewPerson(givenName: "Ada", surname: surname))
        #expect(twin.dn == base.child("uid", LDAPValue("ada.\(surname.lowercased()).2")))
        let zoe = try await book.add(NewPerson(givenName: "Zoë", surname: "Ångström" + surname))
        #expect(zoe.dn == base.child("uid", LDAPValue("zoe.angstrom\(surname.lowercased())")))
        #expect(zoe.commonNames == ["Zoë Ångström\(surname)"])
        let surnameOnly = try await book.add(NewPerson(surname: "Babbage"))
        #expect(surnameOnly.commonNames == ["Babbage"])
        #expect(surnameOnly.givenNames.isEmpty)

        let shoe = try await book.field(named: "shoe-size")
        let custom = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper", values: [(shoe, ["37"])]))
        #expect(custom.hasLDAPBookClass)
        #expect(custom.strings(of: shoe) == ["37"])
    }

    @Test("concurrent adds of the same name all get their own uid")
    func concurrentAddsGetUniqueNames() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let dns = try await withThrowingTaskGroup(of: DistinguishedName.self) { group in
            for _ in 0..<6 {
                group.addTask { try await book.add(NewPerson(givenName: "Alan", surname: "Turing")).dn }
            }
            var dns: [DistinguishedName] = []
            for try await dn in group { dns.append(dn) }
            return dns
        }
        #expect(Set(dns).count == 6)
    }

    @Test("a new person needs a surname, and nothing is written without one")
    func surnameRequired() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let error = await #expect(throws: AddressBookError.self) {
            try await book.add(NewPerson(givenName: "Cher", surname: "  "))
        }
        #expect(error?.code == .invalidName)
        #expect(try await book.connection.read(try book.peopleBase()) == nil)
    }

    @Test("entries can be named by cn instead")
    func commonNameNaming() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server, naming: .commonName)
        let first = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace"))
        let second = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace"))
        #expect(first.dn == (try book.peopleBase()).child("cn", "Ada Lovelace"))
        #expect(second.dn == (try book.peopleBase()).child("cn", "Ada Lovelace 2"))
    }
}

@Suite("A directory without ldapbook's schema")
struct SchemaMissingTests {
    @Test("standard fields work; custom fields say the schema is missing and how to install it")
    func withoutTheSchema() async throws {
        let server = try Slapd(configuration: {
            var configuration = SlapdConfiguration(suffix: BookDirectory.suffix)
            configuration.includesLDAPBookSchema = false
            return configuration
        }())
        try await server.start()
        let book = try await BookDirectory.book(server)
        let registry = try await book.fieldRegistry()
        #expect(!registry.hasLDAPBookSchema)

        let email = try await book.field(named: "email")
        let person = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, ["ada@example.com"])]))
        #expect(person.strings(of: email) == ["ada@example.com"])

        for name in ["shoe-size", "nickname", "birthday"] {
            let error = await #expect(throws: AddressBookError.self) { _ = try await book.field(named: name) }
            #expect(error?.code == .schemaMissing)
            #expect(error?.message.contains("schema/ldapbook.ldif") == true)
        }
        await server.stop()
    }
}
