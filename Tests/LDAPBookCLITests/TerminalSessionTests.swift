import Foundation
import LDAPKit
import SlapdKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs ldapbook with a pseudo-terminal as its controlling terminal (through
/// util-linux `script`), types at it when it is ready, and reads what it drew.
private final class TerminalSession {
    private let process = SpawnedProcess()
    private let input = Pipe()
    private let output = Pipe()
    private var screen = Data()

    init(command: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["LDAPNOINIT"] = "1"
        environment["TERM"] = "xterm"
        environment["COLUMNS"] = "100"
        environment["LINES"] = "30"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    /// Waits (at most 15 s) until the terminal shows `text`.
    func waitFor(_ text: String) throws {
        let deadline = Date().addingTimeInterval(15)
        let descriptor = output.fileHandleForReading.fileDescriptor
        while !String(decoding: screen, as: UTF8.self).contains(text) {
            guard Date() < deadline else {
                throw LDAPError(.timeout, message: "the terminal never showed \(text); it showed: \(String(decoding: screen, as: UTF8.self))")
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 200) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor, &buffer, buffer.count)
                if count <= 0 { continue }
                screen.append(contentsOf: buffer[..<count])
            }
        }
    }

    /// Types `keys`.
    func type(_ keys: String) {
        input.fileHandleForWriting.write(Data(keys.utf8))
    }

    /// Waits for the end and returns everything shown.
    func finish() -> String {
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        screen.append(rest)
        process.waitUntilExit()
        return String(decoding: screen, as: UTF8.self)
    }

    var status: Int32 { process.terminationStatus }
}

@Suite("The terminal interface, through a pseudo-terminal")
struct TerminalSessionTests {
    private func command(_ server: Slapd, base: DistinguishedName, _ arguments: String, output: URL) -> String {
        let connection = CLI.connectionArguments(server, base: base).map { "'\($0)'" }.joined(separator: " ")
        // The chosen value goes to a file; afterwards stty shows the terminal's state.
        return "'\(CLI.executable.path)' \(arguments) \(connection) > '\(output.path)'; echo \"exit=$?\"; stty -a"
    }

    @Test("pick with the arrow keys, confirm, fill in a form; the terminal is restored each time")
    func pickConfirmAndForm() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [
            ("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", ["byron@example.com"]), ("Alan", "Turing", []),
        ])
        let output = server.directory.appendingPathComponent("tty-\(UUID().uuidString.prefix(6))")

        // A list: down once, Enter.
        let picker = try TerminalSession(command: command(server, base: base, "reach email ada", output: output))
        try picker.waitFor("Ada Lovelace")
        picker.type("\u{1B}[B")
        picker.type("\r")
        let pickerScreen = picker.finish()
        #expect(pickerScreen.contains("exit=0"), "\(pickerScreen)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "ada@example.com\n")
        #expect(pickerScreen.contains(" icanon") && pickerScreen.contains(" echo"), "the terminal was restored: \(pickerScreen)")

        // A single match: y confirms.
        let confirm = try TerminalSession(command: command(server, base: base, "reach email lovelace", output: output))
        try confirm.waitFor("[y/N]")
        confirm.type("y")
        let confirmScreen = confirm.finish()
        #expect(confirmScreen.contains("exit=0"), "\(confirmScreen)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "ada@example.com\n")
        #expect(confirmScreen.contains(" icanon") && confirmScreen.contains(" echo"))

        // A person without email, listed before those whose name does not
        // match: Enter chooses him, the form asks for the email, then the confirmation.
        let form = try TerminalSession(command: command(server, base: base, "reach email turing", output: output))
        try form.waitFor("Alan Turing")
        form.type("\r")
        try form.waitFor("Fill in")
        form.type("alan@example.com\r")
        try form.waitFor("[y/N]")
        form.type("y")
        let formScreen = form.finish()
        #expect(formScreen.contains("exit=0"), "\(formScreen)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "alan@example.com\n")
        #expect(formScreen.contains(" icanon") && formScreen.contains(" echo"))

        // Escape cancels the list: nothing printed, exit 1, terminal restored.
        let cancel = try TerminalSession(command: command(server, base: base, "reach email ada", output: output))
        try cancel.waitFor("Ada Lovelace")
        cancel.type("\u{1B}")
        let cancelScreen = cancel.finish()
        #expect(cancelScreen.contains("exit=1"), "\(cancelScreen)")
        #expect(try String(contentsOf: output, encoding: .utf8) == "")
        #expect(cancelScreen.contains(" icanon") && cancelScreen.contains(" echo"))
    }
}
