@testable import CommandLineKit
import Testing

@Suite("Positional values are distributed over the declared arguments")
struct PositionalDistributionTests {
    static let field = PositionalSpec("FIELD", help: "")
    static let query = PositionalSpec("QUERY", help: "", isRepeating: true)
    static let from = PositionalSpec("FROM", help: "", isOptional: true)
    static let to = PositionalSpec("TO", help: "")
    static let rest = PositionalSpec("REST", help: "", isRepeating: true, isOptional: true)

    /// The values as arguments numbered from 1.
    static func arguments(_ texts: [String]) -> [Argument] {
        texts.enumerated().map { Argument(text: $1, position: $0 + 1) }
    }

    /// The distribution as texts, or the mismatch.
    static func distribute(_ positionals: [PositionalSpec], _ texts: [String]) -> Result<[String: [String]], CommandSpec.PositionalMismatch> {
        let command = CommandSpec("c", abstract: "", positionals: positionals)
        do {
            return .success(try command.distribute(arguments(texts)).mapValues { $0.map(\.text) })
        } catch {
            return .failure(error)
        }
    }

    @Test("a required argument, then a repeating one")
    func requiredThenRepeating() {
        #expect(Self.distribute([Self.field, Self.query], []) == .failure(.missing(Self.field)))
        #expect(Self.distribute([Self.field, Self.query], ["email"]) == .failure(.missing(Self.query)))
        #expect(Self.distribute([Self.field, Self.query], ["email", "ada", "king"]) == .success(["FIELD": ["email"], "QUERY": ["ada", "king"]]))
    }

    @Test("an optional argument before a required one")
    func optionalFirst() {
        #expect(Self.distribute([Self.from, Self.to], ["b"]) == .success(["FROM": [], "TO": ["b"]]))
        #expect(Self.distribute([Self.from, Self.to], ["a", "b"]) == .success(["FROM": ["a"], "TO": ["b"]]))
        #expect(Self.distribute([Self.from, Self.to], ["a", "b", "c"]) == .failure(.unexpected(Argument(text: "c", position: 3))))
    }

    @Test("an optional repeating argument may be empty")
    func optionalRepeating() {
        #expect(Self.distribute([Self.to, Self.rest], ["a"]) == .success(["TO": ["a"], "REST": []]))
        #expect(Self.distribute([Self.to, Self.rest], ["a", "b", "c"]) == .success(["TO": ["a"], "REST": ["b", "c"]]))
    }

    @Test("a command without positional arguments takes none")
    func none() {
        #expect(Self.distribute([], []) == .success([:]))
        #expect(Self.distribute([], ["x"]) == .failure(.unexpected(Argument(text: "x", position: 1))))
    }
}
