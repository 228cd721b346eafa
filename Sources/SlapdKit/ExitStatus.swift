/// How a child process ended.
enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The process called `exit` with this status.
    case exited(Int32)
    /// The process was ended by this signal.
    case signaled(Int32)

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
