import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("Fields on a real directory")
struct FieldRoundTripTests {
    /// A valid sample value for every built-in field.
    static let samples: [String: [LDAPValue]] = [
        "email": ["ada@example.com", "countess@example.org"],
        "phone": ["+44 20 7946 0000"],
        "mobile": ["+44 7700 900000"],
        "home-phone": ["+44 20 7946 0001"],
        "fax": ["+44 20 7946 0002"],
        "pager": ["+44 20 7946 0003"],
        "organization": ["Analytical Engines Ltd"],
        "department": ["Mathematics"],
        "title": ["Countess"],
        "url": ["https://example.com/ada Ada's page"],
        "note": ["First programmer. Ünïcödé ✓"],
        "address": ["12 St James's Square $ London"],
        "home-address": ["Ockham Park $ Surrey"],
        "photo": [LDAPValue(bytes: BookDirectory.jpeg)],
        "display-name": ["Ada, Countess of Lovelace"],
        "given-name": ["Augusta"],
        "surname": ["Byron"],
        "nickname": ["Enchantress of Numbers"],
        "birthday": ["1815-12-10"],
        "anniversary": ["--07-08"],
        "im": ["xmpp:ada@example.com", "sip:ada@example.com"],
        "related": ["mother=Anne Isabella Milbanke"],
        "manager": ["cn=Charles Babbage,dc=example,dc=com"],
        "employee-number": ["1815"],
    ]

    @Test("every built-in field round-trips", arguments: BuiltInField.all.map(\.name))
    func builtInFieldRoundTrips(_ name: String) async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let field = try await book.field(named: name)
        let values = try #require(Self.samples[name])
        let person = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace"))
        let updated = try await book.add(values, to: field, of: person)
        let expected = Set(values.map(\.bytes) + person.values(of: field).map(\.bytes))
        #expect(Set(updated.values(of: field).map(\.bytes)) == expected)
        let reread = try #require(try await book.person(at: person.dn, fields: [field]))
        #expect(Set(reread.values(of: field).map(\.bytes)) == expected)
    }

    @Test("an attribute only the server's schema knows works by its name")
    func schemaOnlyAttribute() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let room = try await book.field(named: "roomNumber")
        #expect(room.origin == .directorySchema)
        let person = try await book.add(NewPerson(givenName: "Alan", surname: "Turing"))
        let updated = try await book.add(["B-12", "C-3"], to: room, of: person)
        #expect(Set(updated.strings(of: room)) == ["B-12", "C-3"])
        #expect(!updated.hasLDAPBookClass, "a standard attribute needs no auxiliary class")
    }

    @Test("a custom field is written, found populated by its filter, and read back")
    func customField() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let shoe = try await book.field(named: "shoe-size")
        let hat = try await book.field(named: "hat")
        let ada = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace"))
        let alan = try await book.add(NewPerson(givenName: "Alan", surname: "Turing"))
        #expect(!ada.hasLDAPBookClass)

        let updated = try await book.add(["38", "39 (boots)"], to: shoe, of: ada)
        #expect(updated.hasLDAPBookClass, "the auxiliary class came with the first custom value")
        #expect(Set(updated.strings(of: shoe)) == ["38", "39 (boots)"])
        try await book.add(["L"], to: hat, of: alan)

        let base = try book.peopleBase()
        let withShoes = try await book.connection.search(base: base, filter: shoe.presenceFilter, attributes: ["cn"])
            .collect().map(\.dn)
        #expect(withShoes == [ada.dn])
        let withHats = try await book.connection.search(base: base, filter: hat.presenceFilter).collect().map(\.dn)
        #expect(withHats == [alan.dn])
        let prefixed = try await book.connection.search(base: base, filter: shoe.prefixFilter("39")).collect()
        #expect(prefixed.map(\.dn) == [ada.dn])

        // A second custom field on the same person adds no second class and keeps the first field.
        let again = try await book.add(["M"], to: hat, of: updated)
        #expect(again.objectClasses.filter { $0 == "ldapbookPerson" }.count == 1)
        let both = try #require(try await book.person(at: ada.dn, fields: [shoe, hat]))
        #expect(Set(both.strings(of: shoe)) == ["38", "39 (boots)"])
        #expect(both.strings(of: hat) == ["M"])
    }

    @Test("values already present, and values someone else added meanwhile, are kept without error")
    func valueLevelAdds() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let person = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper",
                                                  values: [(email, ["grace@example.com"])]))
        // Someone else adds a value; our copy of the person is now stale.
        let other = try await BookDirectory.connection(server)
        try await other.modify(person.dn, [.add("mail", "amazing@example.com", "hopper@example.com")])

        let updated = try await book.add(["grace@example.com", "hopper@example.com"], to: email, of: person)
        #expect(Set(updated.strings(of: email)) == ["grace@example.com", "amazing@example.com", "hopper@example.com"])
        let unchanged = try await book.add(["hopper@example.com"], to: email, of: updated)
        #expect(Set(unchanged.strings(of: email)).count == 3)
    }
}
