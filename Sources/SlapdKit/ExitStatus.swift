/// How a child process ended.
enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The process called `exit` with this status.
    case exited(Int32)
    /// The process was ended by this signal.
    case signaled(Int32)

    /// Decodes a status that `waitpid(2)` reported for a process that has ended.
    init(waitStatus: Int32) {
        let signal = waitStatus & 0x7F
        self = signal == 0 ? .exited((waitStatus >> 8) & 0xFF) : .signaled(signal)
    }

    /// Whether the process exited with status 0.
    var isSuccess: Bool { self == .exited(0) }

    /// A phrase such as `exit status 1` or `signal 9`.
    var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}
