import Foundation

/// Asks on a terminal in raw mode, inline below the cursor: a picker with arrow keys and
/// type-to-filter, single-key confirmations, and forms with editable fields.
///
/// The terminal is always put back as it was: however a prompt ends, and when a signal ends or
/// suspends the process (on return from a suspension the prompt comes back). A prompt started in
/// a background job waits, stopped, until the job is in the foreground. One prompt runs at a time
/// in the process; others wait their turn.
///
/// Keys:
/// - Picker: ↑/↓ (or Ctrl-P/N, or k/j), PgUp/PgDn, Home/End, Enter chooses, q/Esc/Ctrl-C cancel.
///   Other printable characters filter by case-insensitive substring of title and detail (a filter
///   that starts with j, k or q is typed in upper case); Backspace edits the filter, Ctrl-U clears
///   it, and while it is not empty j, k and q are filter text.
/// - Confirm: y or n, Enter for the default, Esc/Ctrl-C cancel.
/// - Form: ←/→, Home/End, Backspace, Delete, Ctrl-A/E/U/K/W edit; Tab/Shift-Tab and ↑/↓ move
///   between fields; Enter moves on and on the last field submits; Esc/Ctrl-C cancel.
public final class TTYPrompter: Prompter {
    private let descriptor: Int32
    /// Keeps a terminal this prompter opened open for as long as the prompter lives.
    private let owner: DescriptorOwner?
    private let usesColor: Bool

    /// A prompter on the terminal open for reading and writing at `fileDescriptor`, which stays
    /// open while the prompter is in use; the prompter does not close it.
    ///
    /// Colour follows `TerminalCapabilities.detect(fileDescriptor:environment:)`.
    public init(fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) {
        descriptor = fileDescriptor
        owner = nil
        usesColor = TerminalCapabilities.detect(fileDescriptor: fileDescriptor, environment: environment).usesColor
    }

    /// A prompter on the terminal at `path` (by default the process's controlling terminal,
    /// `/dev/tty`), which it opens and closes when it goes away.
    ///
    /// - Throws: `PromptError.terminalFailure` when it cannot be opened or is not a terminal.
    public init(openingTerminalAt path: String = "/dev/tty",
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(PromptError) {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .terminalFailure(call: "open", errno: errno) }
        let owner = DescriptorOwner(descriptor)
        guard isatty(descriptor) == 1 else { throw .terminalFailure(call: "isatty", errno: ENOTTY) }
        self.descriptor = descriptor
        self.owner = owner
        usesColor = TerminalCapabilities.detect(fileDescriptor: descriptor, environment: environment).usesColor
    }

    /// A prompter on the terminal that `owner` holds open.
    init(terminal owner: DescriptorOwner, usesColor: Bool) {
        descriptor = owner.descriptor
        self.owner = owner
        self.usesColor = usesColor
    }

    /// Shows the picker below the cursor and erases it once the person has chosen.
    public func pick(title: String, items: [PickerItem], extraAction: String?, extraActionFirst: Bool,
                     moreAvailable: Bool, filter: PickerFilter?) async throws -> PickerChoice {
        guard !items.isEmpty || extraAction != nil || moreAvailable else { return .cancelled }
        return try await run(PickerState(title: title, items: items, extraAction: extraAction,
                                         extraActionFirst: extraActionFirst, moreAvailable: moreAvailable, filter: filter))
    }

    /// Shows `question [y/N]` and leaves it on screen with the answer.
    public func confirm(_ question: String, defaultAnswer: Bool) async throws -> Bool {
        switch try await run(ConfirmState(question: question, defaultAnswer: defaultAnswer)) {
        case let .answered(answer): return answer
        case .cancelled: throw PromptError.cancelled
        }
    }

    /// Shows the form below the cursor and erases it once submitted or cancelled.
    public func form(title: String, fields: [FormField]) async throws -> [String]? {
        guard !fields.isEmpty else { return [] }
        switch try await run(FormState(title: title, fields: fields)) {
        case let .submitted(values): return values
        case .cancelled: return nil
        }
    }

    /// Writes `text`, sanitised, on a line of its own.
    public func message(_ text: String) async {
        _ = try? await Interaction.run { [self] _ in
            try FileDescriptorIO.writeAll(TerminalText.sanitized(text) + "\n", to: descriptor)
        }
    }

    private func run<Prompt: InteractivePrompt & Sendable>(_ prompt: Prompt) async throws -> Prompt.Outcome {
        try await Interaction.run { [self] interaction in
            try TerminalSession(descriptor: descriptor, usesColor: usesColor, interaction: interaction).run(prompt)
        }
    }
}
