import Dispatch
import Synchronization

/// One question being asked, run off Swift's cooperative thread pool and one at a time.
///
/// Waiting for a key blocks a thread, so questions run on a serial Dispatch queue rather than on
/// the pool; being serial, the queue also keeps two questions from drawing on the terminal at
/// once. Cancelling the waiting task marks the interaction and wakes its wait, which then throws
/// `CancellationError`.
final class Interaction: Sendable {
    /// The queue all questions of the process run on, in turn.
    private static let queue = DispatchQueue(label: "TerminalUI.interaction")

    private let cancelled = Atomic<Bool>(false)

    private init() {}

    /// Whether the task waiting for this interaction was cancelled.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Throws `CancellationError` when the waiting task was cancelled.
    func checkCancellation() throws(CancellationError) {
        if isCancelled { throw CancellationError() }
    }

    /// Runs `body` on the interaction queue, after the questions before it, and returns its result.
    static func run<Value: Sendable>(_ body: @escaping @Sendable (Interaction) throws -> Value) async throws -> Value {
        let interaction = Interaction()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result {
                        try interaction.checkCancellation()
                        return try body(interaction)
                    })
                }
            }
        } onCancel: {
            interaction.cancelled.store(true, ordering: .releasing)
            WakePipe.wake()
        }
    }
}
