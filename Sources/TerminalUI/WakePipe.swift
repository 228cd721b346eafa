#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe that interrupts a prompt waiting for input: written by signal handlers and by task
/// cancellation, watched next to the input in every `poll(2)`.
///
/// It says only "look again"; what happened is recorded elsewhere (`SignalGuard`'s events, an
/// `Interaction`'s cancellation). Both ends are non-blocking, so a signal handler's write never
/// blocks, and created once per process.
enum WakePipe {
    /// The read and write ends; both -1 when the pipe could not be created, which `poll(2)`
    /// ignores, so waits then end only with input.
    static let descriptors: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }()

    /// Wakes whoever waits. Async-signal-safe once `descriptors` has been created.
    static func wake() {
        var byte: UInt8 = 1
        _ = write(descriptors.write, &byte, 1)
    }

    /// Empties the pipe, so that the next wait blocks again.
    static func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptors.read, &bytes, bytes.count) > 0 {}
    }
}
