import Foundation
import LDAPBook
import LDAPKit
import Testing

@Suite("Hostile input through the library: a clear error at once, nothing written")
struct HostileLibraryInputTests {
    /// Every value under the book's own people base, sorted.
    private func dump(_ book: AddressBook) async throws -> [String] {
        let entries = try await book.connection.search(base: try book.peopleBase()).collect()
        return entries.flatMap { entry in
            entry.attributes.flatMap { attribute in attribute.values.map { "\(entry.dn.string) \(attribute.name)=\($0.bytes)" } }
        }.sorted()
    }

    @Test("A name of a million characters is refused before any search or write, whatever the call")
    func megabyteNames() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        _ = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, ["ada@example.org"])]))
        let before = try await dump(book)
        let huge = String(repeating: "é", count: 1_000_000)

        #expect(throws: AddressBookError.self) { try NameQuery(huge) }
        #expect(throws: AddressBookError.self) { try NameQuery("ada " + huge) }
        await #expect(throws: AddressBookError.self) {
            try await book.reach(field: "email", name: huge, presenter: ScriptedPresenter([])) { _, _ in
                Issue.record("the action ran")
            }
        }
        for person in [NewPerson(givenName: huge, surname: "Byte"), NewPerson(givenName: "Bob", surname: huge),
                       NewPerson(givenName: "Bob", surname: " " + huge + " ", values: [(email, ["bob@example.org"])])] {
            await #expect {
                try await book.add(person)
            } throws: { error in
                (error as? AddressBookError)?.code == .invalidName && (error as? AddressBookError)?.message.count ?? .max < 200
            }
            let imported = await book.importPeople(records([person]))
            #expect(words(imported) == ["rejected"], "a huge name is refused, not imported")
        }
        #expect(try await dump(book) == before)
    }

    @Test("Values that are not UTF-8 are refused for text fields, and kept exactly for binary ones")
    func invalidUTF8Values() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let nickname = try await book.field(named: "nickname")
        let person = try await book.add(NewPerson(givenName: "Eve", surname: "Bytes"))
        let before = try await dump(book)
        for (field, bytes) in [(email, [0x65, 0xFF, 0x40, 0x78, 0x2E, 0x6F, 0x72, 0x67] as [UInt8]), (nickname, [0xC3]),
                               (nickname, [0xED, 0xA0, 0x80])] {
            await #expect(throws: AddressBookError.self) {
                try await book.add([LDAPValue(bytes: bytes)], to: field, of: person)
            }
            await #expect(throws: AddressBookError.self) {
                try await book.add(NewPerson(givenName: "Mallory", surname: "Bytes", values: [(field, [LDAPValue(bytes: bytes)])]))
            }
        }
        #expect(try await dump(book) == before)
    }
}
