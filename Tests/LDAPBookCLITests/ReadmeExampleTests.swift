import Foundation
import LDAPKit
import SlapdKit
import Testing

/// README's examples of the command line, run as written, by bash, against a real directory
/// configured in ldapbook's configuration file. The programs they hand values to (mutt,
/// thunderbird, xdg-open) are stand-ins on `PATH` that write down what they were given;
/// questions are answered on standard input, as a person at a pipe would.
@Suite("README's command-line examples work as written")
struct ReadmeExampleTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of README's first `sh` block of ldapbook commands.
    private static func examples() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let block = try #require(blocks.first { $0.contains("ldapbook reach email ada lovelace") })
        return block.split(separator: "\n").map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    @Test("every line of the reach, find, set, export and import examples")
    func examplesRun() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [
            ("Ada", "Lovelace", ["ada@example.com"]), ("Grace", "Hopper", ["grace@example.com"]), ("Alan", "Turing", []),
            ("Joan", "Clarke", ["joan@example.com"]), ("John", "von Neumann", []),
        ])
        try await connection.modify(base.child("cn", LDAPValue("Alan Turing")), [.add("mobile", LDAPValue("+44 20 7946 0000"))])

        // A home with the configuration file, a password file, face.jpg, and the stand-ins.
        let home = server.directory.appendingPathComponent("readme-\(UUID().uuidString.prefix(6))")
        let bin = home.appendingPathComponent("bin"), log = home.appendingPathComponent("handed")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("config/ldapbook"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let password = home.appendingPathComponent("password")
        FileManager.default.createFile(atPath: password.path, contents: Data(server.rootPassword.utf8), attributes: [.posixPermissions: 0o600])
        try """
            uri = \(server.ldapURI)
            base = \(base.string)
            binddn = \(server.rootDN)
            password-file = \(password.path)

            """.write(to: home.appendingPathComponent("config/ldapbook/config"), atomically: true, encoding: .utf8)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0xFF, 0xD9])
            .write(to: home.appendingPathComponent("face.jpg"))
        for program in ["mutt", "thunderbird", "xdg-open"] {
            let script = bin.appendingPathComponent(program)
            try "#!/bin/sh\nprintf '%s' '\(program)' >> '\(log.path)'\nfor a in \"$@\"; do printf ' [%s]' \"$a\"; done >> '\(log.path)'\necho >> '\(log.path)'\n"
                .write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        }
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("ldapbook"), withDestinationURL: CLI.executable)

        for line in try Self.examples() {
            // Questions are answered yes; a command that asks nothing reads nothing.
            let result = try Self.bash(line, in: home, input: "y\n", environment: [
                "PATH": bin.path + ":/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LDAPNOINIT": "1", "LANG": "C.UTF-8",
            ])
            #expect(result.status == 0, "\(line): exit \(result.status): \(result.stderr)")
        }
        let handed = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(handed == ["mutt [ada@example.com]", "xdg-open [tel:+442079460000]", "thunderbird [-compose] [to=grace@example.com]"])
        let alan = try await connection.read(base.child("cn", LDAPValue("Alan Turing")))
        #expect(alan?.strings("mail") == ["alan@example.com"], "the scripted example filled in Alan's address")
        let ada = try await connection.read(base.child("cn", LDAPValue("Ada Lovelace")), attributes: ["*"])
        #expect(ada?.strings("ldapbookCustomField") == ["shoe-size=38"] && ada?["jpegPhoto"].count == 1)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("contacts.vcf").path))
    }

    /// Runs `line` with bash in `directory`, with no controlling terminal (setsid), `input` on
    /// standard input.
    private static func bash(_ line: String, in directory: URL, input: String, environment: [String: String]) throws -> CLI.Result {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait", "/bin/bash", "-c", line]
        process.currentDirectoryURL = directory
        process.environment = environment
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                          stderr: String(decoding: errors, as: UTF8.self), stdoutBytes: [UInt8](output))
    }
}

@Suite("README's console examples print what README shows")
struct ReadmeConsoleTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Each `$ ldapbook …` line of README's `console` blocks, with the lines README shows after it.
    private static func examples() throws -> [(command: [String], output: String)] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var examples: [(command: [String], output: String)] = []
        for block in readme.components(separatedBy: "```console\n").dropFirst().map({ $0.components(separatedBy: "```")[0] }) {
            for chunk in block.components(separatedBy: "$ ldapbook ").dropFirst() {
                let lines = chunk.split(separator: "\n", omittingEmptySubsequences: false)
                let command = lines[0].split(separator: " ").map(String.init)
                examples.append((command, lines.dropFirst().joined(separator: "\n")))
            }
        }
        return examples
    }

    @Test("on the demo's sample people (ldapbook local sample --count 300 --photos demo/photos)")
    func consoleExamples() async throws {
        let examples = try Self.examples()
        try #require(!examples.isEmpty)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("lb-readme-\(UUID().uuidString.prefix(6))")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LDAPNOINIT": "1"]
        defer { _ = try? CLI.run(["local", "stop"], environment: environment) }
        let sample = try CLI.run(["local", "sample", "--count", "300", "--photos", Self.root.appendingPathComponent("demo/photos").path],
                                 environment: environment)
        try #require(sample.status == 0, "\(sample.stderr)")
        for (command, output) in examples {
            let result = try CLI.run(command, environment: environment)
            #expect(result.stdout == output, "ldapbook \(command.joined(separator: " ")):\n\(result.stdout)\(result.stderr)")
        }
    }
}
