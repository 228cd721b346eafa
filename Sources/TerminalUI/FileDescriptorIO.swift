#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads and writes a terminal or pipe: waits in `poll(2)` on the input and the `WakePipe`,
/// retries after `EINTR`, and turns failures into `PromptError.terminalFailure`.
enum FileDescriptorIO {
    /// What ended a wait for input.
    enum Wait: Equatable {
        /// Input (or its end) can be read.
        case ready
        /// The timeout passed first.
        case timedOut
        /// The `WakePipe` was written: a signal arrived or the task was cancelled.
        case woken
    }

    /// Waits until `descriptor` can be read, the wake pipe is written, or `timeout`
    /// milliseconds pass (`nil`: no timeout).
    static func waitForInput(on descriptor: Int32, timeout: Int32?) throws(PromptError) -> Wait {
        var watched = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: WakePipe.descriptors.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let result = poll(&watched, nfds_t(watched.count), timeout ?? -1)
            if result < 0 {
                if errno == EINTR { continue }
                throw .terminalFailure(call: "poll", errno: errno)
            }
            if result == 0 { return .timedOut }
            if watched[1].revents != 0 {
                WakePipe.drain()
                return .woken
            }
            if watched[0].revents & Int16(POLLNVAL) != 0 {
                throw .terminalFailure(call: "poll", errno: EBADF)
            }
            return .ready
        }
    }

    /// Reads what is available, at most `maximumCount` bytes; empty at the end of the input
    /// (including a terminal that hung up, which reports `EIO`).
    static func readAvailable(from descriptor: Int32, maximumCount: Int = 256) throws(PromptError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: maximumCount)
        while true {
            let count = read(descriptor, &bytes, maximumCount)
            if count >= 0 { return Array(bytes[..<count]) }
            switch errno {
            case EINTR: continue
            case EAGAIN: try waitUntil(descriptor, accepts: POLLIN)
            case EIO: return []
            case let code: throw .terminalFailure(call: "read", errno: code)
            }
        }
    }

    /// Writes all of `text` as UTF-8.
    static func writeAll(_ text: String, to descriptor: Int32) throws(PromptError) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count >= 0 {
                written += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: try waitUntil(descriptor, accepts: POLLOUT)
            case let code: throw .terminalFailure(call: "write", errno: code)
            }
        }
    }

    /// Blocks until a non-blocking `descriptor` is ready for `events` (`POLLIN` or `POLLOUT`).
    private static func waitUntil(_ descriptor: Int32, accepts events: Int32) throws(PromptError) {
        var watched = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        while poll(&watched, 1, -1) < 0 {
            if errno != EINTR { throw .terminalFailure(call: "poll", errno: errno) }
        }
    }
}
