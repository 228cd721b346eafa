import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalDirectory {
    /// How often to try again for a lock that another process holds.
    private static let lockRetryInterval: Duration = .milliseconds(20)

    /// The longest to wait for a lock; a holder needs at most the start timeout.
    private var lockTimeout: Duration { configuration.startTimeout + .seconds(60) }

    /// Runs `body` while holding an exclusive `flock(2)` on ``lockFile``, waiting for other
    /// holders (processes, or other calls in this one) to finish first.
    ///
    /// The lock belongs to an open file description created for this call, so two calls in
    /// the same process exclude each other too, and the kernel releases it should this
    /// process die. The descriptor is close-on-exec: slapd never inherits it.
    func withExclusiveLock<Value>(_ body: () async throws -> Value) async throws -> Value {
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SlapdError(.fileSystem, "Cannot open the lock file \(lockFile.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now + lockTimeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR:
                continue
            case EWOULDBLOCK where clock.now < deadline:
                try await Task.sleep(for: Self.lockRetryInterval)
            case EWOULDBLOCK:
                throw SlapdError(.fileSystem, "Another process has held the lock \(lockFile.path) for longer than \(lockTimeout).")
            default:
                throw SlapdError(.fileSystem, "Cannot lock \(lockFile.path): \(String(cString: strerror(errno)))")
            }
        }
        return try await body()
    }
}
