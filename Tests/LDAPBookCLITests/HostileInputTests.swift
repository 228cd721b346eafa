import Foundation
import LDAPKit
import SlapdKit
import Testing

/// Odd and hostile input through the command line: a clear error or safe output, and the
/// directory unchanged.
@Suite("Hostile input through the command line")
struct HostileInputTests {
    /// Every entry and value below `base`, sorted.
    private func dump(_ connection: LDAPConnection, _ base: DistinguishedName) async throws -> [String] {
        try await connection.search(base: base).collect().flatMap { entry in
            entry.attributes.flatMap { attribute in attribute.values.map { "\(entry.dn.string) \(attribute.name)=\(Array($0.bytes))" } }
        }.sorted()
    }

    @Test("Injection, huge names and control characters in arguments: a clear error or no match, nothing written")
    func hostileArguments() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.org"])])
        let options = CLI.connectionArguments(server, base: base)
        let before = try await dump(connection, base)
        // The longest single argument Linux passes to a program is 128 KiB.
        let huge = String(repeating: "a", count: 100_000)
        let cases: [([String], Set<Int32>)] = [
            (["find", "*"], [65]), // no letter: not a name
            (["find", ")(uid=*"], [1]),
            (["find", "ada)(|(mail=*"], [1]),
            (["find", "\\2a"], [1]),
            (["find", "a\\00b"], [1]),
            (["find", huge], [64, 65]),
            (["find", "ada\u{1B}[2J"], [64, 65]),
            (["set", "ada lovelace", "email=a\u{0}b@example.org", "--no-input"], [64, 65]),
            (["set", "ada lovelace", "phone=\u{1B}]0;owned\u{07}", "--no-input"], [64, 65]),
            (["add", "--given", huge, "--surname", "X"], [65]),
            (["add", "--given", "Eve", "--surname", "x,dc=evil"], [0]),
        ]
        var created: [String] = []
        for (arguments, statuses) in cases {
            let result = try CLI.run(arguments + options)
            #expect(statuses.contains(result.status), "\(arguments.map { $0.prefix(40) }): \(result.status) \(result.stderr.prefix(300))")
            #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"), "an escape sequence reached the terminal: \(arguments.map { $0.prefix(40) })")
            #expect(result.stderr.utf8.count < 4096, "the error repeats a huge argument")
            if arguments[0] == "add", result.status == 0 { created.append(result.stdout) }
        }
        // The one write that is allowed, a surname with DN syntax in it, stays one value in one RDN below the base.
        let after = try await dump(connection, base)
        let added = Set(after).subtracting(before)
        #expect(Set(before).isSubset(of: Set(after)), "nothing was changed or removed")
        #expect(added.allSatisfy { $0.contains(base.string) })
        let eve = try await connection.search(base: base, filter: .equal("sn", "x,dc=evil")).collect()
        #expect(eve.count == 1)
        #expect(eve.first?.dn.rdns.count == base.rdns.count + 2, "people base and the person, nothing more: \(eve.first?.dn.string ?? "")")
    }

    @Test("Terminal escapes (C0 and C1) in directory data are shown safely, and written faithfully as data")
    func hostileData() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let entry = LDAPEntry(dn: base.child("cn", "Mallory"), attributes: [
            LDAPAttribute(name: "objectClass", values: ["inetOrgPerson"]),
            LDAPAttribute(name: "cn", values: ["Mallory"]),
            LDAPAttribute(name: "sn", values: [LDAPValue("Mal\u{1B}[31mlory\u{07}")]),
            LDAPAttribute(name: "givenName", values: ["Mallory"]),
            LDAPAttribute(name: "mail", values: ["mallory@example.org"]),
            LDAPAttribute(name: "description", values: [LDAPValue("A\u{9B}2J\u{1B}[2JB\r\n")]),
        ])
        try await connection.add(entry)
        for arguments in [["find", "mallory"], ["show", "mallory"], ["show", "mallory", "--format", "json"],
                          ["find", "mallory", "--format", "json"], ["query", "mallory"], ["export", "mallory", "--format", "json"]] {
            let result = try CLI.run(arguments + CLI.connectionArguments(server, base: base))
            #expect(result.status == 0, "\(arguments): \(result.stderr) \(result.stdout)")
            #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}") && !result.stdout.contains("\u{9B}"),
                    "\(arguments) let a control character through: \(result.stdout.debugDescription)")
        }
        // Exported to a file or a pipe, data is written as it is: the CSV keeps the value exactly.
        let csv = try CLI.run(["export", "mallory", "--format", "csv"] + CLI.connectionArguments(server, base: base))
        #expect(csv.stdout.contains("Mal\u{1B}[31mlory\u{07}"))
        // reach's print hands a pipe the value exactly.
        let reached = try CLI.run(["reach", "description", "mallory", "--yes", "--no-input"] + CLI.connectionArguments(server, base: base))
        #expect(reached.stdout == "A\u{9B}2J\u{1B}[2JB\r\n\n", "\(reached.stdout.debugDescription) \(reached.stderr)")

        // Written to a terminal (util-linux script(1) gives ldapbook a pseudo-terminal as its
        // standard output), every data format shows the controls as visible escapes.
        for arguments in [["export", "mallory", "--format", "csv"], ["export", "mallory", "--format", "vcard"],
                          ["export", "mallory", "--format", "ldif"], ["export", "mallory", "--format", "json"],
                          ["show", "mallory", "--format", "vcard"], ["show", "mallory", "--format", "ldif"],
                          ["reach", "description", "mallory", "--yes", "--no-input"]] {
            let commandLine = ([CLI.executable.path] + arguments + CLI.connectionArguments(server, base: base))
                .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let onTerminal = try CLI.run(["-q", "-e", "-c", commandLine, "/dev/null"], binary: URL(fileURLWithPath: "/usr/bin/script"))
            #expect(onTerminal.status == 0, "\(arguments): \(onTerminal.stdout)")
            #expect(onTerminal.stdout.contains("mallory") || onTerminal.stdout.contains("Mallory")
                        || (arguments[0] == "reach" && onTerminal.stdout.contains("^[[2JB")), "\(arguments): \(onTerminal.stdout)")
            #expect(!onTerminal.stdout.contains("\u{1B}") && !onTerminal.stdout.contains("\u{07}") && !onTerminal.stdout.contains("\u{9B}"),
                    "\(arguments) let a control character reach the terminal: \(onTerminal.stdout.debugDescription)")
        }
        let csvOnTerminal = try CLI.run(["-q", "-e", "-c",
                                         ([CLI.executable.path, "export", "mallory", "--format", "csv"] + CLI.connectionArguments(server, base: base))
                                            .map { "'\($0)'" }.joined(separator: " "), "/dev/null"],
                                        binary: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(csvOnTerminal.stdout.contains("Mal^[[31mlory^G"), "\(csvOnTerminal.stdout.debugDescription)")
    }

    @Test("Arguments that are not UTF-8 are refused with exit 64 and nothing written")
    func invalidUTF8Arguments() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.org"])])
        let before = try await dump(connection, base)
        // A shell passes the bytes as they are; Swift's CommandLine.arguments would repair them.
        for script in ["exec \"$0\" find \"$(printf 'ad\\377')\" \"$@\"",
                       "exec \"$0\" add --given \"$(printf 'B\\303')\" --surname Byte \"$@\"",
                       "exec \"$0\" set ada \"$(printf 'note=\\355\\240\\200')\" --no-input \"$@\""] {
            let result = try CLI.run(CLI.connectionArguments(server, base: base), launcher: ["/bin/sh", "-c", script])
            #expect(result.status == 64, "\(script): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("is not valid UTF-8"), "\(result.stderr)")
            #expect(!result.stderr.contains("\u{FFFD}"))
        }
        #expect(try await dump(connection, base) == before)
    }
}

