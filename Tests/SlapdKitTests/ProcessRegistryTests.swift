import Foundation
import Glibc
import Testing
@testable import SlapdKit

@Suite("Exit registry")
struct ProcessRegistryTests {
    @Test("Killing everything ends registered processes and removes registered directories")
    func killAndRemoveAll() async throws {
        let registry = ProcessRegistry()
        let sleeper = ChildProcess(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"])
        try sleeper.launch()
        registry.register(sleeper.processIdentifier)
        let directory = URL(fileURLWithPath: "/tmp/slapdkit-registry-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("nested"), withIntermediateDirectories: true)
        registry.register(temporaryDirectory: directory)

        registry.killAndRemoveAll()
        #expect(await sleeper.waitForExit(timeout: .seconds(5)) == .signaled(SIGKILL))
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(!registry.contains(sleeper.processIdentifier))
    }

    @Test("A running slapd is registered until it stops")
    func slapdIsRegisteredWhileRunning() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()
        let processIdentifier = try #require(slapd.processIdentifier)
        #expect(ProcessRegistry.shared.contains(processIdentifier))
        await slapd.stop()
        #expect(!ProcessRegistry.shared.contains(processIdentifier))
    }
}
