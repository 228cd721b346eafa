/// A prompt a terminal session drives: it shows a frame, takes keys one by one and ends with an
/// outcome.
protocol InteractivePrompt {
    /// What the prompt ends with.
    associatedtype Outcome: Sendable

    /// The outcome when the prompt ends without an answer: the input ended, or a signal from
    /// outside interrupted it.
    var cancellation: Outcome { get }

    /// Whether the last frame stays on the screen once the prompt ends; otherwise it is erased.
    var keepsFinalFrame: Bool { get }

    /// Adapts the prompt to the terminal's size; called before each key and each frame.
    mutating func fit(to size: TerminalSize)

    /// Applies one key; returns the outcome when the key ends the prompt.
    mutating func handle(_ key: Key) -> Outcome?

    /// What to show now.
    func frame() -> Frame
}
