import Foundation
import Synchronization

/// A signal handler for tests: counts its calls and records the local-mode flags a terminal had
/// at the moment the signal arrived.
///
/// Installed before a prompt starts, it is the disposition the prompt's handlers find and hand the
/// signal on to, so a test sees what a program would see, and the test process is neither ended
/// nor stopped.
enum SignalRecorder {
    /// How many signals the handler has received.
    static let calls = Atomic<Int>(0)
    /// `c_lflag` of the watched terminal when the last signal arrived.
    static let localFlags = Atomic<UInt32>(0)
    /// The terminal whose settings are recorded.
    fileprivate static let watched = Atomic<Int32>(-1)

    /// Installs the recorder for `signal`, watching `descriptor`; returns the action it replaced.
    static func install(for signal: Int32, watching descriptor: Int32) -> sigaction {
        calls.store(0, ordering: .relaxed)
        localFlags.store(0, ordering: .relaxed)
        watched.store(descriptor, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = recordSignal
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        sigaction(signal, &action, &previous)
        return previous
    }

    /// Puts `action` back for `signal`.
    static func restore(_ action: sigaction, for signal: Int32) {
        var action = action
        sigaction(signal, &action, nil)
    }

    /// Waits until the recorder has been called `count` times; fails after two seconds.
    static func waitForCalls(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while calls.load(ordering: .acquiring) < count {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

private func recordSignal(_ signal: Int32) {
    var settings = termios()
    _ = tcgetattr(SignalRecorder.watched.load(ordering: .relaxed), &settings)
    SignalRecorder.localFlags.store(settings.c_lflag, ordering: .relaxed)
    SignalRecorder.calls.add(1, ordering: .releasing)
}
