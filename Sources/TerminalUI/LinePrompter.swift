import Foundation

/// Asks without a terminal: numbered choices and questions written as lines (to standard error
/// by default), answers read as lines (from standard input by default).
///
/// For scripts and pipes, and for terminals that cannot move the cursor (`TERM=dumb`). Items are
/// numbered from 1 in the order given, as the picker numbers them. An invalid answer is asked
/// again, up to `attempts` answers in all, and then counts as cancelling; so does the end of the
/// input.
public final class LinePrompter: Prompter {
    private let input: Int32
    private let output: Int32
    private let attempts: Int
    /// Keeps a terminal opened for this prompter open for as long as the prompter lives.
    private let owner: DescriptorOwner?

    /// A prompter reading answers from `input` and writing questions to `output`, which stay open
    /// while the prompter is in use; it does not close them.
    ///
    /// - Parameter attempts: How many answers a question takes before an invalid one cancels it.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDERR_FILENO, attempts: Int = 3) {
        self.input = input
        self.output = output
        self.attempts = max(attempts, 1)
        owner = nil
    }

    /// A prompter reading and writing the terminal that `owner` holds open.
    init(terminal owner: DescriptorOwner, attempts: Int = 3) {
        input = owner.descriptor
        output = owner.descriptor
        self.attempts = attempts
        self.owner = owner
    }

    /// Lists the items as `1) title — detail`, the extra action as `a) …` (before or after
    /// them) and more as `m) show more`, and reads a number, `a`, `m`, or an empty line or `q` to
    /// cancel; `/text` (or any other text) lists the items the filter leaves, numbered as before,
    /// and asks again.
    public func pick(title: String, items: [PickerItem], extraAction: String?, extraActionFirst: Bool,
                     moreAvailable: Bool, filter: PickerFilter?) async throws -> PickerChoice {
        guard !items.isEmpty || extraAction != nil || moreAvailable else { return .cancelled }
        return try await converse { [attempts] conversation in
            func listing(_ shown: [Int]) -> String {
                var text = ""
                if extraActionFirst, let extraAction { text += "  a) " + TerminalText.sanitized(extraAction) + "\n" }
                for index in shown {
                    let item = items[index]
                    text += "  \(index + 1)) " + TerminalText.sanitized(item.title)
                    if let detail = item.detail, !detail.isEmpty {
                        text += " — " + TerminalText.sanitized(detail)
                    }
                    text += "\n"
                }
                if moreAvailable { text += "  m) show more\n" }
                if !extraActionFirst, let extraAction { text += "  a) " + TerminalText.sanitized(extraAction) + "\n" }
                return text
            }
            try conversation.say(TerminalText.sanitized(title) + "\n" + listing(Array(items.indices)))
            var choices = items.isEmpty ? [] : [items.count == 1 ? "1" : "1-\(items.count)"]
            if extraAction != nil { choices.append("a") }
            if moreAvailable { choices.append("m") }
            let filters = filter == nil ? "" : ", /text to filter"
            let question = "Choose \(choices.joined(separator: " or "))\(filters) (Enter or q to cancel): "
            for _ in 0..<attempts {
                let answer = try conversation.ask(question) ?? ""
                let lowered = answer.lowercased()
                if lowered.isEmpty || lowered == "q" { return .cancelled }
                if lowered == "a", extraAction != nil { return .extra }
                if lowered == "m", moreAvailable { return .more }
                if let number = Int(lowered), items.indices.contains(number - 1) { return .item(number - 1) }
                if let filter, Int(lowered) == nil {
                    // Text that is no choice filters the list, as typing does in the picker.
                    let typed = answer.hasPrefix("/") ? String(answer.dropFirst()) : answer
                    let shown = items.indices.filter { filter(typed, $0) }
                    try conversation.say(shown.isEmpty ? "No entry matches \(TerminalText.sanitized(typed)).\n" : listing(shown))
                    continue
                }
                try conversation.say("Not a choice: \(TerminalText.sanitized(answer)).\n")
            }
            return .cancelled
        }
    }

    /// Asks `question [y/N]: ` and reads y, yes, n or no (in any case); an empty line gives the
    /// default.
    public func confirm(_ question: String, defaultAnswer: Bool) async throws -> Bool {
        try await converse { [attempts] conversation in
            let question = TerminalText.sanitized(question) + (defaultAnswer ? " [Y/n]: " : " [y/N]: ")
            for _ in 0..<attempts {
                guard let answer = try conversation.ask(question)?.lowercased() else { throw PromptError.cancelled }
                switch answer {
                case "": return defaultAnswer
                case "y", "yes": return true
                case "n", "no": return false
                default: try conversation.say("Please answer y or n.\n")
                }
            }
            throw PromptError.cancelled
        }
    }

    /// Asks each field as `label [current]: `; an empty line keeps the current value. A value the
    /// field rejects is asked again with the field's message.
    public func form(title: String, fields: [FormField]) async throws -> [String]? {
        guard !fields.isEmpty else { return [] }
        return try await converse { [attempts] conversation in
            try conversation.say(TerminalText.sanitized(title) + "\n")
            var values: [String] = []
            for field in fields {
                guard let value = try Self.ask(field, in: conversation, attempts: attempts) else { return nil }
                values.append(value)
            }
            return values
        }
    }

    /// Writes `text`, sanitised, on a line of its own.
    public func message(_ text: String) async {
        _ = try? await converse { conversation in
            try conversation.say(TerminalText.sanitized(text) + "\n")
        }
    }

    /// One field's accepted value; `nil` when the input ends or the answers stay invalid.
    private static func ask(_ field: FormField, in conversation: LineConversation, attempts: Int) throws -> String? {
        var question = TerminalText.sanitized(field.label)
        if let help = field.help { question += " (" + TerminalText.sanitized(help) + ")" }
        question += " [" + TerminalText.sanitized(field.value) + "]: "
        for _ in 0..<attempts {
            guard let answer = try conversation.ask(question) else { return nil }
            let value = answer.isEmpty ? field.value : answer
            guard let violation = field.violation(of: value) else { return value }
            let label = TerminalText.sanitized(field.label)
            try conversation.say("  \(label): \(TerminalText.sanitized(violation))\n")
        }
        return nil
    }

    private func converse<Value: Sendable>(_ body: @escaping @Sendable (LineConversation) throws -> Value) async throws -> Value {
        try await Interaction.run { [self] interaction in
            try body(LineConversation(input: input, output: output, interaction: interaction))
        }
    }
}
