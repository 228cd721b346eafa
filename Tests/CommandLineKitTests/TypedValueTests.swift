import CommandLineKit
import Testing

@Suite("Typed values and the program's own usage errors")
struct TypedValueTests {
    @Test("integers in range are read; absent options read as nil")
    func integers() throws {
        let parsed = try Fixture.parse(["reach", "email", "ada", "--pick", "+3"])
        #expect(try parsed.integer("--pick", in: 1...) == 3)
        #expect(try parsed.integer("--pick", in: 3...3) == 3)
        #expect(try Fixture.parse(["find", "jo"]).integer("--limit") == nil)
        #expect(try Fixture.parse(["find", "jo", "-l", "\(Int.min)"]).integer("--limit") == Int.min)
    }

    @Test("a value that is not an integer, or out of range, is quoted", arguments: [
        (["find", "jo", "--limit", "ten"], Int.min...Int.max, "invalid value 'ten' for '--limit' (argument 4): expected an integer"),
        (["find", "jo", "-lten"], Int.min...Int.max, "invalid value 'ten' for '--limit' (argument 3): expected an integer"),
        (["find", "jo", "--limit="], Int.min...Int.max, "invalid value '' for '--limit' (argument 3): expected an integer"),
        (["find", "jo", "--limit", "5 "], Int.min...Int.max, "invalid value '5 ' for '--limit' (argument 4): expected an integer"),
        (["find", "jo", "--limit", "1.5"], Int.min...Int.max, "invalid value '1.5' for '--limit' (argument 4): expected an integer"),
        (["find", "jo", "--limit", "99999999999999999999"], Int.min...Int.max, "invalid value '99999999999999999999' for '--limit' (argument 4): expected an integer"),
        (["find", "jo", "--limit", "0"], 1...1000, "invalid value '0' for '--limit' (argument 4): expected an integer from 1 to 1000"),
        (["find", "jo", "--limit", "1001"], 1...1000, "invalid value '1001' for '--limit' (argument 4): expected an integer from 1 to 1000"),
        (["find", "jo", "--limit", "-1"], 0...Int.max, "invalid value '-1' for '--limit' (argument 4): expected an integer of at least 0"),
        (["find", "jo", "--limit", "8"], Int.min...7, "invalid value '8' for '--limit' (argument 4): expected an integer of at most 7"),
    ] as [([String], ClosedRange<Int>, String)])
    func invalidIntegers(_ arguments: [String], _ range: ClosedRange<Int>, _ message: String) throws {
        let parsed = try Fixture.parse(arguments)
        #expect(throws: UsageError(message: message, usage: "Usage: ldapbook find [OPTIONS] QUERY ...", helpHint: "See 'ldapbook help find' for more information.")) {
            try parsed.integer("--limit", in: range)
        }
    }

    @Test("a partial range reads as 'at least'")
    func partialRange() throws {
        let parsed = try Fixture.parse(["reach", "email", "ada", "--pick", "0"])
        let error = #expect(throws: UsageError.self) { try parsed.integer("--pick", in: 1...) }
        #expect(error?.message == "invalid value '0' for '--pick' (argument 5): expected an integer of at least 1")
    }

    @Test("positional arguments can be read as integers too")
    func positionalInteger() throws {
        #expect(try Fixture.parse(["delete", "42"]).integer("UID") == 42)
        let parsed = try Fixture.parse(["delete", "--yes", "ada"])
        let error = #expect(throws: UsageError.self) { try parsed.integer("UID") }
        #expect(error?.message == "invalid value 'ada' for UID (argument 3): expected an integer")
    }

    @Test("a choice must be one of the given ones")
    func choices() throws {
        let external = try Fixture.parse(["-Y", "EXTERNAL", "status"])
        #expect(try external.choice("-Y", from: ["EXTERNAL"]) == "EXTERNAL")
        #expect(try Fixture.parse(["status"]).choice("-Y", from: ["EXTERNAL"]) == nil)

        let plain = try Fixture.parse(["status", "-Y", "PLAIN"])
        let one = #expect(throws: UsageError.self) { try plain.choice("-Y", from: ["EXTERNAL"]) }
        #expect(one?.message == "invalid value 'PLAIN' for '-Y' (argument 3): expected EXTERNAL")

        let yaml = try Fixture.parse(["find", "jo", "--format=yaml"])
        let several = #expect(throws: UsageError.self) { try yaml.choice("--format", from: ["text", "json"]) }
        #expect(several?.message == "invalid value 'yaml' for '--format' (argument 3): expected one of text, json")
    }

    @Test("the program can reject a value for its own reasons")
    func invalidValue() throws {
        let parsed = try Fixture.parse(["-y", "/nonexistent", "find", "jo"])
        let error = parsed.invalidValue(of: "-y", because: "no such file")
        #expect(error.message == "invalid value '/nonexistent' for '-y' (argument 2): no such file")
        #expect(error.usage == "Usage: ldapbook find [OPTIONS] QUERY ...")
    }

    @Test("the program can report its own usage errors with the command's usage line")
    func ownUsageError() throws {
        let parsed = try Fixture.parse(["-W", "-y", "pw", "status"])
        let error = parsed.usageError("-W and -y cannot be used together")
        #expect(error == UsageError(
            message: "-W and -y cannot be used together",
            usage: "Usage: ldapbook status [OPTIONS] [SERVER]",
            helpHint: "See 'ldapbook help status' for more information."
        ))
    }
}
