@testable import CommandLineKit
import Testing

@Suite("The first stage splits arguments into tokens by their shape")
struct TokenizerTests {
    @Test("each argument becomes one token of its shape", arguments: [
        ("--uri", Token.Kind.longOption(name: "uri", value: nil)),
        ("--uri=ldap://x", .longOption(name: "uri", value: "ldap://x")),
        ("--uri=", .longOption(name: "uri", value: "")),
        ("--filter=(a=b)", .longOption(name: "filter", value: "(a=b)")),
        ("--bind-dn=cn=admin,dc=example,dc=com", .longOption(name: "bind-dn", value: "cn=admin,dc=example,dc=com")),
        ("-x", .shortOptions("x")),
        ("-xZW", .shortOptions("xZW")),
        ("-Hldap://x", .shortOptions("Hldap://x")),
        ("-1", .shortOptions("1")),
        ("--", .terminator),
        ("-", .value),
        ("", .value),
        ("ada", .value),
        ("ada lovelace", .value),
        ("{}", .value),
        ("--naïve=café", .longOption(name: "naïve", value: "café")),
        ("-é", .shortOptions("é")),
        ("\u{2014}help", .value),
        ("日本語", .value),
        ("👩‍💻", .value),
    ])
    func shapes(_ argument: String, _ kind: Token.Kind) {
        let tokens = Token.tokenize([argument])
        #expect(tokens == [Token(kind: kind, index: 0, text: argument)])
    }

    @Test("after -- every argument is a value, even -- itself")
    func terminator() {
        let tokens = Token.tokenize(["find", "--", "--limit", "-x", "--", "-"])
        #expect(tokens.map(\.kind) == [.value, .terminator, .value, .value, .value, .value])
        #expect(tokens.map(\.text) == ["find", "--", "--limit", "-x", "--", "-"])
    }

    @Test("tokens keep their argument's index and text")
    func indices() {
        let arguments = ["-H", "ldap://x", "find", "", "--limit=5", "jo"]
        let tokens = Token.tokenize(arguments)
        #expect(tokens.map(\.index) == Array(0..<6))
        #expect(tokens.map(\.position) == Array(1...6))
        #expect(tokens.map(\.text) == arguments)
    }

    @Test("no arguments, no tokens")
    func empty() {
        #expect(Token.tokenize([]).isEmpty)
    }
}
