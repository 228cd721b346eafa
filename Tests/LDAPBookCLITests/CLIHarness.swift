import Foundation
import LDAPKit
import SlapdKit

/// Runs the built `ldapbook` binary against private slapd servers.
enum CLI {
    static let suffix = "dc=example,dc=com"

    /// The `ldapbook` executable built next to the test bundle.
    static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while !directory.path.hasSuffix(".xctest") && directory.path != "/" && !FileManager.default.fileExists(
            atPath: directory.appendingPathComponent("ldapbook").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("ldapbook")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let stdoutBytes: [UInt8]
    }

    /// Runs ldapbook with `arguments`, no terminal, stdin from /dev/null (or `input`).
    ///
    /// With a `launcher` (such as `setpriv --reuid=...`), that command runs `binary` (by default
    /// the built ldapbook) with the arguments. Standard output or error can go to a file, such as
    /// `/dev/full`, given by path; what goes there is not captured.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                    unsetting: [String] = [], launcher: [String] = [], binary: URL? = nil, directory: URL? = nil,
                    standardOutputPath: String? = nil, standardErrorPath: String? = nil) throws -> Result {
        let (process, out, err) = process(arguments, environment: environment, unsetting: unsetting,
                                          launcher: launcher, binary: binary)
        if let directory { process.currentDirectoryURL = directory }
        if let standardOutputPath {
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutputPath))
            try out.fileHandleForWriting.close()
        }
        if let standardErrorPath {
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: standardErrorPath))
            try err.fileHandleForWriting.close()
        }
        if let input {
            let pipe = Pipe()
            process.standardInput = pipe
            try process.run()
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: [UInt8](outData))
    }

    /// The state directory of every ldapbook the tests run (``ReachHistory``): one per test run.
    static let stateHome: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-state-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// ldapbook (or `launcher` running `binary`) with `arguments`, not started, its standard
    /// output and error going to the pipes returned.
    private static func process(_ arguments: [String], environment: [String: String], unsetting: [String] = [],
                                launcher: [String] = [], binary: URL? = nil) -> (SpawnedProcess, Pipe, Pipe) {
        let process = SpawnedProcess()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [(binary ?? executable).path] + arguments
        } else {
            process.executableURL = binary ?? executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["LDAPNOINIT"] = "1"
        // What reach remembers stays with the tests' process, never in the user's own state.
        env["XDG_STATE_HOME"] = stateHome.path
        // Each run builds the local index of people afresh from the server, so it sees what the
        // test wrote just before; a test of the index itself passes its own XDG_CACHE_HOME.
        env["XDG_CACHE_HOME"] = stateHome.appendingPathComponent("cache-\(UUID().uuidString.prefix(8))").path
        for (key, value) in environment { env[key] = value }
        for key in unsetting { env[key] = nil }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        return (process, out, err)
    }

    /// Starts ldapbook with `arguments` in the background, standard input from /dev/null;
    /// read the pipes to their end, then wait for the process.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (SpawnedProcess, Pipe, Pipe) {
        let (process, out, err) = process(arguments, environment: environment)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// The connection options for `server` as its root DN, password from a 0600 file.
    static func connectionArguments(_ server: Slapd, base: DistinguishedName) -> [String] {
        let file = server.directory.appendingPathComponent("cli-password")
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: Data(server.rootPassword.utf8),
                                               attributes: [.posixPermissions: 0o600])
        }
        return ["-H", server.ldapURI, "-D", server.rootDN, "-y", file.path, "-b", base.string]
    }

    /// The shared server.
    static func shared() async throws -> Slapd {
        try await SharedCLIServer.instance.server()
    }

    /// A fresh container with people in it, and a root connection.
    static func container(_ server: Slapd, people: [(String, String, [String])]) async throws
        -> (LDAPConnection, DistinguishedName)
    {
        let connection = try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: suffix),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            systemDefaults: .ignored))
        let base = try DistinguishedName(parsing: suffix).child("ou", LDAPValue("cli-\(UUID().uuidString.prefix(8))"))
        try await connection.add(LDAPEntry(dn: base, ["objectClass": ["organizationalUnit"], "ou": [base.rdn!.attributes[0].value.string!]]))
        for (given, surname, mails) in people {
            var entry = LDAPEntry(dn: base.child("cn", LDAPValue("\(given) \(surname)")), [
                "objectClass": ["inetOrgPerson"], "cn": ["\(given) \(surname)"], "givenName": [given], "sn": [surname],
            ])
            if !mails.isEmpty { entry["mail"] = mails.map { LDAPValue($0) } }
            try await connection.add(entry)
        }
        return (connection, base)
    }
}

private actor SharedCLIServer {
    static let instance = SharedCLIServer()
    private var started: Task<Slapd, any Error>?

    func server() async throws -> Slapd {
        if let started { return try await started.value }
        let task = Task {
            // With content synchronization, as server-config makes a server, so that the local
            // index of people is kept current by RFC 4533 (a test of polling starts its own).
            var configuration = SlapdConfiguration(suffix: CLI.suffix)
            configuration.syncProvider = .init()
            let server = try Slapd(configuration: configuration)
            try await server.start()
            return server
        }
        started = task
        return try await task.value
    }
}
