import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread every child process is started from: one that lives as long as this process.
///
/// Linux sends a child its parent-death signal when the *thread* that created it ends; pool
/// threads come and go, so a server meant to die with this process must be created by a
/// thread that never ends. (The signal mask a child would inherit from its thread is reset
/// by ``SpawnedProcess`` itself.)
final class LauncherThread: Sendable {
    /// Work waiting for the thread, and the means to wake it.
    private final class Queue: Sendable {
        let jobs = Mutex<[@Sendable () -> Void]>([])
        let jobAdded = DispatchSemaphore(value: 0)
    }

    /// The result of one job, handed from the launcher thread to the waiting caller.
    private final class Outcome<Value: Sendable>: Sendable {
        let result = Mutex<Result<Value, SlapdError>?>(nil)
        let isReady = DispatchSemaphore(value: 0)
    }

    /// The launcher thread of this process.
    static let shared = LauncherThread()

    private let queue = Queue()

    private init() {
        let queue = self.queue
        let thread = Thread {
            while true {
                queue.jobAdded.wait()
                let jobs = queue.jobs.withLock { jobs in
                    defer { jobs.removeAll() }
                    return jobs
                }
                for job in jobs {
                    job()
                }
            }
        }
        thread.name = "slapd launcher"
        thread.start()
    }

    /// Runs `body` on the launcher thread and returns its result, blocking the caller
    /// meanwhile; meant for short work such as spawning a process.
    func perform<Value: Sendable>(_ body: @escaping @Sendable () throws(SlapdError) -> Value) throws(SlapdError) -> Value {
        let outcome = Outcome<Value>()
        queue.jobs.withLock { jobs in
            jobs.append {
                let result = Result { () throws(SlapdError) in try body() }
                outcome.result.withLock { $0 = result }
                outcome.isReady.signal()
            }
        }
        queue.jobAdded.signal()
        outcome.isReady.wait()
        guard let result = outcome.result.withLock({ $0 }) else {
            preconditionFailure("The launcher thread signalled a job without a result.")
        }
        return try result.get()
    }
}
