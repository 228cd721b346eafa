import Foundation
@testable import LDAPKit
import SlapdKit
import Synchronization
import Testing

/// `LDAPConnection.executor`: a task that prefers it runs on the connection's own thread, and
/// everything a connection does works the same from there.
@Suite("Tasks run on a connection's thread")
struct ConnectionExecutorTests {
    /// The thread a piece of code runs on.
    private static func thread() -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) }

    @Test("a task preferring the connection's executor runs on one thread, the connection's, between its reads")
    func jobsRunOnTheConnectionsThread() async throws {
        let server = try await TestDirectory.shared()
        let root = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(root, "executor")
        for index in 0..<300 {
            try await TestDirectory.addPerson(root, under: container, given: "Exe", surname: "Cutor\(index)")
        }
        let reader = try TestDirectory.anonymousConnection(server, pageSize: 50)
        let elsewhere = try await reader.search(base: container, scope: .oneLevel, attributes: ["sn"]).collect()
        let (threads, here) = try await withTaskExecutorPreference(reader.executor) {
            var threads: Set<UInt> = []
            var entries: [LDAPEntry] = []
            for try await entry in reader.search(base: container, scope: .oneLevel, attributes: ["sn"]) {
                threads.insert(Self.thread())
                entries.append(entry)
            }
            // Other operations, and a child task, from there.
            #expect(try await reader.read(container, attributes: ["ou"]) != nil)
            threads.insert(Self.thread())
            async let child = Self.thread()
            threads.insert(await child)
            return (threads, entries)
        }
        #expect(threads.count == 1)
        #expect(threads.first != Self.thread())
        #expect(here.count == 300)
        #expect(Set(here.compactMap { $0.string("sn") }) == Set(elsewhere.compactMap { $0.string("sn") }))
    }

    @Test("a search left early from the connection's thread is abandoned, and the connection goes on")
    func leavingEarly() async throws {
        let server = try await TestDirectory.shared()
        let root = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(root, "executor-early")
        for index in 0..<120 {
            try await TestDirectory.addPerson(root, under: container, given: "Early", surname: "Leaver\(index)")
        }
        let taken = try await withTaskExecutorPreference(root.executor) {
            var taken = 0
            for try await _ in root.search(base: container, scope: .oneLevel, pageSize: 20) {
                taken += 1
                if taken == 30 { break }
            }
            return taken
        }
        #expect(taken == 30)
        #expect(try await root.search(base: container, scope: .oneLevel, attributes: ["1.1"]).collect().count == 120)
    }

    @Test("closing the connection from its own thread ends it, and the task goes on elsewhere")
    func closingFromTheConnectionsThread() async throws {
        let server = try await TestDirectory.shared()
        let connection = try TestDirectory.anonymousConnection(server, pageSize: nil)
        try await connection.connect()
        let loopThread = Mutex<UInt?>(nil)
        let after = await withTaskExecutorPreference(connection.executor) {
            loopThread.withLock { $0 = Self.thread() }
            await connection.close()
            return Self.thread()
        }
        #expect(loopThread.withLock { $0 } != nil)
        #expect(after != loopThread.withLock { $0 })
        await #expect(throws: LDAPError.self) {
            try await withTaskExecutorPreference(connection.executor) {
                _ = try await connection.read(.root, attributes: ["namingContexts"])
            }
        }
    }
}
