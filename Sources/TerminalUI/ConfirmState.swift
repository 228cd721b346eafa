/// A yes-or-no question answered with a single key: y or n, Enter for the default.
struct ConfirmState {
    /// How a question ends.
    enum Outcome: Equatable, Sendable {
        /// Yes (`true`) or no (`false`).
        case answered(Bool)
        /// The person cancelled instead of answering.
        case cancelled
    }

    /// The question.
    let question: String
    /// The answer Enter gives.
    let defaultAnswer: Bool
    /// The answer once given, shown after the question.
    private(set) var answer: Bool?
    private var columns = 80

    /// An unanswered question.
    init(question: String, defaultAnswer: Bool) {
        self.question = question
        self.defaultAnswer = defaultAnswer
    }

    /// Applies one key; returns the outcome when the key answers or cancels.
    mutating func handle(_ key: Key) -> Outcome? {
        switch key {
        case .character("y"), .character("Y"):
            answer = true
        case .character("n"), .character("N"):
            answer = false
        case .enter:
            answer = defaultAnswer
        case .escape, .control("c"):
            return .cancelled
        default:
            return nil
        }
        return answer.map(Outcome.answered)
    }
}

extension ConfirmState: InteractivePrompt {
    var cancellation: Outcome { .cancelled }

    var keepsFinalFrame: Bool { true }

    mutating func fit(to size: TerminalSize) {
        columns = size.usableColumns
    }

    /// The question, wrapped to the width, then `[y/N]` (the default in capitals) and the answer.
    func frame() -> Frame {
        let choices = defaultAnswer ? " [Y/n] " : " [y/N] "
        let reply = answer.map { $0 ? "yes" : "no" } ?? ""
        var texts = TerminalText.wrapped(question, toWidth: columns)
        if DisplayWidth.of(texts[texts.count - 1] + choices + "yes") > columns {
            texts.append("")
        }
        var lines = texts.map { StyledLine($0, .bold) }
        lines[lines.count - 1].append(choices, .dim)
        lines[lines.count - 1].append(reply)
        let cursor = Frame.Position(line: lines.count - 1, column: lines[lines.count - 1].width)
        return Frame(lines: lines, cursor: answer == nil ? cursor : nil)
    }
}
