import Foundation
import LDAPBook
import LDAPKit
import Testing

/// Picks the first item of any list and confirms a single match.
private struct PicksFirst: ReachPresenter {
    func confirm(_ confirmation: ReachConfirmation) async throws -> Bool { true }
    func choose(from menu: ReachMenu) async throws -> ReachMenu.Choice { menu.items.isEmpty ? .cancel : .item(0) }
    func edit(_ request: EditRequest) async throws -> EditAnswer? { nil }
    func create(_ request: CreateRequest) async throws -> CreateAnswer? { nil }
}

@Suite("Many tasks on one directory at once")
struct LoadTests {
    @Test("8 tasks × 1,000 mixed operations: no errors, and every value written is there afterwards")
    func mixedOperations() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let tag = UUID().uuidString.prefix(6).lowercased()
        let people = 20
        for index in 0..<people {
            _ = try await book.add(NewPerson(givenName: "Load\(index)", surname: "Tester\(tag)x\(index)",
                                             values: [(email, [LDAPValue("load\(index).\(tag)@example.org")])]))
        }
        let tasks = 8, operations = 1_000
        let written = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var mine: [String] = []
                    for step in 0..<operations {
                        let index = (task * 7 + step) % people
                        let name = "load\(index) tester\(tag)x\(index)"
                        switch step % 3 {
                        case 0:
                            let ranking = try await book.rank(field: email, name: try NameQuery(name))
                            guard ranking.fieldAndName.first?.person.givenNames == ["Load\(index)"] else {
                                throw LoadFailure("\(name) was not ranked first")
                            }
                        case 1:
                            let outcome = try await book.reach(field: "email", name: name, presenter: PicksFirst()) { _, _ in }
                            guard case .reached = outcome else { throw LoadFailure("\(name) did not resolve: \(outcome)") }
                        default:
                            let ranking = try await book.rank(field: email, name: try NameQuery(name))
                            guard let person = ranking.fieldAndName.first?.person else { throw LoadFailure("\(name) vanished") }
                            let value = "t\(task)s\(step).\(tag)@example.org"
                            _ = try await book.add([LDAPValue(value)], to: email, of: person)
                            mine.append(value)
                        }
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let stored = try await book.connection.search(base: try book.peopleBase(), filter: .equal("objectClass", "inetOrgPerson"),
                                                      attributes: ["mail"]).collect()
        let mails = Set(stored.flatMap { $0.strings("mail") })
        #expect(written.count == tasks * (operations / 3))
        #expect(Set(written).isSubset(of: mails), "lost: \(Set(written).subtracting(mails).prefix(5))")
        #expect(mails.count == written.count + people)
    }

    @Test("4 writers adding different values to one person at once: every value is there at the end")
    func writersOnOneEntry() async throws {
        let server = try await BookDirectory.shared()
        let book = try await BookDirectory.book(server)
        let email = try await book.field(named: "email")
        let tag = UUID().uuidString.prefix(6).lowercased()
        let person = try await book.add(NewPerson(givenName: "Shared", surname: "Entry\(tag)"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    // Each writer has a connection of its own, as separate users would.
                    let own = AddressBook(connection: try await BookDirectory.connection(server), configuration: book.configuration)
                    let field = try await own.field(named: "email")
                    for step in 0..<50 {
                        _ = try await own.add([LDAPValue("w\(writer)s\(step).\(tag)@example.org")], to: field, of: person)
                    }
                    await own.connection.close()
                }
            }
            try await group.waitForAll()
        }
        let stored = try #require(try await book.person(at: person.dn, fields: [email]))
        #expect(Set(stored.strings(of: email)).count == 200)
    }
}

private struct LoadFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
