#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a question got no answer.
public enum PromptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The person cancelled (Esc or Ctrl-C), or the input ended, before answering.
    case cancelled
    /// A call on the terminal or the input failed: the C function and its `errno`.
    case terminalFailure(call: String, errno: Int32)

    /// A sentence describing the error.
    public var description: String {
        switch self {
        case .cancelled:
            "The question was cancelled."
        case let .terminalFailure(call, code):
            "\(call) failed on the terminal: \(String(cString: strerror(code)))"
        }
    }
}
