import Foundation
import LDAPBook
import LDAPKit
import Testing

@Suite("Importing many people at once")
struct PipelinedImportTests {
    private func people(_ book: AddressBook, count: Int) async throws -> [NewPerson] {
        let email = try await book.field(named: "email")
        let phone = try await book.field(named: "phone")
        // The shared server holds other tests' people too: these names and addresses are this list's own.
        let tag = UUID().uuidString.prefix(8).lowercased()
        return (0..<count).map { index in
            NewPerson(givenName: "Given\(index % 7)", surname: "Surname\(index) \(tag)",
                      values: [(email, [LDAPValue("person\(index).\(tag)@example.org")]), (phone, [LDAPValue("+1 555 \(1000 + index)")])])
        }
    }

    /// Adds one by one, and in transactions.
    static let transactionSizes = [1, 100]

    @Test("Many people in flight: all added once, in order; importing them again changes nothing",
          arguments: transactionSizes)
    func addsEveryoneOnce(transactionSize: Int) async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let list = try await people(book, count: 120)
        let first = try await book.importPeople(list, window: 16, transactionSize: transactionSize)
        #expect(words(first) == Array(repeating: "added", count: 120))
        let again = try await book.importPeople(list, window: 16, transactionSize: transactionSize)
        #expect(words(again) == Array(repeating: "unchanged", count: 120))
        let stored = try await book.connection.search(base: try book.peopleBase(), filter: .equal("objectClass", "inetOrgPerson"),
                                                      attributes: ["mail"]).collect()
        #expect(stored.count == 120)
        #expect(Set(stored.flatMap { $0.strings("mail") }).count == 120)
    }

    @Test("The same person twice in one list is added once, even with both in the window",
          arguments: transactionSizes)
    func duplicatesInOneList(transactionSize: Int) async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let phone = try await book.field(named: "phone")
        let tag = UUID().uuidString.prefix(8).lowercased()
        let adaMail = LDAPValue("ada.\(tag)@example.org")
        let ada = NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, [adaMail])])
        let adaAgain = NewPerson(givenName: "Augusta Ada", surname: "King", values: [(email, [adaMail]), (phone, ["+44 20 7946 1815"])])
        let alan = NewPerson(givenName: "Alan", surname: "Turing-\(tag)", values: [(phone, ["+44 161 496 0000"])])
        let alanAgain = NewPerson(givenName: "Alan", surname: "Turing-\(tag)", values: [(email, [LDAPValue("alan.\(tag)@example.org")])])
        let results = try await book.importPeople([ada, alan, adaAgain, alanAgain], window: 8,
                                                transactionSize: transactionSize)
        #expect(words(results) == ["added", "added", "updated", "updated"])
        let stored = try await book.connection.search(base: try book.peopleBase(), filter: .equal("objectClass", "inetOrgPerson"),
                                                      attributes: ["mail", "telephoneNumber"]).collect()
        #expect(stored.count == 2)
        let adaEntry = try #require(stored.first { $0.strings("mail").contains(adaMail.lossyString) })
        #expect(adaEntry.strings("telephoneNumber") == ["+44 20 7946 1815"])
    }

    @Test("A person the server rejects is reported alone; the others are imported", arguments: transactionSizes)
    func oneRejected(transactionSize: Int) async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        var list = try await people(book, count: 10)
        list[4] = NewPerson(givenName: "No", surname: "   ")
        let results = try await book.importPeople(list, window: 4, transactionSize: transactionSize)
        #expect(words(results) == ["added", "added", "added", "added", "rejected", "added", "added", "added", "added", "added"])
    }
}

@Suite("Importing onto people who already have a photo")
struct ImportPhotoTests {
    @Test("A second photo for someone who has one keeps theirs; the other new values are added")
    func keepsExistingPhoto() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let photo = try await book.field(named: "photo")
        let email = try await book.field(named: "email")
        let tag = UUID().uuidString.prefix(8).lowercased()
        let first = BookDirectory.jpeg + [1, 2, 3]
        let second = BookDirectory.jpeg + [4, 5, 6]
        _ = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper-\(tag)", values: [(photo, [LDAPValue(bytes: first)])]))
        let again = NewPerson(givenName: "Grace", surname: "Hopper-\(tag)",
                              values: [(photo, [LDAPValue(bytes: second)]), (email, [LDAPValue("grace.\(tag)@example.org")])])
        let results = try await book.importPeople([again])
        guard case .success(.updated(let dn)) = results[0] else {
            Issue.record("expected an update, got \(results[0])")
            return
        }
        let stored = try #require(try await book.person(at: dn, fields: [photo, email]))
        #expect(stored.values(of: photo).map(\.bytes) == [first])
        #expect(stored.strings(of: email) == ["grace.\(tag)@example.org"])
    }
}
