import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("The ldapbook command line, non-interactively, against a real directory")
struct CLITests {
    @Test("reach prints the one value on stdout after --yes")
    func reachPrints() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let result = try CLI.run(["reach", "email", "ada", "lovelace", "--yes", "--no-input"] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ada@example.com\n")
    }

    @Test("connection options work before the command too")
    func globalOptionsFirst() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let result = try CLI.run(CLI.connectionArguments(server, base: base) + ["reach", "email", "ada", "--yes", "--no-input"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ada@example.com\n")
    }

    @Test("a confirmation without --yes under --no-input exits 3 and says what it would ask")
    func confirmationNeeded() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let result = try CLI.run(["reach", "email", "ada", "--no-input"] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--yes"))
    }

    @Test("a list under --no-input exits 3 with the numbered choices; --pick N chooses")
    func pickFromTheList() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [
            ("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", ["byron@example.com", "aab@example.com"]),
        ])
        let arguments = CLI.connectionArguments(server, base: base)
        let listed = try CLI.run(["reach", "email", "ada", "--no-input"] + arguments)
        #expect(listed.status == 3)
        #expect(listed.stderr.contains("1) Ada Byron — byron@example.com"), "\(listed.stderr)")
        #expect(listed.stderr.contains("2) Ada Byron — aab@example.com"))
        #expect(listed.stderr.contains("3) Ada Lovelace — ada@example.com"))
        let picked = try CLI.run(["reach", "email", "ada", "--pick", "3", "--no-input"] + arguments)
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(picked.stdout == "ada@example.com\n")
        let outOfRange = try CLI.run(["reach", "email", "ada", "--pick", "9", "--no-input"] + arguments)
        #expect(outOfRange.status == 64)
    }

    @Test("--value fills in a missing value (written back); the second call needs only --yes")
    func fillInAndSecondCall() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Alan", "Turing", [])])
        let arguments = CLI.connectionArguments(server, base: base)
        let missing = try CLI.run(["reach", "email", "turing", "--no-input"] + arguments)
        #expect(missing.status == 3)
        let invalid = try CLI.run(["reach", "email", "turing", "--value", "not an address", "--yes", "--no-input"] + arguments)
        #expect(invalid.status == 65)
        #expect(invalid.stderr.contains("email"))
        let filled = try CLI.run(["reach", "email", "turing", "--value", "alan@example.com", "--yes", "--no-input"] + arguments)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(filled.stdout == "alan@example.com\n")
        let stored = try await connection.search(base: base, filter: .equal("sn", "Turing")).collect()
        #expect(stored.first?.strings("mail") == ["alan@example.com"])
        let again = try CLI.run(["reach", "email", "turing", "--yes", "--no-input"] + arguments)
        #expect(again.stdout == "alan@example.com\n")
    }

    @Test("several people without the field: --pick chooses whom to fill in")
    func pickAPersonToFillIn() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", []), ("Ada", "Byron", [])])
        let arguments = CLI.connectionArguments(server, base: base)
        let listed = try CLI.run(["reach", "email", "ada", "--no-input"] + arguments)
        #expect(listed.status == 3)
        #expect(listed.stderr.contains("2) Ada Lovelace — no email  (name-only)"), "\(listed.stderr)")
        let filled = try CLI.run(["reach", "email", "ada", "--pick", "2", "--value", "ada@example.com", "--yes", "--no-input"] + arguments)
        #expect(filled.status == 0, "\(filled.stderr)")
        #expect(filled.stdout == "ada@example.com\n")
        let stored = try await connection.search(base: base, filter: .equal("mail", "ada@example.com")).collect()
        #expect(stored.map { $0.strings("sn") } == [["Lovelace"]])
    }

    @Test("someone else has the field: without input, their names are never guessed from the query")
    func fieldOnlyNeedsNamesGiven() async throws {
        let server = try await CLI.shared()
        // Grace's address starts with alan: she is the one candidate, found by her value alone.
        let (connection, base) = try await CLI.container(server, people: [("Grace", "Hopper", ["alan.t@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base)
        let guessed = try CLI.run(["reach", "email", "alan", "turing", "--yes", "--no-input"] + arguments)
        #expect(guessed.status == 3, "\(guessed.stdout) \(guessed.stderr)")
        #expect(guessed.stdout.isEmpty)
        #expect(guessed.stderr.contains("--given") && guessed.stderr.contains("--surname"), "\(guessed.stderr)")
        let grace = try await connection.search(base: base, filter: .equal("mail", "alan.t@example.com")).collect()
        #expect(grace.map { $0.strings("givenName") + $0.strings("sn") } == [["Grace", "Hopper"]], "nothing written")

        // Names given outright are the user's answer, added beside hers, and one given alone
        // is not completed by a guess from the query.
        let named = try CLI.run(["reach", "email", "alan", "turing", "--given", "Amazing", "--yes", "--no-input"] + arguments)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == "alan.t@example.com\n")
        let renamed = try await connection.search(base: base, filter: .equal("mail", "alan.t@example.com")).collect()
        #expect(Set(renamed.first?.strings("givenName") ?? []) == ["Grace", "Amazing"])
        #expect(renamed.first?.strings("sn") == ["Hopper"])
    }

    @Test("nobody: --value, --given and --surname create the entry")
    func create() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let arguments = CLI.connectionArguments(server, base: base)
        let created = try CLI.run(["reach", "phone", "grace", "hopper", "--value", "+1 555 0100", "--yes", "--no-input"] + arguments)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "+1 555 0100\n")
        let people = try await connection.search(base: base, filter: .equal("objectClass", "inetOrgPerson")).collect()
        #expect(people.count == 1)
        #expect(people.first?.strings("cn") == ["Grace Hopper"], "names are capitalised as people write them")
        #expect(people.first?.strings("telephoneNumber") == ["+1 555 0100"])

        let named = try CLI.run(["reach", "email", "zed", "--new", "--given", "Zed", "--surname", "Zulu", "--value", "zed@example.com", "--yes", "--no-input"] + arguments)
        #expect(named.status == 0, "\(named.stderr)")
        let zed = try await connection.search(base: base, filter: .equal("mail", "zed@example.com")).collect()
        #expect(zed.first?.strings("cn") == ["Zed Zulu"])
    }

    @Test("--exec passes the value as one argument, without a shell")
    func exec() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", [])])
        let output = server.directory.appendingPathComponent("exec-\(UUID().uuidString.prefix(6))")
        let value = "size 38; $(touch /tmp/ldapbook-pwned) `id` {}"
        let result = try CLI.run(["reach", "shoe-size", "ada", "--value", value, "--yes", "--no-input"]
            + CLI.connectionArguments(server, base: base)
            + ["--exec", "/bin/sh", "-c", "printf '%s' \"$1\" > \"$2\"", "sh", "{}", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: output, encoding: .utf8) == value)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/ldapbook-pwned"))
    }

    @Test("find lists the ranked result as JSON")
    func findJSON() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [
            ("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", []), ("Zed", "Zulu", ["zed@example.com"]),
        ])
        let result = try CLI.run(["find", "ada", "--field", "email", "--format", "json", "--limit", "2"] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((document["field"] as? [String: String]) == ["name": "email", "attribute": "mail"])
        #expect(document["query"] as? String == "ada")
        #expect(document["more"] as? Bool == true)
        let matches = try #require(document["matches"] as? [[String: Any]])
        let how = matches.map { $0["match"] as? [String: Any] ?? [:] }
        #expect(how.map { $0["tier"] as? String } == ["field-and-name", "name-only"])
        #expect(how.first?["values"] as? [String] == ["ada@example.com"])
        #expect(how.first?["name"] as? String == "given")
        // Each match is a person in the shape show and export write.
        #expect((matches.last?["fields"] as? [String: Any])?["surname"] as? [String] == ["Byron"])
        #expect(matches.last?["name"] as? String == "Ada Byron")
        #expect(matches.last?["dn"] as? String != nil)

        let names = try CLI.run(["find", "ada", "--format", "json"] + CLI.connectionArguments(server, base: base))
        let nameDocument = try #require(try JSONSerialization.jsonObject(with: Data(names.stdout.utf8)) as? [String: Any])
        #expect(nameDocument["field"] is NSNull)
        #expect((nameDocument["matches"] as? [[String: Any]])?.count == 2)

        // Name matches beyond the limit are "more matches", not field-only ones: there is no field.
        let table = try CLI.run(["find", "ada", "--limit", "1"] + CLI.connectionArguments(server, base: base))
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasSuffix("(more matches; raise --limit)\n"), "\(table.stdout)")
    }

    @Test("find, show and export write a person in one JSON shape, with field names")
    func oneJSONShape() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Jason", "Shape", ["jason@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base)
        func object(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        let shown = try object(try CLI.run(["show", "jason", "--format", "json"] + arguments).stdout)
        let exported = try #require(try JSONSerialization.jsonObject(
            with: Data(try CLI.run(["export", "--format", "json"] + arguments).stdout.utf8)) as? [[String: Any]]).first
        let findDocument = try object(try CLI.run(["find", "jason", "--field", "email", "--format", "json"] + arguments).stdout)
        let found = try #require((findDocument["matches"] as? [[String: Any]])?.first)
        for person in [shown, try #require(exported), found] {
            #expect(person["dn"] as? String == base.child("cn", "Jason Shape").string)
            #expect(person["name"] as? String == "Jason Shape")
            let fields = try #require(person["fields"] as? [String: Any])
            #expect(fields["given-name"] as? [String] == ["Jason"])
            #expect(fields["surname"] as? [String] == ["Shape"])
            #expect(fields["email"] as? [String] == ["jason@example.com"])
            #expect(fields["givenName"] == nil && fields["sn"] == nil, "field names, never LDAP names")
        }
        #expect(shown["uid"] as? String == exported?["uid"] as? String)
        #expect(NSDictionary(dictionary: shown).isEqual(to: try #require(exported)), "show and export agree")
    }

    @Test("find's table explains the ranking and never lets directory data drive the terminal")
    func findTable() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada\u{1B}[2J", "Lovelace", ["ada@example.com"])])
        let result = try CLI.run(["find", "ada", "-f", "email", "--explain"] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.contains("tier field-and-name; ada: first name Ada^[[2J (exact)"), "\(result.stdout)")
    }

    @Test("standard output that cannot be written (a full disk) is an error, exit 74, not a quiet success")
    func unwritableOutput() throws {
        for arguments in [["--help"], ["schema", "print"]] {
            let result = try CLI.run(arguments, standardOutputPath: "/dev/full")
            #expect(result.status == 74, "\(arguments)")
            #expect(result.stderr.contains("cannot write to standard output: No space left on device"),
                    "\(arguments): \(result.stderr)")
        }
        // A message that cannot be written changes nothing: a usage error is still one.
        #expect(try CLI.run(["frobnicate"], standardErrorPath: "/dev/full").status == 64)
    }

    @Test("find and export into a pipe whose reader has gone end by SIGPIPE, as cat does; into a full disk, exit 74")
    func closedPipeAndFullDisk() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: (0..<40).map { ("Piper\($0)", "Pipewell", ["piper\($0)@example.com"]) })
        let connection = CLI.connectionArguments(server, base: base)
        // find and export write on the connection's thread, which blocks SIGPIPE for its own
        // socket: the closed pipe still ends them as it ends any command.
        for arguments in [["export", "--format", "ldif"], ["export", "--format", "csv"], ["find", "piper", "--limit", "100"]] {
            let process = SpawnedProcess()
            process.executableURL = CLI.executable
            process.arguments = arguments + connection
            process.environment = ProcessInfo.processInfo.environment.merging(["LDAPNOINIT": "1"]) { $1 }
            let output = Pipe(), errors = Pipe()
            try output.fileHandleForReading.close()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
                    "\(arguments): \(process.terminationReason) \(process.terminationStatus)")
            #expect(message.isEmpty, "\(arguments): \(message)")

            let full = try CLI.run(arguments + connection, standardOutputPath: "/dev/full")
            #expect(full.status == 74, "\(arguments): \(full.stderr)")
            #expect(full.stderr.contains("cannot write to standard output: No space left on device"), "\(arguments): \(full.stderr)")
        }
    }

    @Test("exit codes: help 0, usage 64, nothing found 1, unavailable 69, no permission 77")
    func exitCodes() async throws {
        let help = try CLI.run(["reach", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("FIELD"))
        #expect(help.stderr.isEmpty)
        #expect(try CLI.run(["--help"]).status == 0)
        #expect(try CLI.run(["frobnicate"]).status == 64)
        #expect(try CLI.run(["reach", "email"]).status == 64)

        let password = try CLI.run(["reach", "email", "ada", "-w", "hunter2-secret"])
        #expect(password.status == 64)
        #expect(!password.stderr.contains("hunter2-secret"))

        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [])
        let nothing = try CLI.run(["find", "nobody"] + CLI.connectionArguments(server, base: base))
        #expect(nothing.status == 1)

        let dead = try Slapd.freeLoopbackPort()
        let down = try CLI.run(["find", "ada", "-H", "ldap://127.0.0.1:\(dead)", "-b", CLI.suffix])
        #expect(down.status == 69)
        #expect(down.stderr.contains("127.0.0.1:\(dead)"))

        // Anonymous users may read but not write this directory.
        let denied = try CLI.run(["reach", "email", "nobody", "--value", "n@example.com", "--yes", "--no-input",
                                  "-H", server.ldapURI, "-b", base.string])
        #expect(denied.status == 77, "\(denied.stderr)")
    }

    @Test("libldap loads no Cyrus SASL plugin for ldapbook, with a simple bind or with EXTERNAL")
    func noSASLPlugins() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        // The dynamic loader names every library it opens (LD_DEBUG=files), plugins included.
        let trace = ["LD_DEBUG": "files"]
        let simple = try CLI.run(["find", "ada"] + CLI.connectionArguments(server, base: base), environment: trace)
        let external = try CLI.run(["find", "ada", "-H", server.ldapiURI, "-Y", "EXTERNAL", "-b", base.string], environment: trace)
        for result in [simple, external] {
            #expect(result.status == 0, "\(result.stderr.suffix(500))")
            #expect(result.stdout.contains("Ada Lovelace"))
            #expect(!result.stderr.contains("/sasl2/"), "a SASL plugin was loaded")
        }

        // Where plugins are installed, the same trace of ldapsearch shows them: the check above can see them.
        let pluginDirectories = ["/usr/lib/x86_64-linux-gnu/sasl2", "/usr/lib/aarch64-linux-gnu/sasl2", "/usr/lib/sasl2", "/usr/lib64/sasl2"]
        let plugins = pluginDirectories.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] }
        if plugins.contains(where: { $0.hasSuffix(".so") }) {
            let ldapsearch = SpawnedProcess()
            ldapsearch.executableURL = URL(fileURLWithPath: "/usr/bin/ldapsearch")
            ldapsearch.arguments = ["-x", "-H", server.ldapURI, "-b", base.string, "-s", "base", "-LLL", "1.1"]
            ldapsearch.environment = ["LD_DEBUG": "files", "LDAPNOINIT": "1"]
            let err = Pipe()
            ldapsearch.standardError = err
            ldapsearch.standardOutput = FileHandle.nullDevice
            try ldapsearch.run()
            let trace = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            ldapsearch.waitUntilExit()
            #expect(trace.contains("/sasl2/"))
        }
    }
}
