import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("Renaming and deleting people")
struct RenameDeleteTests {
    @Test("A rename changes givenName, sn, the full name in cn and displayName together; a cn-named entry is renamed too")
    func rename() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server, naming: .commonName)
        let ada = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace"))
        try await book.connection.modify(ada.dn, [.add("cn", LDAPValue("Countess of Lovelace")), .add("displayName", LDAPValue("Ada Lovelace"))])
        let stored = try #require(try await book.person(at: ada.dn))
        let renamed = try await book.rename(stored, givenName: nil, surname: "King")
        #expect(renamed.dn == ada.dn.parent!.child("cn", LDAPValue("Ada King")))
        #expect(renamed.surnames == ["King"] && renamed.givenNames == ["Ada"])
        #expect(Set(renamed.commonNames) == ["Ada King", "Countess of Lovelace"], "the other cn stays")
        #expect(renamed.entry.strings("displayName") == ["Ada King"])
        #expect(try await book.person(at: ada.dn) == nil, "the old DN is gone")

        let uidBook = try await BookDirectory.book(server)
        let grace = try await uidBook.add(NewPerson(givenName: "Grace", surname: "Brewster"))
        let married = try await uidBook.rename(grace, givenName: nil, surname: "Hopper")
        #expect(married.dn == grace.dn, "a uid-named entry keeps its DN")
        #expect(married.commonNames == ["Grace Hopper"])
    }

    @Test("A rename from names someone changed meanwhile writes nothing and says so")
    func renameChangedMeanwhile() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let alan = try await book.add(NewPerson(givenName: "Alan", surname: "Turing"))
        try await book.connection.modify(alan.dn, [.replace("sn", LDAPValue("Turing-Smith"))])
        let error = await #expect(throws: AddressBookError.self) {
            _ = try await book.rename(alan, givenName: "Alan Mathison", surname: nil)
        }
        #expect(error?.code == .changedMeanwhile)
        let now = try #require(try await book.person(at: alan.dn))
        #expect(now.givenNames == ["Alan"] && now.surnames == ["Turing-Smith"] && now.commonNames == ["Alan Turing"])
    }

    @Test("Delete removes the entry; an entry with entries below it is refused")
    func delete() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let edsger = try await book.add(NewPerson(givenName: "Edsger", surname: "Dijkstra"))
        try await book.delete(edsger)
        #expect(try await book.person(at: edsger.dn) == nil)

        let parent = try await book.add(NewPerson(givenName: "Parent", surname: "Entry"))
        try await book.connection.add(LDAPEntry(dn: parent.dn.child("cn", "Child"), ["objectClass": ["person"], "cn": ["Child"], "sn": ["Child"]]))
        let error = await #expect(throws: LDAPError.self) { try await book.delete(parent) }
        #expect(error?.code == .notAllowedOnNonLeaf)
        #expect(try await book.person(at: parent.dn) != nil)
    }
}
