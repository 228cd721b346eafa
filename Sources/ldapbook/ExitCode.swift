import CommandLineKit
import LDAPBook
import LDAPKit
import TerminalUI

/// ldapbook's exit codes (sysexits.h where one fits).
enum ExitCode: Int32 {
    /// Done.
    case success = 0
    /// Nothing was done: cancelled, declined, or not found.
    case nothingDone = 1
    /// A step needed an answer and `--no-input` forbade asking.
    case inputNeeded = 3
    /// The command line is wrong (`EX_USAGE`).
    case usage = 64
    /// A value or name is invalid (`EX_DATAERR`).
    case invalidValue = 65
    /// An input file cannot be read: missing, a directory, or not readable (`EX_NOINPUT`).
    case noInput = 66
    /// The directory cannot be reached (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// Something that should not happen (`EX_SOFTWARE`).
    case internalError = 70
    /// An output file cannot be created or written (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// Standard output cannot be written, as on a full disk (`EX_IOERR`).
    case outputFailed = 74
    /// The directory refused: insufficient access or wrong credentials (`EX_NOPERM`).
    case noPermission = 77

    /// The exit code for an error, and the message to print.
    static func forError(_ error: any Error) -> (ExitCode, String) {
        switch error {
        case let error as UsageError:
            return (.usage, error.message)
        case let error as CommandFailure:
            return (error.exitCode, error.message)
        case let error as PromptError:
            return error == .cancelled ? (.nothingDone, "cancelled") : (.internalError, error.description)
        case let error as AddressBookError:
            switch error.code {
            case .notFound, .changedMeanwhile: return (.nothingDone, error.message)
            case .schemaMissing: return (.unavailable, error.message)
            default: return (.invalidValue, error.message)
            }
        case let error as LDAPError:
            if let file = error.unreadableFile {
                return (.noInput, "cannot read \(file): " + error.description)
            }
            if error.operation == "StartTLS" {
                return (.unavailable, "StartTLS failed: " + error.description)
            }
            if error.isServerDown || error.isTimeout || error.code == .busy {
                return (.unavailable, "directory unavailable: " + error.description)
            }
            if error.isInsufficientAccess {
                return (.noPermission, "insufficient access: the directory does not allow this (\(error.description))")
            }
            if error.isInvalidCredentials {
                return (.noPermission, "wrong bind DN or password: " + error.description)
            }
            if error.code == .inappropriateAuthentication || error.code == .strongerAuthRequired
                || error.code == .confidentialityRequired {
                return (.noPermission, "the directory requires another way to authenticate: " + error.description)
            }
            if error.isSchemaViolation || error.code == .attributeOrValueExists {
                return (.invalidValue, error.description)
            }
            if error.code == .noSuchObject {
                return (.nothingDone, error.description)
            }
            if error.code == .paramError || error.code == .filterError {
                return (.usage, error.description)
            }
            return (.internalError, error.description)
        default:
            return (.internalError, "\(error)")
        }
    }
}

/// A failure with its own exit code and message, raised by the command line itself.
struct CommandFailure: Error {
    let exitCode: ExitCode
    /// The message's first line.
    let message: String
    /// Lines printed after it, such as the choices a script may pick from; each is one line
    /// however its text reads (a line break in it shows as `^J`, like any control character).
    let details: [String]

    init(_ exitCode: ExitCode, _ message: String, details: [String] = []) {
        self.exitCode = exitCode
        self.message = message
        self.details = details
    }
}
