import Foundation
import SlapdKit
import Testing

@Suite("The manual page and completion scripts match the commands")
struct DocumentationTests {
    /// The repository's root, from this file's path.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("doc/ldapbook.1 and completions/ are what the command generates", arguments: [
        (["manpage"], "doc/ldapbook.1"),
        (["completion", "bash"], "completions/ldapbook.bash"),
        (["completion", "zsh"], "completions/_ldapbook"),
    ])
    func inSync(_ arguments: [String], _ path: String) throws {
        let generated = try CLI.run(arguments)
        #expect(generated.status == 0)
        let committed = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(generated.stdout == committed,
                "regenerate with: .build/debug/ldapbook \(arguments.joined(separator: " ")) > \(path)")
        for command in ["reach", "find", "show", "add", "set", "photo", "import", "export", "query", "fields", "schema", "local"] {
            #expect(committed.contains(command), "\(path) mentions \(command)")
        }
    }

    @Test("README's table of connection settings is the one the manual page is made from, and names every setting")
    func connectionSettingsTable() throws {
        let generated = try CLI.run(["manpage", "--settings-table"])
        #expect(generated.status == 0)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(generated.stdout), "regenerate README's table with: .build/debug/ldapbook manpage --settings-table")
        let manual = try String(contentsOf: Self.root.appendingPathComponent("doc/ldapbook.1"), encoding: .utf8)
        for section in [".SH EXAMPLES", ".SH ENVIRONMENT", ".SH FILES", ".SH CONNECTION SETTINGS", ".SH EXIT STATUS"] {
            #expect(manual.contains(section), "the manual page has \(section)")
        }
        for key in ["uri", "base", "binddn", "password-file", "starttls", "sasl-mech", "ca-file", "people-base", "timeout"] {
            #expect(manual.contains("configuration: " + key.replacingOccurrences(of: "-", with: "\\-")), "the manual page names the key \(key)")
        }
        for keyword in ["URI", "BASE", "BINDDN", "TLS_CACERT", "TLS_CACERTDIR", "TLS_REQCERT", "TLS_CERT", "TLS_KEY",
                        "NETWORK_TIMEOUT", "TIMEOUT", "SASL_MECH", "LDAPNOINIT", "LDAPCONF", "LDAPRC"] {
            #expect(readme.contains("`\(keyword)`"), "README names \(keyword)")
            #expect(manual.contains(keyword), "the manual page names \(keyword)")
        }
    }

    @Test("bash completes commands and a command's options")
    func bashCompletion() throws {
        let script = Self.root.appendingPathComponent("completions/ldapbook.bash").path
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", """
            source '\(script)'
            COMP_WORDS=(ldapbook rea); COMP_CWORD=1; _ldapbook; echo "${COMPREPLY[*]}"
            COMP_WORDS=(ldapbook -H ldap://x reach --pi); COMP_CWORD=4; _ldapbook; echo "${COMPREPLY[*]}"
            """]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(lines == ["reach", "--pick"])
    }

    /// The standard output of `shell` run with `arguments` in `directory`, with libldap's
    /// own configuration switched off for the ldapbook it runs.
    private static func shellOutput(_ shell: String, _ arguments: [String], in directory: URL) throws -> String {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["LDAPNOINIT"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// What bash's completion of ldapbook offers for each command line: the words of
    /// COMPREPLY, sorted, one line per command line (the last word being completed).
    private func bashCompletions(_ commandLines: [[String]], in directory: URL) throws -> [[String]] {
        let script = Self.root.appendingPathComponent("completions/ldapbook.bash").path
        var program = "source '\(script)'\n"
        for words in commandLines {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            program += "COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=(); _ldapbook; "
                + "printf '%s\\n' \"${COMPREPLY[*]}\"\n"
        }
        let text = try Self.shellOutput("/bin/bash", ["-c", program], in: directory)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.split(separator: " ").map(String.init).sorted() }
    }

    @Test("bash completes option values, actions, files, and field names: the directory's, or the built-in ones without one")
    func bashCompletesValues() async throws {
        let server = try await CLI.shared()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-complete-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["people.vcf", "people.ldif"] { try Data().write(to: directory.appendingPathComponent(name)) }
        let binary = CLI.executable.path
        let dead = "ldap://127.0.0.1:\(try Slapd.freeLoopbackPort())"
        let offered = try bashCompletions([
            ["ldapbook", "find", "--format", ""],
            ["ldapbook", "local", ""],
            ["ldapbook", "history", "f"],
            ["ldapbook", "import", "people."],
            ["ldapbook", "--config", "people.v"],
            [binary, "-H", server.ldapURI, "-b", CLI.suffix, "reach", "room"],
            [binary, "-H", dead, "reach", "em"],
            [binary, "-H", dead, "set", "ada", "--clear", "mob"],
        ], in: directory)
        #expect(offered.count == 8)
        guard offered.count == 8 else { return }
        #expect(offered[0] == ["json", "table"])
        #expect(offered[1] == ["path", "sample", "start", "status", "stop"])
        #expect(offered[2] == ["forget"])
        #expect(offered[3] == ["people.ldif", "people.vcf"])
        #expect(offered[4] == ["people.vcf"])
        #expect(offered[5] == ["roomNumber"], "the directory's own attribute")
        #expect(offered[6] == ["email", "employee-number"], "no directory in time: the built-in names")
        #expect(offered[7] == ["mobile"])
    }

    /// A zsh script that types a command line into an interactive zsh on a pseudo-terminal,
    /// presses Tab, and prints the matches the completion system adds (its `compadd`
    /// records them), one per line.
    private static let zshCompleter = #"""
        zmodload zsh/zpty || exit 1
        zpty shell zsh -f -i
        zpty -w shell "PROMPT=''; RPROMPT=''; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
        zpty -w shell 'compadd() { local -a found; builtin compadd -O found "$@"; local m; for m in $found; do print -r -- "<""match>$m"; done; }'
        zpty -w shell 'comppostfuncs=(completion-done); completion-done() { print -r -- "<""done>"; }'
        zpty -w shell "bindkey '^I' complete-word"
        zpty -w -n shell "$2"$'\t'
        local line
        while zpty -r shell line; do
          line=${line//$'\r'/}
          line=${line%$'\n'}
          [[ $line == *'<done>'* ]] && break
          [[ $line == *'<match>'* ]] && print -r -- "${line#*<match>}"
        done
        zpty -d shell
        """#

    @Test("zsh completes the same: commands, option values, actions, files, and field names", .timeLimit(.minutes(2)))
    func zshCompletesValues() async throws {
        let server = try await CLI.shared()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-zsh-\(UUID().uuidString.prefix(8))")
        let functions = directory.appendingPathComponent("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("completions/_ldapbook"),
                                         to: functions.appendingPathComponent("_ldapbook"))
        let completer = directory.appendingPathComponent("complete.zsh")
        try Self.zshCompleter.write(to: completer, atomically: true, encoding: .utf8)
        for name in ["people.vcf", "people.ldif"] { try Data().write(to: directory.appendingPathComponent(name)) }
        let binary = CLI.executable.path
        let dead = "ldap://127.0.0.1:\(try Slapd.freeLoopbackPort())"
        func offered(_ line: String) throws -> Set<String> {
            Set(try Self.shellOutput("/usr/bin/zsh", ["-f", completer.path, functions.path, line], in: directory)
                .split(separator: "\n").map(String.init))
        }
        #expect(try offered("ldapbook rea") == ["reach"])
        #expect(try offered("ldapbook find --format ") == ["json", "table"])
        #expect(try offered("ldapbook local ") == ["path", "sample", "start", "status", "stop"])
        #expect(try offered("ldapbook import people.") == ["people.ldif", "people.vcf"])
        #expect(try offered("\(binary) -H \(server.ldapURI) -b \(CLI.suffix) reach room") == ["roomNumber"])
        #expect(try offered("\(binary) -H \(dead) reach em") == ["email", "employee-number"])
    }
}
