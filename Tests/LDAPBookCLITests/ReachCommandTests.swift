import Foundation
import LDAPKit
import SlapdKit
import Testing

/// `reach` as a user runs it: the scripting flags, the actions, and nothing written on the way out.
@Suite("reach on the command line: flags that mean what they say, safe actions, one write at the end")
struct ReachCommandTests {
    /// Every attribute of every entry under `base`, for comparing before and after.
    private func snapshot(_ connection: LDAPConnection, _ base: DistinguishedName) async throws -> [String] {
        try await connection.search(base: base, attributes: ["*"]).collect()
            .map { entry in entry.dn.string + entry.attributes.map { "\($0.name)=\($0.values.map(\.lossyString).sorted())" }.sorted().joined() }
            .sorted()
    }

    /// A directory of `PATH` holding a fake `xdg-open` that writes its arguments, one a line, to
    /// the file it returns.
    private func fakeOpener(_ server: Slapd) throws -> (path: String, log: URL) {
        let directory = server.directory.appendingPathComponent("bin-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("opened")
        let script = directory.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '\(log.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (directory.path + ":/usr/bin:/bin", log)
    }

    @Test("--value for someone who has an address adds it after the confirmation and acts on it; the second call just works")
    func valueIsAdded() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Alan", "Turing", ["alan.t@bletchley.example"])])
        let arguments = CLI.connectionArguments(server, base: base)
        let asked = try CLI.run(["reach", "email", "alan", "turing", "--value", "alan@example.com", "--no-input"] + arguments)
        #expect(asked.status == 3 && asked.stderr.contains("This adds email alan@example.com to Alan Turing"), "\(asked.stderr)")
        let added = try CLI.run(["reach", "email", "alan", "turing", "--value", "alan@example.com", "--yes", "--no-input"] + arguments)
        #expect(added.status == 0 && added.stdout == "alan@example.com\n", "\(added.stdout) \(added.stderr)")
        let alan = try await connection.search(base: base, filter: .equal("sn", "Turing")).collect()
        #expect(Set(alan.first?.strings("mail") ?? []) == ["alan.t@bletchley.example", "alan@example.com"])
        let again = try CLI.run(["reach", "email", "alan", "turing", "--value", "alan@example.com", "--yes", "--no-input"] + arguments)
        #expect(again.stdout == "alan@example.com\n")
    }

    @Test("--new adds a new person even where a confirmation would come first")
    func newIsNew() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Pieter", "van der Berg", ["pieter@example.com"])])
        let result = try CLI.run(["reach", "email", "van der Waals", "--new", "--given", "Johannes", "--surname", "van der Waals",
                                  "--value", "jd@waals.example",
                                  "--yes", "--no-input"] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 0 && result.stdout == "jd@waals.example\n", "\(result.stdout) \(result.stderr)")
        let waals = try await connection.search(base: base, filter: .equal("mail", "jd@waals.example")).collect()
        #expect(waals.first?.strings("sn") == ["van der Waals"])
        let asked = try CLI.run(["reach", "email", "zed", "--new", "--given", "Zed", "--surname", "Zulu", "--value", "zed@example.com",
                                 "--no-input"] + CLI.connectionArguments(server, base: base))
        #expect(asked.status == 3 && asked.stderr.contains("This adds a new entry for Zed Zulu. Print email zed@example.com of Zed Zulu?"),
                "\(asked.stderr)")
        #expect(try await connection.search(base: base, filter: .equal("mail", "zed@example.com")).collect().isEmpty, "not yet written")
    }

    @Test("someone found by their address with two of them: names and the address are asked before anything is written")
    func noHalfMadeWrites() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [
            ("Karl", "Nielsen", ["wolfgang.k@example.com", "karl@example.com"]), ("Wolfgang", "Pauli", []),
        ])
        let arguments = CLI.connectionArguments(server, base: base)
        let before = try await snapshot(connection, base)
        // The list: Wolfgang Pauli (no email), then Karl Nielsen, whose address starts with wolfgang.
        let stopped = try CLI.run(["reach", "email", "wolfgang", "--pick", "2", "--given", "Wolfgang", "--surname", "Nielsen",
                                   "--no-input"] + arguments)
        #expect(stopped.status == 3, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("Which email"), "\(stopped.stderr)")
        #expect(try await snapshot(connection, base) == before, "nothing written before the last answer")

        // Every list answered in one call, by number and by value; then one write.
        let done = try CLI.run(["reach", "email", "wolfgang", "--pick", "2", "--pick", "karl@example.com", "--given", "Wolfgang",
                                "--surname", "Nielsen", "--yes", "--no-input"] + arguments)
        #expect(done.status == 0 && done.stdout == "karl@example.com\n", "\(done.stdout) \(done.stderr)")
        let karl = try await connection.search(base: base, filter: .equal("mail", "karl@example.com")).collect()
        #expect(Set(karl.first?.strings("givenName") ?? []) == ["Karl", "Wolfgang"])
    }

    @Test("--pick chooses by DN as well as by number")
    func pickByDN() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", ["byron@example.com"])])
        let byron = base.child("cn", LDAPValue("Ada Byron")).string
        let result = try CLI.run(["reach", "email", "ada", "--pick", byron, "--yes", "--no-input"] + CLI.connectionArguments(server, base: base))
        #expect(result.stdout == "byron@example.com\n", "\(result.stderr)")
        let wrong = try CLI.run(["reach", "email", "ada", "--pick", "nobody@example.com", "--yes", "--no-input"]
            + CLI.connectionArguments(server, base: base))
        #expect(wrong.status == 64 && wrong.stderr.contains("no entry of the list has that number, DN or value"))
    }

    @Test("--exec: {} inside any argument, the command's own exit status, a clear error when it cannot start")
    func exec() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base) + ["--yes", "--no-input"]
        let output = server.directory.appendingPathComponent("exec-\(UUID().uuidString.prefix(6))")
        let compose = try CLI.run(["reach", "email", "ada"] + arguments
            + ["--exec", "/bin/sh", "-c", "printf '%s' \"$1\" > \"$2\"", "sh", "to={}", output.path])
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "to=ada@example.com")

        let failing = try CLI.run(["reach", "email", "ada"] + arguments + ["--exec", "/bin/sh", "-c", "exit 7"])
        #expect(failing.status == 7, "\(failing.stderr)")
        let missing = try CLI.run(["reach", "email", "ada"] + arguments + ["--exec", "no-such-mailer-here", "{}"])
        #expect(missing.status == 69 && missing.stderr.contains("cannot find no-such-mailer-here"), "\(missing.stderr)")
    }

    @Test("--action open opens only a plain address, a phone number or an http(s) URL", arguments: [
        ("email", "ada@example.com", "mailto:ada@example.com"),
        ("email", "ada@example.com?attach=/home/ada/.ssh/id_rsa&body=hi", nil),
        ("email", "--help", nil),
        ("phone", "+44 20 7946 0000", "tel:+442079460000"),
        ("url", "https://example.com/ada", "https://example.com/ada"),
        ("url", "file:///etc/passwd", nil),
        ("url", "-v", nil),
    ] as [(String, String, String?)])
    func open(_ field: String, _ value: String, _ opened: String?) async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", [])])
        let attribute = ["email": "mail", "phone": "telephoneNumber", "url": "labeledURI"][field]!
        try await connection.modify(base.child("cn", LDAPValue("Ada Lovelace")), [.add(attribute, LDAPValue(value))])
        let (path, log) = try fakeOpener(server)
        let result = try CLI.run(["reach", field, "ada", "--action", "open", "--yes", "--no-input"] + CLI.connectionArguments(server, base: base),
                                 environment: ["PATH": path])
        if let opened {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try String(contentsOf: log, encoding: .utf8) == opened + "\n")
        } else {
            #expect(result.status == 65, "\(value): \(result.status) \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: log.path), "nothing opened for \(value)")
        }
    }

    @Test("the confirmation names the action")
    func confirmationNamesTheAction() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base) + ["--no-input"]
        #expect(try CLI.run(["reach", "email", "ada"] + arguments).stderr.contains("Print email ada@example.com of Ada Lovelace?"))
        #expect(try CLI.run(["reach", "email", "ada", "--action", "open"] + arguments).stderr.contains("Write to Ada Lovelace <ada@example.com>?"))
        #expect(try CLI.run(["reach", "email", "ada"] + arguments + ["--exec", "/usr/bin/thunderbird", "-compose", "to={}"])
            .stderr.contains("Write to Ada Lovelace <ada@example.com> with thunderbird?"))
    }

    @Test("a misspelt field is caught; custom: names a new custom field on purpose; a custom field in use is no misspelling")
    func misspeltField() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base) + ["--yes", "--no-input"]
        let typo = try CLI.run(["reach", "phnoe", "ada"] + arguments)
        #expect(typo.status == 65 && typo.stderr.contains("did you mean phone?"), "\(typo.stderr)")
        let meant = try CLI.run(["reach", "custom:phnoe", "ada", "--value", "x"] + arguments)
        #expect(meant.status == 0 && meant.stdout == "x\n", "\(meant.stderr)")
        let used = try CLI.run(["reach", "phnoe", "ada"] + arguments)
        #expect(used.status == 0 && used.stdout == "x\n", "now in use: \(used.stderr)")
    }
}

@Suite("reach remembers whom you meant")
struct ReachHistoryCommandTests {
    @Test("the person chosen comes first among equals next time, --explain says why; --no-history and forget")
    func remembers() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", ["byron@example.com"])])
        let state = server.directory.appendingPathComponent("state-\(UUID().uuidString.prefix(6))")
        let environment = ["XDG_STATE_HOME": state.path]
        let arguments = CLI.connectionArguments(server, base: base) + ["--yes", "--no-input"]
        let lovelace = base.child("cn", LDAPValue("Ada Lovelace")).string
        // Lovelace ranks second by last name, until chosen.
        let first = try CLI.run(["reach", "email", "ada", "--pick", "2"] + arguments, environment: environment)
        #expect(first.stdout == "ada@example.com\n", "\(first.stderr)")
        let file = state.appendingPathComponent("ldapbook/history")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == "email\tada\t\(lovelace)\t1\n")

        let again = try CLI.run(["reach", "email", "ADA", "--pick", "1"] + arguments, environment: environment)
        #expect(again.stdout == "ada@example.com\n", "remembered by the folded name: \(again.stderr)")
        let explained = try CLI.run(["find", "ada", "--field", "email", "--explain"] + CLI.connectionArguments(server, base: base),
                                    environment: environment)
        #expect(explained.stdout.split(separator: "\n").dropFirst().first?.contains("chosen before for this name") == true,
                "\(explained.stdout)")
        let ignored = try CLI.run(["reach", "email", "ada", "--pick", "1", "--no-history"] + arguments, environment: environment)
        #expect(ignored.stdout == "byron@example.com\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "email\tada\t\(lovelace)\t2\n", "--no-history writes nothing")

        let forgot = try CLI.run(["history", "forget", "Ada"], environment: environment)
        #expect(forgot.stdout == "forgot 1 choice\n", "\(forgot.stderr)")
        let after = try CLI.run(["reach", "email", "ada", "--pick", "1", "--no-history"] + arguments, environment: environment)
        #expect(after.stdout == "byron@example.com\n")
    }
}

@Suite("No base configured: the server's one naming context")
struct BaseDiscoveryTests {
    @Test("without -b, BASE or base =, the root DSE's one namingContexts is searched")
    func discoveredBase() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Basil", "Discovery", ["basil@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base)
        let withoutBase = Array(arguments.prefix(while: { $0 != "-b" }))
        #expect(withoutBase.count == arguments.count - 2)
        let found = try CLI.run(["reach", "email", "basil", "discovery", "--yes", "--no-input"] + withoutBase)
        #expect(found.status == 0 && found.stdout == "basil@example.com\n", "\(found.stderr)")
    }
}
