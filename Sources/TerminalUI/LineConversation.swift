import Foundation

/// Questions and answers as lines: text written to one descriptor, answers read from another,
/// one byte at a time so that nothing after an answer's newline is consumed.
struct LineConversation {
    /// Where answers are read from.
    let input: Int32
    /// Where questions are written.
    let output: Int32
    /// The interaction this conversation runs in, for cancellation.
    let interaction: Interaction

    /// Writes `text` as it is; callers sanitise what comes from elsewhere.
    func say(_ text: String) throws(PromptError) {
        try FileDescriptorIO.writeAll(text, to: output)
    }

    /// Writes `question` and reads one line, without its line ending and surrounding spaces;
    /// `nil` when the input has ended before a line began.
    ///
    /// - Throws: `CancellationError` when the task is cancelled, `PromptError.terminalFailure`
    ///   when reading or writing fails.
    func ask(_ question: String) throws -> String? {
        try say(question)
        var bytes: [UInt8] = []
        reading: while true {
            if try FileDescriptorIO.waitForInput(on: input, timeout: nil) == .woken {
                try interaction.checkCancellation()
                continue
            }
            guard let byte = try FileDescriptorIO.readAvailable(from: input, maximumCount: 1).first else {
                if bytes.isEmpty {
                    try say("\n")
                    return nil
                }
                break reading
            }
            if byte == UInt8(ascii: "\n") { break reading }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
