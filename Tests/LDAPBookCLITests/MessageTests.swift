import Foundation
import LDAPKit
import SlapdKit
import Testing

/// What the command line says: its version, and messages of several lines printed as lines,
/// while what comes from the directory stays escaped.
@Suite("Version and messages")
struct MessageTests {
    @Test("--version and ldapbook version print the version the manual page carries")
    func version() throws {
        let option = try CLI.run(["--version"])
        let command = try CLI.run(["version"])
        #expect(option.status == 0 && command.status == 0)
        #expect(option.stdout == command.stdout)
        let version = option.stdout.trimmingCharacters(in: .newlines)
        #expect(version.hasPrefix("ldapbook "), "\(version)")
        let manual = try CLI.run(["manpage"])
        #expect(manual.stdout.contains("\"\(version)\""), "the manual page's title line names \(version)")
    }

    @Test("A usage error prints its message, the usage line and the hint as three lines")
    func usageErrorLines() throws {
        let result = try CLI.run(["find", "--bogus"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("^J"))
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first == "ldapbook: unknown option '--bogus' (argument 2)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: ldapbook find") == true)
    }

    @Test("The choices --no-input lists are one line each; a line break or escape in a name stays escaped")
    func choicesAsLines() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        // Three namesakes; the third's displayName carries a line break and an escape sequence.
        for number in 1...3 {
            var entry = LDAPEntry(dn: base.child("uid", LDAPValue("nell\(number)")), [
                "objectClass": ["inetOrgPerson"], "uid": ["nell\(number)"], "cn": ["Nell Lines"],
                "givenName": ["Nell"], "sn": ["Lines"], "mail": ["nell\(number)@example.org"],
            ])
            if number == 3 { entry["displayName"] = ["Nell\nLines \u{1B}[2J"] }
            try await connection.add(entry)
        }
        await connection.close()
        let result = try CLI.run(CLI.connectionArguments(server, base: base) + ["show", "nell lines", "--no-input"])
        #expect(result.status == 3, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ldapbook: input needed: 3 people match") == true, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(lines)")
        #expect(lines.count == 4, "one line per person: \(lines)")
        #expect(result.stderr.contains("Nell^JLines ^[[2J"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("A name that many people share lists the best hundred, best first, and says that more match")
    func manyChoices() async throws {
        let server = try await CLI.shared()
        // 120 Mannings, among them Ann, Anna and Anne.
        let people = (1...117).map { ("Person\($0)", "Manning", [String]()) } + ["Ann", "Anna", "Anne"].map { ($0, "Manning", [String]()) }
        let (connection, base) = try await CLI.container(server, people: people)
        await connection.close()
        let arguments = CLI.connectionArguments(server, base: base)
        let result = try CLI.run(arguments + ["show", "manning", "--no-input"])
        #expect(result.status == 3, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("ldapbook: input needed: more than 100 people match \"manning\"") == true, "\(lines.first ?? "")")
        #expect(lines.count == 102 && lines.last == "  (the best 100 are listed: type more of the name)", "\(lines.suffix(2))")
        // Whether one alone matches every word is known all the same: Ann, not Anna or Anne.
        let ann = try CLI.run(arguments + ["show", "ann", "manning", "--no-input"])
        #expect(ann.status == 0 && ann.stdout.contains("Ann Manning") && !ann.stdout.contains("Anna"), "\(ann.stdout) \(ann.stderr)")
        let beyond = try CLI.run(arguments + ["show", "manning", "--pick", "101", "--no-input"])
        #expect(beyond.status != 0 && beyond.stderr.contains("the best 100 are listed"), "\(beyond.stderr)")
        let picked = try CLI.run(arguments + ["show", "manning", "--pick", "100", "--no-input"])
        #expect(picked.status == 0, "\(picked.stderr)")
        // reach lists the best too, and a DN past them is picked from everyone.
        let reach = try CLI.run(arguments + ["reach", "email", "manning", "--no-input"])
        #expect(reach.status == 3 && reach.stderr.contains("(more match: the best are listed"), "\(reach.stderr.suffix(300))")
        let last = base.child("cn", LDAPValue("Person99 Manning"))
        #expect(!reach.stderr.contains(last.string), "Person99 ranks last among equals (by first name)")
        let filled = try CLI.run(arguments + ["reach", "email", "manning", "--pick", last.string, "--no-input", "--no-history"])
        #expect(filled.status == 3 && filled.stderr.contains("Person99"), "\(filled.stdout) \(filled.stderr)")
    }
}
