@testable import CommandLineKit
import Testing

@Suite("Usage errors quote the argument and say where it is")
struct UsageErrorTests {
    @Test("each mistake has its message", arguments: [
        ([], "missing command; expected one of: find, reach, delete, add, status, help"),
        (["-H", "ldap://x"], "missing command; expected one of: find, reach, delete, add, status, help"),
        (["fnd", "jo"], "unknown command 'fnd' (argument 1); did you mean 'find'?"),
        (["-W", "raech", "email"], "unknown command 'raech' (argument 2); did you mean 'reach'?"),
        (["zzz"], "unknown command 'zzz' (argument 1); expected one of: find, reach, delete, add, status, help"),
        ([""], "unknown command '' (argument 1); expected one of: find, reach, delete, add, status, help"),
        (["find", "jo", "--limt", "5"], "unknown option '--limt' (argument 3); did you mean '--limit'?"),
        (["find", "jo", "--LIMIT", "5"], "unknown option '--LIMIT' (argument 3); did you mean '--limit'?"),
        (["find", "jo", "--fromat=json"], "unknown option '--fromat' (argument 3); did you mean '--format'?"),
        (["find", "jo", "--hlep"], "unknown option '--hlep' (argument 3); did you mean '--help'?"),
        (["find", "jo", "--bogus"], "unknown option '--bogus' (argument 3)"),
        (["find", "jo", "--bogus=value"], "unknown option '--bogus' (argument 3)"),
        (["find", "jo", "--yes"], "unknown option '--yes' (argument 3)"),
        (["find", "-q", "jo"], "unknown option '-q' (argument 2)"),
        (["find", "-xq", "jo"], "unknown option '-q' (argument 2)"),
        (["-uri", "ldap://x", "find"], "unknown option '-u' (argument 1); did you mean '--uri'?"),
        (["--profle", "work", "find"], "unknown option '--profle' (argument 1); did you mean '--profile'?"),
        (["--limit", "5", "find", "jo"], "option '--limit' (argument 1) must follow the command name"),
        (["-v", "status"], "option '-v' (argument 1) must follow the command name"),
        (["find", "jo", "--limit"], "missing value for '--limit' (argument 3)"),
        (["find", "jo", "-l"], "missing value for '-l' (argument 3)"),
        (["find", "jo", "--limit", "--format", "json"], "missing value for '--limit' (argument 3)"),
        (["find", "jo", "--limit", "--", "5"], "missing value for '--limit' (argument 3)"),
        (["find", "jo", "-xl"], "missing value for '-l' (argument 3)"),
        (["reach", "email", "ada", "--exec"], "missing value for '--exec' (argument 4)"),
        (["delete", "--yes=3", "ada"], "the flag '--yes' (argument 2) takes no value"),
        (["delete", "--yes=", "ada"], "the flag '--yes' (argument 2) takes no value"),
        (["--help=please"], "the flag '--help' (argument 1) takes no value"),
        (["find", "jo", "--limit", "5", "-l", "6"], "option '--limit' given twice: '--limit' (argument 3) and '-l' (argument 5)"),
        (["-H", "ldap://a", "find", "jo", "--uri", "ldap://b"], "option '--uri' given twice: '-H' (argument 1) and '--uri' (argument 5)"),
        (["-y", "a", "-y", "b", "status"], "option '-y' given twice: '-y' (argument 1) and '-y' (argument 3)"),
        (["reach"], "missing argument FIELD for 'reach'"),
        (["reach", "email"], "missing argument QUERY for 'reach'"),
        (["find", "--limit", "5"], "missing argument QUERY for 'find'"),
        (["delete", "ada", "grace"], "unexpected argument 'grace' (argument 3)"),
        (["status", "ldap://a", "--json", "ldap://b"], "unexpected argument 'ldap://b' (argument 4)"),
        (["add", "--given", "Ada", "ada"], "unexpected argument 'ada' (argument 4); 'add' takes no arguments"),
        (["help", "fnd"], "unknown command 'fnd' (argument 2); did you mean 'find'?"),
        (["help", "find", "reach"], "unexpected argument 'reach' (argument 3)"),
        (["help", "fnd", "reach"], "unexpected argument 'reach' (argument 3)"),
        (["help", "find", "--limit", "3"], "unknown option '--limit' (argument 3)"),
    ] as [([String], String)])
    func messages(_ arguments: [String], _ message: String) {
        #expect(Fixture.usageError(arguments)?.message == message)
    }

    @Test("the first mistake is reported")
    func firstMistake() {
        #expect(Fixture.usageError(["find", "--bogus", "--limit", "x", "--limit", "y"])?.message == "unknown option '--bogus' (argument 2)")
        #expect(Fixture.usageError(["fnd", "--bogus"])?.message == "unknown command 'fnd' (argument 1); did you mean 'find'?")
    }

    @Test("an error about a command carries its usage line and help hint")
    func commandContext() throws {
        let error = try #require(Fixture.usageError(["reach", "email"]))
        #expect(error.usage == "Usage: ldapbook reach [OPTIONS] FIELD QUERY ...")
        #expect(error.helpHint == "See 'ldapbook help reach' for more information.")
        #expect(error.description == """
            missing argument QUERY for 'reach'
            Usage: ldapbook reach [OPTIONS] FIELD QUERY ...
              See 'ldapbook help reach' for more information.
            """)
    }

    @Test("an error before the command carries the program's usage line")
    func programContext() throws {
        let error = try #require(Fixture.usageError(["--bogus"]))
        #expect(error.usage == "Usage: ldapbook [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS ...]")
        #expect(error.helpHint == "See 'ldapbook help' for more information.")
    }

    @Test("the exit status is EX_USAGE")
    func exitCode() {
        #expect(UsageError.exitCode == 64)
    }

    @Test("the values of options are never quoted")
    func valuesNotQuoted() throws {
        for arguments in [["find", "jo", "--bogus=s3cret"], ["delete", "--yes=s3cret", "ada"], ["find", "-ps3cret", "jo"]] {
            let error = try #require(Fixture.usageError(arguments))
            #expect(!error.description.contains("s3cret"), "\(arguments)")
        }
    }
}

@Suite("Suggestions for mistyped names")
struct SuggestionTests {
    @Test("optimal string alignment distance", arguments: [
        ("limit", "limit", 0), ("limt", "limit", 1), ("lmiit", "limit", 1), ("limits", "limit", 1),
        ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3), ("ca", "abc", 3), ("été", "ete", 2),
    ] as [(String, String, Int)])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestion.distance(Array(a), Array(b)) == expected)
    }

    @Test("close names are suggested, the first of equally close ones wins, far ones are not")
    func closest() {
        #expect(Suggestion.closest(to: "--fromat", among: ["--format", "--field"]) == "--format")
        #expect(Suggestion.closest(to: "--lim", among: ["--limit"]) == "--limit")
        #expect(Suggestion.closest(to: "--x", among: ["--yes"]) == nil)
        #expect(Suggestion.closest(to: "--base", among: ["--case", "--vase"]) == "--case")
        #expect(Suggestion.closest(to: "--", among: ["--help"]) == nil)
        #expect(Suggestion.closest(to: "shwo", among: ["find", "show"]) == "show")
    }
}

@Suite("Arguments that are not UTF-8")
struct InvalidUTF8ArgumentTests {
    @Test("an argument whose bytes are not UTF-8 is refused by position, never repaired or repeated")
    func refusedByPosition() throws {
        let valid: [[UInt8]] = [Array("find".utf8), Array("Zoë".utf8)]
        #expect(try Fixture.parser.decode(rawArguments: valid) == ["find", "Zoë"])
        for bad: [UInt8] in [[0x61, 0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            let error = #expect(throws: UsageError.self) {
                try Fixture.parser.decode(rawArguments: [Array("find".utf8), Array("--limit".utf8), Array("5".utf8), bad])
            }
            #expect(error?.message == "argument 4 is not valid UTF-8")
            #expect(error?.description.contains("\u{FFFD}") == false)
        }
    }
}
