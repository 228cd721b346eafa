import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

/// ldapbook on a directory of two servers in multi-provider replication, reached through a
/// URI list: the set-up README.md recommends when one server is not enough.
@Suite("ldapbook on two replicating servers", .serialized)
struct ReplicatedDirectoryTests {
    static let suffix = "dc=replicated,dc=example"

    /// Two servers replicating with each other (the configuration docker-compose uses).
    private func startPair() async throws -> (Slapd, Slapd) {
        let group = try Slapd.replicatedGroup(of: 2, configuration: SlapdConfiguration(suffix: Self.suffix))
        for server in group { try await server.start() }
        return (group[0], group[1])
    }

    /// An address book on `servers`, tried in order, as the root DN.
    private func book(_ servers: [Slapd]) throws -> AddressBook {
        let connection = LDAPConnection(configuration: .init(
            servers: servers.map(\.ldapURI), base: try DistinguishedName(parsing: Self.suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: servers[0].rootDN), password: .init(servers[0].rootPassword)),
            networkTimeout: .seconds(2), operationTimeout: .seconds(10), systemDefaults: .ignored))
        return AddressBook(connection: connection)
    }

    /// The emails of the person named `name` as `server` alone sees them, once they are
    /// `expected` or after `timeout`.
    private func emails(of name: String, on server: Slapd, expected: Set<String>, timeout: Duration = .seconds(30)) async throws -> Set<String> {
        let book = try book([server])
        let email = try await book.field(named: "email")
        let deadline = ContinuousClock.now + timeout
        var seen: Set<String> = []
        repeat {
            let ranking = try await book.rank(field: email, name: try NameQuery(name))
            seen = Set(ranking.fieldAndName.flatMap { $0.values.compactMap(\.string) })
            if seen == expected { break }
            try await Task.sleep(for: .milliseconds(100))
        } while ContinuousClock.now < deadline
        await book.connection.close()
        return seen
    }

    @Test("A person added through one server is found through the other")
    func addedOnOneFoundOnOther() async throws {
        let (first, second) = try await startPair()
        defer { first.cleanup(); second.cleanup() }
        let book = try book([first])
        let email = try await book.field(named: "email")
        _ = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, ["ada@example.org"])]))
        #expect(try await emails(of: "ada lovelace", on: second, expected: ["ada@example.org"]) == ["ada@example.org"])
        await book.connection.close()
    }

    @Test("With the first server killed, the URI list keeps resolving and writing; once back, both agree")
    func failoverAndConvergence() async throws {
        let (first, second) = try await startPair()
        defer { first.cleanup(); second.cleanup() }
        let book = try book([first, second])
        let email = try await book.field(named: "email")
        _ = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper", values: [(email, ["grace@example.org"])]))
        #expect(try await emails(of: "grace hopper", on: second, expected: ["grace@example.org"]) == ["grace@example.org"])

        await first.kill()
        // The connection to the first server is gone: the next operations fail over to the second.
        var reached: LDAPValue?
        for _ in 0..<3 where reached == nil {
            do {
                let outcome = try await book.reach(field: "email", name: "grace hopper", presenter: AlwaysConfirm()) { _, _ in }
                if case .reached(_, let value) = outcome { reached = value }
            } catch let error as LDAPError where error.isServerDown {
                continue
            }
        }
        #expect(reached?.string == "grace@example.org")
        let grace = try #require(try await book.rank(field: email, name: try NameQuery("grace hopper")).fieldAndName.first?.person)
        _ = try await book.add(["amazing.grace@example.org"], to: email, of: grace)
        _ = try await book.add(NewPerson(givenName: "Alan", surname: "Turing", values: [(email, ["alan@example.org"])]))

        try await first.start()
        let both: Set<String> = ["grace@example.org", "amazing.grace@example.org"]
        #expect(try await emails(of: "grace hopper", on: first, expected: both) == both)
        #expect(try await emails(of: "alan turing", on: first, expected: ["alan@example.org"]) == ["alan@example.org"])
        await book.connection.close()
    }

    @Test("With the first server hung (SIGSTOP), the URI list reads and writes through the second; once resumed, both agree")
    func hungServerIsLeft() async throws {
        let (first, second) = try await startPair()
        defer { first.resume(); first.cleanup(); second.cleanup() }
        first.pause()
        let connection = LDAPConnection(configuration: .init(
            servers: [first.ldapURI, second.ldapURI], base: try DistinguishedName(parsing: Self.suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: first.rootDN), password: .init(first.rootPassword)),
            networkTimeout: .seconds(2), operationTimeout: .seconds(2), systemDefaults: .ignored))
        let book = AddressBook(connection: connection)
        let email = try await book.field(named: "email")
        _ = try await book.add(NewPerson(givenName: "Barbara", surname: "Liskov", values: [(email, ["barbara@example.org"])]))
        #expect(connection.server == second.ldapURI, "the hung server was left for the live one")
        #expect(try await emails(of: "barbara liskov", on: second, expected: ["barbara@example.org"]) == ["barbara@example.org"])
        first.resume()
        #expect(try await emails(of: "barbara liskov", on: first, expected: ["barbara@example.org"]) == ["barbara@example.org"])
        await book.connection.close()
    }

    @Test("Values added to one person through both servers at once all survive")
    func concurrentAdditions() async throws {
        let (first, second) = try await startPair()
        defer { first.cleanup(); second.cleanup() }
        let onFirst = try book([first])
        let onSecond = try book([second])
        let email = try await onFirst.field(named: "email")
        _ = try await onFirst.add(NewPerson(givenName: "Edsger", surname: "Dijkstra", values: [(email, ["edsger@example.org"])]))
        #expect(try await emails(of: "edsger dijkstra", on: second, expected: ["edsger@example.org"]) == ["edsger@example.org"])
        let viaFirst = try #require(try await onFirst.rank(field: email, name: try NameQuery("edsger")).fieldAndName.first?.person)
        let emailOnSecond = try await onSecond.field(named: "email")
        let viaSecond = try #require(try await onSecond.rank(field: emailOnSecond, name: try NameQuery("edsger")).fieldAndName.first?.person)
        async let a: Person = onFirst.add((1...5).map { LDAPValue("first\($0)@example.org") }, to: email, of: viaFirst)
        async let b: Person = onSecond.add((1...5).map { LDAPValue("second\($0)@example.org") }, to: emailOnSecond, of: viaSecond)
        _ = try await (a, b)
        let all = Set(["edsger@example.org"] + (1...5).map { "first\($0)@example.org" } + (1...5).map { "second\($0)@example.org" })
        #expect(try await emails(of: "edsger dijkstra", on: first, expected: all) == all)
        #expect(try await emails(of: "edsger dijkstra", on: second, expected: all) == all)
        await onFirst.connection.close()
        await onSecond.connection.close()
    }
}

/// Confirms a single match; any other question is a failure of the test.
private struct AlwaysConfirm: ReachPresenter {
    func confirm(_ confirmation: ReachConfirmation) async throws -> Bool { true }
    func choose(from menu: ReachMenu) async throws -> ReachMenu.Choice {
        Issue.record("unexpected choice: \(menu)")
        throw CancellationError()
    }
    func edit(_ request: EditRequest) async throws -> EditAnswer? { nil }
    func create(_ request: CreateRequest) async throws -> CreateAnswer? { nil }
}
