import Foundation
import Glibc
import Testing
@testable import SlapdKit

@Suite("Working directories")
struct SlapdDirectoryTests {
    @Test("Cleanup stops slapd and removes the temporary directory")
    func cleanupRemovesTemporaryDirectory() async throws {
        let slapd = try Slapd()
        let directory = slapd.directory
        #expect(directory.path.hasPrefix("/tmp/slapd-"))
        try await slapd.start()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("slapd.d/cn=config.ldif").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("ldapi").path))

        slapd.cleanup()
        #expect(!slapd.isRunning)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        let error = await #expect(throws: SlapdError.self) { try await slapd.start() }
        #expect(error?.kind == .cleanedUp)
    }

    @Test("Dropping the manager kills slapd and removes the temporary directory")
    func deinitKills() async throws {
        var slapd: Slapd? = try Slapd()
        try await slapd?.start()
        let processIdentifier = try #require(slapd?.processIdentifier)
        let directory = try #require(slapd?.directory)
        slapd = nil

        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while kill(processIdentifier, 0) == 0, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(kill(processIdentifier, 0) != 0, "slapd \(processIdentifier) survived its manager")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test("A caller's directory is kept, and a later manager reuses its configuration and data")
    func callerDirectoryPersists() async throws {
        let directory = URL(fileURLWithPath: "/tmp/slapdkit-\(getpid())-\(UInt16.random(in: 0...UInt16.max))", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = SlapdConfiguration(suffix: "dc=kept,dc=test", rootPassword: "kept")
        configuration.workingDirectory = directory

        let first = try Slapd(configuration: configuration)
        try await first.start()
        let add = try await Tool.add(first, ldif: "dn: ou=kept,dc=kept,dc=test\nobjectClass: organizationalUnit\nou: kept\n")
        #expect(add.status == .exited(0), "\(add.errors)")
        await first.stop()
        first.cleanup()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("slapd.d").path))

        let second = try Slapd(configuration: configuration)
        defer { second.cleanup() }
        #expect(second.directory.standardizedFileURL.path == directory.standardizedFileURL.path)
        try await second.start()
        let found = await Tool.search(second, filter: "(ou=kept)", attributes: ["1.1"])
        #expect(Tool.entryCount(found.output) == 1)
        await second.stop()
    }
}
