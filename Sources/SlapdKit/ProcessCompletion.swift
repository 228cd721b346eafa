import Synchronization

/// Tracks the end of a child process (its exit plus the draining of its output pipes)
/// and notifies whoever waits for it.
final class ProcessCompletion: Sendable {
    private struct State {
        var exitStatus: ExitStatus?
        var openPipes: Int
        var isDrainGraceOver = false
        var finishedStatus: ExitStatus?
        var waiters: [Int: @Sendable (ExitStatus?) -> Void] = [:]
        var nextWaiterID = 0

        /// The exit status once the process has exited and its output is complete.
        var readyStatus: ExitStatus? {
            guard let exitStatus, openPipes == 0 || isDrainGraceOver else { return nil }
            return exitStatus
        }
    }

    private let state: Mutex<State>

    /// Creates a tracker for a process whose output flows through `pipes` pipes.
    init(pipes: Int) {
        state = Mutex(State(openPipes: pipes))
    }

    /// How the process exited, as soon as it has (its output may still be arriving).
    var exitStatus: ExitStatus? {
        state.withLock { $0.exitStatus }
    }

    /// How the process ended, once it has exited and its output is complete.
    var finishedStatus: ExitStatus? {
        state.withLock { $0.finishedStatus }
    }

    /// Runs `body` only if the process has not exited, with no exit recorded meanwhile.
    func whileExitIsPending(_ body: () -> Void) {
        state.withLock { state in
            if state.exitStatus == nil {
                body()
            }
        }
    }

    /// Records that the process exited.
    func recordExit(_ status: ExitStatus) {
        update { $0.exitStatus = status }
    }

    /// Records that one output pipe reached end of file.
    func recordPipeDrained() {
        update { $0.openPipes -= 1 }
    }

    /// Records that the process exited long enough ago to stop waiting for its pipes.
    func recordDrainGraceOver() {
        update { $0.isDrainGraceOver = true }
    }

    /// Registers `waiter` to be called with the final status, or calls it at once if the
    /// process has already ended; returns the waiter's identifier if it was registered.
    @discardableResult
    func addWaiter(_ waiter: @escaping @Sendable (ExitStatus?) -> Void) -> Int? {
        let outcome: (id: Int?, status: ExitStatus?) = state.withLock { state in
            if let finished = state.finishedStatus {
                return (nil, finished)
            }
            let waiterID = state.nextWaiterID
            state.nextWaiterID += 1
            state.waiters[waiterID] = waiter
            return (waiterID, nil)
        }
        if let status = outcome.status {
            waiter(status)
        }
        return outcome.id
    }

    /// Calls the waiter registered as `waiterID` with `nil` if it is still waiting.
    func abandonWaiter(_ waiterID: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: waiterID) }
        waiter?(nil)
    }

    /// Applies `change` and, if that completes the process, calls every waiter (outside the lock).
    private func update(_ change: (inout State) -> Void) {
        let (status, waiters): (ExitStatus?, [@Sendable (ExitStatus?) -> Void]) = state.withLock { state in
            change(&state)
            guard state.finishedStatus == nil, let status = state.readyStatus else { return (nil, []) }
            state.finishedStatus = status
            defer { state.waiters.removeAll() }
            return (status, Array(state.waiters.values))
        }
        guard let status else { return }
        for waiter in waiters {
            waiter(status)
        }
    }
}
