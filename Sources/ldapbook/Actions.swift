import Foundation
import LDAPBook
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

/// What `reach` does with the chosen value: the spec's "selector".
enum ReachAction {
    /// Write the value to standard output (the default), so
    /// `mutt "$(ldapbook reach email ada)"` works.
    case print
    /// Open it with the desktop's handler: `mailto:`, `tel:` or the URL, through `xdg-open`.
    case open
    /// Run a command with `{}` replaced by the value as one argument (no shell);
    /// without `{}`, the value is the last argument.
    case exec([String])

    /// Runs the action.
    ///
    /// - Throws: ``CommandFailure`` when the command cannot run or fails.
    func run(person: Person, value: LDAPValue, field: Field) throws {
        switch self {
        case .print:
            var bytes = value.bytes
            if !field.kind.isBinary { bytes.append(UInt8(ascii: "\n")) }
            StandardStream.output.write(bytes)
        case .open:
            try Self.spawn(["xdg-open", Self.openable(value, field: field)])
        case .exec(let template):
            guard let text = value.string else {
                throw CommandFailure(.invalidValue, "\(field.name) of \(person.displayName) is binary; --exec passes text")
            }
            var arguments = template.map { $0 == "{}" ? text : $0 }
            if !template.contains("{}") { arguments.append(text) }
            try Self.spawn(arguments)
        }
    }

    /// The URI `xdg-open` gets for a value of a field.
    static func openable(_ value: LDAPValue, field: Field) throws -> String {
        guard let text = value.string else {
            throw CommandFailure(.invalidValue, "\(field.name) is binary and cannot be opened")
        }
        switch field.kind {
        case .email: return "mailto:" + text
        case .phone: return "tel:" + text.filter { $0.isNumber || $0 == "+" }
        case .url: return String(text.split(separator: " ", maxSplits: 1).first ?? "")
        default: return text
        }
    }

    /// Runs a program found on `PATH`, with the terminal, and waits for it.
    static func spawn(_ arguments: [String]) throws {
        guard let name = arguments.first, let path = findExecutable(name) else {
            throw CommandFailure(.unavailable, "cannot find \(arguments.first ?? "the command") on PATH")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(arguments.dropFirst())
        do {
            try process.run()
        } catch {
            throw CommandFailure(.unavailable, "cannot run \(path): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw CommandFailure(.internalError, "\(name) failed with status \(process.terminationStatus)")
        }
    }

    /// The path of `name`: itself when it contains a slash, else the first match on `PATH`.
    static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
