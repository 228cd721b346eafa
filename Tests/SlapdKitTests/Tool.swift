import Foundation
@testable import SlapdKit

/// Runs command-line programs (the OpenLDAP client tools, openssl) from tests.
enum Tool {
    /// What a program did.
    struct Result {
        /// How it ended, or `nil` if it was killed for running too long.
        var status: ExitStatus?
        /// Its standard output.
        var output: String
        /// Its standard error.
        var errors: String
    }

    /// The most output kept per stream: enough for every search the tests make.
    static let outputLimit = 16 * 1024 * 1024

    /// The environment of the client tools: no ldap.conf or ldaprc.
    static let clientEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        environment["LDAPNOINIT"] = "1"
        return environment
    }()

    /// Runs `program` with `arguments`, killing it if it takes longer than `timeout`.
    static func run(
        _ program: String,
        _ arguments: [String],
        environment: [String: String] = clientEnvironment,
        timeout: Duration = .seconds(20)
    ) async -> Result {
        let process = ChildProcess(
            executable: URL(fileURLWithPath: program),
            arguments: arguments,
            environment: environment,
            standardOutput: OutputBuffer(limit: outputLimit),
            standardError: OutputBuffer(limit: outputLimit)
        )
        do {
            try process.launch()
        } catch {
            return Result(status: .exited(127), output: "", errors: error.description)
        }
        var status = await process.waitForExit(timeout: timeout)
        if status == nil {
            process.send(SIGKILL)
            _ = await process.waitForExit()
            status = nil
        }
        return Result(status: status, output: process.standardOutput.text, errors: process.standardError.text)
    }

    /// Searches `base` as the root DN over TCP and returns the LDIF (without line wrapping).
    static func search(
        _ slapd: Slapd,
        base: String? = nil,
        scope: String = "sub",
        filter: String = "(objectClass=*)",
        attributes: [String] = [],
        timeout: Duration = .seconds(20)
    ) async -> Result {
        await run(
            "/usr/bin/ldapsearch",
            ["-x", "-LLL", "-o", "ldif_wrap=no", "-o", "nettimeout=1",
             "-H", slapd.ldapURI, "-D", slapd.rootDN, "-y", passwordFile(slapd),
             "-b", base ?? slapd.suffix, "-s", scope, filter] + attributes,
            timeout: timeout
        )
    }

    /// Adds the entries of `ldif` as the root DN over TCP.
    static func add(_ slapd: Slapd, ldif: String) async throws -> Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("add-\(UUID().uuidString).ldif")
        try ldif.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return await run(
            "/usr/bin/ldapadd",
            ["-x", "-H", slapd.ldapURI, "-D", slapd.rootDN, "-y", passwordFile(slapd), "-f", file.path]
        )
    }

    /// A file holding `password` (mode 0600, no trailing newline) for the
    /// tools' `-y` option, so no password is ever on a command line.
    static func passwordFile(_ slapd: Slapd, _ password: String? = nil) -> String {
        let file = slapd.directory.appendingPathComponent("password-\(UUID().uuidString.prefix(8))")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data((password ?? slapd.rootPassword).utf8),
                                       attributes: [.posixPermissions: 0o600])
        return file.path
    }

    /// Counts the `dn:` lines of LDIF search output.
    static func entryCount(_ output: String) -> Int {
        output.split(separator: "\n").filter { $0.hasPrefix("dn: ") || $0.hasPrefix("dn:: ") }.count
    }
}
