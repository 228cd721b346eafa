#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs one prompt on a terminal: raw mode in, frames drawn, keys handed to the prompt, and the
/// terminal put back exactly as it was, however the prompt ends.
struct TerminalSession {
    /// The terminal, open for reading and writing.
    let descriptor: Int32
    /// Whether styles may use colour.
    let usesColor: Bool
    /// The interaction this session runs in, for cancellation.
    let interaction: Interaction

    /// Shows `prompt` until it ends.
    ///
    /// - Returns: The prompt's outcome; its `cancellation` when the input ends or a terminating
    ///   signal's handler lets the process live on.
    /// - Throws: `CancellationError` when the task is cancelled, `PromptError.terminalFailure`
    ///   when the terminal fails.
    func run<Prompt: InteractivePrompt>(_ prompt: Prompt) throws -> Prompt.Outcome {
        let signalMask = Self.unblockJobControlSignals()
        defer { Self.restore(signalMask) }
        let original = try TerminalSettings.read(from: descriptor)
        let raw = TerminalSettings.raw(from: original)
        let signals = SignalGuard(descriptor: descriptor, original: original, raw: raw)
        defer {
            try? TerminalSettings.apply(original, to: descriptor)
            try? FileDescriptorIO.writeAll(ControlSequence.showCursor, to: descriptor)
            signals.remove()
        }
        try TerminalSettings.apply(raw, to: descriptor)

        var prompt = prompt
        var renderer = InlineRenderer(usesColor: usesColor)
        var reader = KeyReader(descriptor: descriptor)
        do {
            let outcome = try loop(&prompt, renderer: &renderer, reader: &reader)
            if prompt.keepsFinalFrame {
                try draw(&prompt, with: &renderer)
                try FileDescriptorIO.writeAll(renderer.leaveBehind(), to: descriptor)
            } else {
                try FileDescriptorIO.writeAll(renderer.erase(), to: descriptor)
            }
            return outcome
        } catch {
            try? FileDescriptorIO.writeAll(renderer.erase(), to: descriptor)
            throw error
        }
    }

    /// Draws, reads and applies keys until the prompt has an outcome.
    private func loop<Prompt: InteractivePrompt>(_ prompt: inout Prompt, renderer: inout InlineRenderer,
                                                 reader: inout KeyReader) throws -> Prompt.Outcome {
        while true {
            try draw(&prompt, with: &renderer)
            switch try reader.next() {
            case let .key(key):
                if let outcome = prompt.handle(key) { return outcome }
            case .endOfInput:
                return prompt.cancellation
            case .woken:
                try interaction.checkCancellation()
                let events = SignalGuard.takeEvents()
                if events.contains(.interrupted) {
                    // The handler restored the terminal and left the frame above the cursor.
                    renderer.forgetFrame()
                    return prompt.cancellation
                }
                if events.contains(.resumed) { renderer.forgetFrame() }
            }
        }
    }

    /// Unblocks `SIGTTOU` and `SIGTTIN` on this thread and returns the mask from before.
    ///
    /// Dispatch threads block signals, and the terminal driver lets a thread that blocks them
    /// change or read its controlling terminal from the background. With them unblocked, a prompt
    /// started in a background job stops the job until it is brought to the foreground, as any
    /// program on the terminal does.
    private static func unblockJobControlSignals() -> sigset_t {
        var jobControl = sigset_t()
        sigemptyset(&jobControl)
        sigaddset(&jobControl, SIGTTOU)
        sigaddset(&jobControl, SIGTTIN)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &jobControl, &previous)
        return previous
    }

    /// Puts back the thread's signal mask.
    private static func restore(_ mask: sigset_t) {
        var mask = mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// Fits `prompt` to the terminal's current size and draws its frame.
    private func draw<Prompt: InteractivePrompt>(_ prompt: inout Prompt,
                                                 with renderer: inout InlineRenderer) throws(PromptError) {
        let size = TerminalCapabilities.windowSize(of: descriptor)
            ?? TerminalSize(columns: TerminalCapabilities.fallbackColumns, rows: TerminalCapabilities.fallbackRows)
        prompt.fit(to: size)
        try FileDescriptorIO.writeAll(renderer.draw(prompt.frame(), size: size), to: descriptor)
    }
}
