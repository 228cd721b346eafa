import Synchronization

/// Hands what a search receives, entries or the events of a content synchronization, from
/// the loop thread to the task iterating the search, and tells the loop when a paused paged
/// search should fetch more.
///
/// The consumer takes every element buffered at once (``nextBatch()``): one lock and, at
/// most, one wait per batch rather than per element, and no elements moved within the buffer.
final class SearchChannel<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var outcome: Result<Void, any Error>?
        var waiter: CheckedContinuation<[Element], any Error>?
        var pausedForDemand = false
        var isCancelled = false
    }

    private let state = Mutex(State())
    /// A paged search fetches its next page while fewer elements than this are buffered.
    private let lowWater: Int
    private let onDemand: @Sendable () -> Void
    private let onCancel: @Sendable () -> Void

    /// - Parameters:
    ///   - lowWater: how few buffered elements make a paused search continue.
    ///   - onDemand: called (on the consumer's thread) to resume a paused search.
    ///   - onCancel: called once when the consumer stops before the end, to abandon the search.
    init(lowWater: Int, onDemand: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        self.lowWater = max(lowWater, 1)
        self.onDemand = onDemand
        self.onCancel = onCancel
    }

    // Loop side.

    /// Hands on several elements at once: a waiting consumer gets them all, so it is woken once.
    func deliver(contentsOf elements: [Element]) {
        guard !elements.isEmpty else { return }
        let waiter: CheckedContinuation<[Element], any Error>? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(contentsOf: elements)
            return nil
        }
        waiter?.resume(returning: elements)
    }

    /// Ends the stream: successfully when `error` is nil.
    func finish(throwing error: (any Error)?) {
        let waiter: CheckedContinuation<[Element], any Error>? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = error.map { .failure($0) } ?? .success(())
            defer { state.waiter = nil }
            return state.waiter
        }
        if let waiter {
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: []) }
        }
    }

    /// Whether a finished page should be followed by the next one now; if
    /// not, the search pauses until the consumer drains the buffer.
    func wantsNextPageNow() -> Bool {
        state.withLock { state in
            if state.isCancelled { return false }
            if state.buffer.count < lowWater { return true }
            state.pausedForDemand = true
            return false
        }
    }

    /// Whether `highWater` or more elements wait for the consumer: then the loop reads no more
    /// until the consumer takes them, and ``onDemand`` wakes it when it does. (A content
    /// synchronization has no pages to pause between: without this, a fast server's million
    /// entries waited in memory, 1.3 GB of it, for a consumer filing them.)
    func isBackedUp(highWater: Int) -> Bool {
        state.withLock { state in
            guard !state.isCancelled, state.outcome == nil, state.buffer.count >= highWater else { return false }
            state.pausedForDemand = true
            return true
        }
    }

    var isFinished: Bool { state.withLock { $0.outcome != nil || $0.isCancelled } }

    /// Whether the consumer is waiting for elements.
    var hasWaitingConsumer: Bool { state.withLock { $0.waiter != nil } }

    // Consumer side.

    /// What the consumer can have without waiting.
    private enum Immediate { case elements([Element]), end, failure(any Error) }

    /// The elements buffered, or the next ones to arrive; empty at the end. Throws the
    /// search's error once, after the elements received before it.
    func nextBatch() async throws -> [Element] {
        func takeImmediately(_ state: inout State, resume: inout Bool) -> Immediate? {
            if !state.buffer.isEmpty {
                var elements: [Element] = []
                swap(&elements, &state.buffer)
                if state.pausedForDemand {
                    state.pausedForDemand = false
                    resume = true
                }
                return .elements(elements)
            }
            if state.isCancelled { return .failure(CancellationError()) }
            switch state.outcome {
            case .success?: return .end
            case .failure(let error)?:
                state.outcome = .success(())
                return .failure(error)
            case nil: return nil
            }
        }

        var resume = false
        let immediate = state.withLock { takeImmediately(&$0, resume: &resume) }
        if resume { onDemand() }
        switch immediate {
        case .elements(let elements)?: return elements
        case .end?: return []
        case .failure(let error)?: throw error
        case nil: break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Element], any Error>) in
                var resume = false
                let immediate = state.withLock { state -> Immediate? in
                    if let now = takeImmediately(&state, resume: &resume) { return now }
                    state.waiter = continuation
                    return nil
                }
                if resume { onDemand() }
                switch immediate {
                case .elements(let elements)?: continuation.resume(returning: elements)
                case .end?: continuation.resume(returning: [])
                case .failure(let error)?: continuation.resume(throwing: error)
                case nil: break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops delivery and abandons the search if it is still running; a
    /// waiting consumer gets `CancellationError`.
    func cancel() {
        let (waiter, abandon) = state.withLock { state -> (CheckedContinuation<[Element], any Error>?, Bool) in
            let wasRunning = state.outcome == nil && !state.isCancelled
            state.isCancelled = true
            state.buffer.removeAll()
            defer { state.waiter = nil }
            return (state.waiter, wasRunning)
        }
        if abandon { onCancel() }
        waiter?.resume(throwing: CancellationError())
    }
}
