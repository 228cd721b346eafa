import Foundation
import LDAPBook
import LDAPKit
import Testing

/// `jpegPhoto` has no equality matching rule: a directory can neither add a second value
/// beside one it cannot compare nor delete one by naming it.
@Suite("Changing a photo, a field the directory cannot compare")
struct PhotoChangeTests {
    private func personWithPhoto(_ book: AddressBook, photo: [UInt8]) async throws -> (Person, Field, Field) {
        let photoField = try await book.field(named: "photo")
        let email = try await book.field(named: "email")
        let tag = UUID().uuidString.prefix(8).lowercased()
        let person = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper-\(tag)",
                                                  values: [(photoField, [LDAPValue(bytes: photo)]),
                                                           (email, [LDAPValue("grace.\(tag)@example.org")])]))
        return (person, photoField, email)
    }

    @Test("The schema says the photo cannot be compared, and email can")
    func fieldsKnow() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        #expect(try await book.field(named: "photo").comparesValues == false)
        #expect(try await book.field(named: "email").comparesValues == true)
        #expect(try await book.field(named: "jpegPhoto").comparesValues == false)
    }

    @Test("Adding a second photo is refused before anything is sent, and the first is kept")
    func addingRefused() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let first = BookDirectory.jpeg + [1]
        let (person, photo, email) = try await personWithPhoto(book, photo: first)
        let error = await #expect(throws: AddressBookError.self) {
            try await book.update(person, with: PersonChange(adding: [(photo, [LDAPValue(bytes: BookDirectory.jpeg + [2])]),
                                                                      (email, ["other@example.org"])]))
        }
        #expect(error?.code == .tooManyValues)
        #expect(error?.message.contains("replace it instead") == true)
        let stored = try #require(try await book.person(at: person.dn, fields: [photo, email]))
        #expect(stored.values(of: photo).map(\.bytes) == [first])
        #expect(stored.values(of: email).count == 1, "nothing of the change was written")
    }

    @Test("Replacing the photo writes the new one in its place")
    func replacing() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let (person, photo, _) = try await personWithPhoto(book, photo: BookDirectory.jpeg + [1])
        let second = BookDirectory.jpeg + [2]
        let updated = try await book.update(person, with: PersonChange(replacing: [(photo, [LDAPValue(bytes: second)])]))
        #expect(updated.values(of: photo).map(\.bytes) == [second])
    }

    @Test("Removing the photo, by its value or by replacing it with nothing, leaves none")
    func removing() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let first = BookDirectory.jpeg + [1]
        let (person, photo, _) = try await personWithPhoto(book, photo: first)
        let removed = try await book.update(person, with: PersonChange(removing: [(photo, [LDAPValue(bytes: first)])]))
        #expect(removed.values(of: photo).isEmpty)

        let (other, _, _) = try await personWithPhoto(book, photo: first)
        let cleared = try await book.update(other, with: PersonChange(replacing: [(photo, [])]))
        #expect(cleared.values(of: photo).isEmpty)

        let (third, _, _) = try await personWithPhoto(book, photo: first)
        let missing = await #expect(throws: AddressBookError.self) {
            try await book.update(third, with: PersonChange(removing: [(photo, [LDAPValue(bytes: BookDirectory.jpeg + [9])])]))
        }
        #expect(missing?.code == .notFound, "a photo the person does not have is not theirs to remove")
        #expect(try await book.person(at: third.dn, fields: [photo])?.values(of: photo).map(\.bytes) == [first])
    }
}
