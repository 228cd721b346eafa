import Foundation
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
        for keyword in ["URI", "BASE", "BINDDN", "TLS_CACERT", "TLS_CACERTDIR", "TLS_REQCERT", "TLS_CERT", "TLS_KEY",
                        "NETWORK_TIMEOUT", "TIMEOUT", "SASL_MECH", "LDAPNOINIT", "LDAPCONF", "LDAPRC"] {
            #expect(readme.contains("`\(keyword)`"), "README names \(keyword)")
            #expect(manual.contains(keyword), "the manual page names \(keyword)")
        }
    }

    @Test("bash completes commands and a command's options")
    func bashCompletion() throws {
        let script = Self.root.appendingPathComponent("completions/ldapbook.bash").path
        let process = Process()
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
}
