import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The slapd processes and temporary directories of live managers, so that when this
/// process exits no private server outlives it and no temporary directory is left behind.
final class ProcessRegistry: Sendable {
    private struct Contents {
        var processes: Set<pid_t> = []
        var temporaryDirectories: Set<String> = []
    }

    /// The registry emptied by the exit handler.
    static let shared: ProcessRegistry = {
        atexit {
            ProcessRegistry.shared.killAndRemoveAll()
        }
        return ProcessRegistry()
    }()

    private let contents = Mutex(Contents())

    /// Records a running process to be killed at exit.
    func register(_ processIdentifier: pid_t) {
        contents.withLock { _ = $0.processes.insert(processIdentifier) }
    }

    /// Forgets a process that has ended or is being ended by its owner.
    func unregister(_ processIdentifier: pid_t) {
        contents.withLock { _ = $0.processes.remove(processIdentifier) }
    }

    /// Records a temporary directory to be removed at exit.
    func register(temporaryDirectory: URL) {
        contents.withLock { _ = $0.temporaryDirectories.insert(temporaryDirectory.path) }
    }

    /// Forgets a temporary directory that its owner removes or has removed.
    func unregister(temporaryDirectory: URL) {
        contents.withLock { _ = $0.temporaryDirectories.remove(temporaryDirectory.path) }
    }

    /// Whether `processIdentifier` is registered.
    func contains(_ processIdentifier: pid_t) -> Bool {
        contents.withLock { $0.processes.contains(processIdentifier) }
    }

    /// Sends SIGKILL to every registered process, then removes every registered directory.
    func killAndRemoveAll() {
        let contents = contents.withLock { contents in
            defer { contents = Contents() }
            return contents
        }
        for processIdentifier in contents.processes {
            kill(processIdentifier, SIGKILL)
        }
        for directory in contents.temporaryDirectories {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
