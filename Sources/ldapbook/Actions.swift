import Foundation
import LDAPBook
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

/// What `reach` does with the chosen value: the spec's "selector".
enum ReachAction {
    /// Write the value to standard output (the default), so
    /// `mutt "$(ldapbook reach email ada)"` works. To a terminal, control characters are
    /// shown as visible escapes, as `find` shows them; to a pipe or a file the value is exact.
    case print
    /// Open it with the desktop's handler, through `xdg-open`: a plain address as `mailto:`, a
    /// phone number as `tel:`, an `http` or `https` URL as it is; nothing else.
    case open
    /// Run a command with `{}` replaced by the value in every argument (no shell); with no
    /// `{}` anywhere, the value is the last argument. The command's exit status is ldapbook's.
    case exec([String])

    /// The confirmation's question, naming what the action will do.
    func question(_ confirmation: ReachConfirmation) -> String {
        let name = confirmation.person.displayName
        let field = confirmation.field
        let value = field.kind.isBinary ? "<\(confirmation.value.count) bytes>" : confirmation.value.lossyString
        switch self {
        case .print:
            return "Print \(field.name) \(value) of \(name)?"
        case .open:
            switch field.kind {
            case .email: return "Write to \(name) <\(value)>?"
            case .phone: return "Call \(name) at \(value)?"
            default: return "Open \(value), \(field.name) of \(name)?"
            }
        case .exec(let command):
            let program = (command.first ?? "").split(separator: "/").last.map(String.init) ?? ""
            switch field.kind {
            case .email: return "Write to \(name) <\(value)> with \(program)?"
            case .phone: return "Call \(name) at \(value) with \(program)?"
            default: return "Run \(program) with \(field.name) \(value) of \(name)?"
            }
        }
    }

    /// Runs the action.
    ///
    /// - Throws: ``CommandFailure`` when the value cannot be acted on or the command cannot
    ///   start, ``CommandStatus`` when the command ends in failure.
    func run(person: Person, value: LDAPValue, field: Field) throws {
        switch self {
        case .print:
            if field.kind.isBinary {
                guard !DataOutput.isTerminal else {
                    throw CommandFailure(.usage, "standard output is a terminal: redirect it to write the \(value.count) bytes of \(field.name)")
                }
                StandardStream.output.write(value.bytes)
            } else {
                DataOutput.write(value.lossyString + "\n")
            }
        case .open:
            try Self.spawn(["xdg-open", Self.openable(value, field: field)])
        case .exec(let template):
            guard let text = value.string else {
                throw CommandFailure(.invalidValue, "\(field.name) of \(person.displayName) is binary; --exec passes text")
            }
            try Self.spawn(Self.arguments(template, value: text))
        }
    }

    /// The command line of `--exec`: `{}` replaced by `value` wherever it stands in an argument
    /// (`to={}` gives `to=ada@example.com`); with no `{}` anywhere, `value` comes last.
    static func arguments(_ template: [String], value: String) -> [String] {
        guard template.contains(where: { $0.contains("{}") }) else { return template + [value] }
        return template.map { $0.replacingOccurrences(of: "{}", with: value) }
    }

    /// The URI `xdg-open` gets for a value, built only from what is safe to open: a plain
    /// address (no `?`/`&` parameters that would have the mail client attach a file or write
    /// the body), a phone number, an `http` or `https` URL; never anything starting with `-`.
    static func openable(_ value: LDAPValue, field: Field) throws -> String {
        guard let text = value.string?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            throw CommandFailure(.invalidValue, "\(field.name) is binary or empty and cannot be opened")
        }
        func refuse(_ why: String) -> CommandFailure {
            CommandFailure(.invalidValue, "--action open: \(Diagnostics.quoting(text)) \(why); use --action print or --exec")
        }
        switch field.kind {
        case .email:
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            let unsafe = text.contains { "?&%#/\\:<>\"'".contains($0) || $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 } }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !unsafe, !text.hasPrefix("-") else {
                throw refuse("is not a plain email address")
            }
            return "mailto:" + text
        case .phone:
            let allowed = text.allSatisfy { $0.isASCII && ($0.isNumber || " +-().".contains($0)) }
            let digits = text.filter { $0.isASCII && $0.isNumber }
            guard allowed, !digits.isEmpty else { throw refuse("is not a phone number") }
            return "tel:" + (text.hasPrefix("+") ? "+" : "") + digits
        case .url:
            let address = String(text.split(separator: " ", maxSplits: 1).first ?? "")
            guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty else {
                throw refuse("is not an http or https address")
            }
            return address
        default:
            throw CommandFailure(.usage, "--action open opens email addresses, phone numbers and web addresses, "
                + "not \(field.name); use --action print or --exec")
        }
    }

    /// Runs a program found on `PATH`, with the terminal (``ForegroundProcess``), and waits for it.
    ///
    /// - Throws: ``CommandFailure`` when it cannot start, ``CommandStatus`` when it fails.
    static func spawn(_ arguments: [String]) throws {
        guard let name = arguments.first, !name.isEmpty, let path = findExecutable(name) else {
            throw CommandFailure(.unavailable, "cannot find \(Diagnostics.quoting(arguments.first ?? "the command")) on PATH")
        }
        switch try ForegroundProcess.run(path, [name] + arguments.dropFirst()) {
        case .exited(0):
            return
        case .exited(let status):
            throw CommandStatus(status: status, message: "\(name) ended with status \(status)")
        case .signaled(let signal):
            // As a shell reports a command a signal ended.
            throw CommandStatus(status: 128 + signal, message: "\(name) was ended by signal \(signal)")
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

/// A command ldapbook ran for the user ended in failure: its status becomes ldapbook's.
struct CommandStatus: Error {
    let status: Int32
    let message: String
}
