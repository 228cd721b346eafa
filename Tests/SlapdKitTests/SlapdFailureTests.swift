import Foundation
import Glibc
import Testing
@testable import SlapdKit

@Suite("Failures are reported, never hang")
struct SlapdFailureTests {
    @Test("A port already in use makes start fail with slapd's own explanation")
    func portInUse() async throws {
        let listener = try LoopbackListener()
        var configuration = SlapdConfiguration()
        configuration.port = listener.port
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }

        let error = await #expect(throws: SlapdError.self) { try await slapd.start() }
        #expect(error?.kind == .exitedDuringStartup)
        #expect(error?.description.contains("Address already in use") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("exit status") == true)
        #expect(!slapd.isRunning)
    }

    @Test("A configuration slapadd rejects makes start fail with slapadd's output")
    func invalidExtraConfiguration() async throws {
        var configuration = SlapdConfiguration()
        configuration.extraConfigurationLDIF = """
        dn: olcDatabase={2}nosuchbackend,cn=config
        objectClass: olcDatabaseConfig
        olcDatabase: {2}nosuchbackend
        """
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }

        let error = await #expect(throws: SlapdError.self) { try await slapd.start() }
        #expect(error?.kind == .slapaddFailed)
        #expect(error?.description.contains("nosuchbackend") == true, "\(error?.description ?? "")")
        #expect(!FileManager.default.fileExists(atPath: slapd.directory.appendingPathComponent("slapd.d").path))
    }

    @Test("A server that never answers is killed after the start timeout, started once more, and killed again")
    func startTimeout() async throws {
        let scratch = try Slapd()
        defer { scratch.cleanup() }
        let silentServer = scratch.directory.appendingPathComponent("silent-slapd")
        let launches = scratch.directory.appendingPathComponent("launches")
        try "#!/bin/sh\necho launched >> '\(launches.path)'\necho pretending to start >&2\nexec sleep 60\n"
            .write(to: silentServer, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: silentServer.path)

        var configuration = SlapdConfiguration()
        configuration.slapdExecutable = silentServer
        configuration.startTimeout = .milliseconds(700)
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }

        let error = await #expect(throws: SlapdError.self) { try await slapd.start() }
        // Timed out and killed, not waited for: a start that waited until the silent
        // server exited by itself (after a minute) would report exitedDuringStartup.
        #expect(error?.kind == .startTimedOut)
        #expect(error?.description.contains("pretending to start") == true, "\(error?.description ?? "")")
        // Why the probes saw nothing is said too (here: no socket to connect to).
        #expect(error?.description.contains("(last probe: ldapwhoami ") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("its threads: ") == true, "\(error?.description ?? "")")
        #expect(try String(contentsOf: launches, encoding: .utf8) == "launched\nlaunched\n", "one more start after the first silence")
        #expect(!slapd.isRunning)
    }

    @Test("Starting twice is refused")
    func startTwice() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()
        let error = await #expect(throws: SlapdError.self) { try await slapd.start() }
        #expect(error?.kind == .alreadyRunning)
        #expect(slapd.isRunning)
        await slapd.stop()
    }

    @Test("Missing programs are reported with the packages to install")
    func notInstalled() {
        var configuration = SlapdConfiguration()
        configuration.slapdExecutable = URL(fileURLWithPath: "/nonexistent/sbin/slapd")
        let error = #expect(throws: SlapdError.self) { try Slapd.locateSlapd(using: configuration) }
        #expect(error?.kind == .notInstalled)
        #expect(error?.description.contains("/nonexistent/sbin/slapd") == true)
        #expect(error?.description.contains("apt-get install slapd ldap-utils") == true)
        #expect(Slapd.isInstalled)
    }

    @Test("A working directory whose socket path is too long is refused")
    func socketPathTooLong() {
        var configuration = SlapdConfiguration()
        let directory = URL(fileURLWithPath: "/tmp/" + String(repeating: "x", count: 110), isDirectory: true)
        configuration.workingDirectory = directory
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SlapdError.self) { try Slapd(configuration: configuration) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.message.contains("108") == true || error?.message.contains("107") == true)
    }
}

/// A TCP socket listening on a free loopback port, closed on deinitialization.
private final class LoopbackListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0
                    && listen(descriptor, 1) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        if !listening {
            close(descriptor)
        }
        try #require(listening)
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
