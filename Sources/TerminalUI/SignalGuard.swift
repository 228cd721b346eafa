#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Keeps the terminal usable whatever signal arrives while it is in raw mode.
///
/// - `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT` from outside: restore the saved settings, show the
///   cursor below the frame, put back the disposition found at installation and send the signal
///   again, so the process ends as it would have. If that disposition is a handler that returns,
///   the prompt ends as cancelled.
/// - `SIGTSTP` (Ctrl-Z): restore the settings, show the cursor below the frame, suspend; on
///   return, raw mode again and a fresh frame. `SIGCONT` alone (after `SIGSTOP`) also re-enters
///   raw mode and draws a fresh frame.
/// - `SIGWINCH`: the frame is drawn again for the new size.
///
/// Terminating signals and `SIGTSTP` whose disposition is `SIG_IGN` are left alone. The handlers
/// call only async-signal-safe functions (`tcsetattr`, `write`, `sigaction`, `pthread_sigmask`,
/// `raise`) and read only memory written before they were installed.
struct SignalGuard {
    /// What the handlers saw, for the prompt to act on.
    struct Events: OptionSet, Sendable {
        let rawValue: Int

        /// The window changed size.
        static var resized: Events { Events(rawValue: 1 << 0) }
        /// The process continued after a stop; the screen shows other programs' output since.
        static var resumed: Events { Events(rawValue: 1 << 1) }
        /// A terminating signal arrived and its handler let the process live on.
        static var interrupted: Events { Events(rawValue: 1 << 2) }
    }

    /// The signals whose handlers are installed.
    private let installed: [Int32]

    /// Saves `original` and `raw` for the handlers of the terminal at `descriptor`, and installs
    /// them.
    init(descriptor: Int32, original: termios, raw: termios) {
        _ = WakePipe.descriptors
        _ = installedActions
        _ = showCursor.utf8CodeUnitCount
        savedSettings[0] = original
        savedSettings[1] = raw
        _ = pendingEvents.exchange(0, ordering: .relaxed)
        guardedDescriptor.store(descriptor, ordering: .releasing)
        var installed: [Int32] = []
        for (signal, handler) in Self.handlers {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0,
                  signal == SIGWINCH || signal == SIGCONT || !isIgnored(previous) else { continue }
            previousActions[Int(signal)] = previous
            installedActions[Int(signal)] = makeAction(handler)
            if sigaction(signal, installedActions + Int(signal), nil) == 0 { installed.append(signal) }
        }
        self.installed = installed
    }

    /// The events since the last call.
    static func takeEvents() -> Events {
        Events(rawValue: pendingEvents.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Puts back the dispositions found at installation; the handlers stop touching the terminal.
    func remove() {
        guardedDescriptor.store(-1, ordering: .releasing)
        for signal in installed {
            _ = sigaction(signal, previousActions + Int(signal), nil)
        }
    }

    private static let handlers: [(Int32, @convention(c) (Int32) -> Void)] = [
        (SIGINT, handleTermination), (SIGTERM, handleTermination), (SIGHUP, handleTermination),
        (SIGQUIT, handleTermination), (SIGTSTP, handleSuspension), (SIGCONT, handleContinuation),
        (SIGWINCH, handleResize),
    ]
}

// The memory the handlers read. Allocated once and never freed; the settings are written only
// while no handler runs, before `guardedDescriptor` names the terminal.

/// The terminal's settings before raw mode (`[0]`) and in raw mode (`[1]`).
private nonisolated(unsafe) let savedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 2)
/// The dispositions found at installation, by signal number.
private nonisolated(unsafe) let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
/// The actions installed, by signal number.
private nonisolated(unsafe) let installedActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
/// The terminal in raw mode, or -1 when none is.
private let guardedDescriptor = Atomic<Int32>(-1)
/// `SignalGuard.Events` raw values, accumulated until taken.
private let pendingEvents = Atomic<Int>(0)
/// DECTCEM "show cursor" and a new line, so that whatever the shell writes next starts below
/// the prompt; written without allocating.
private let showCursor: StaticString = "\u{1B}[?25h\r\n"

private func handleTermination(_ signal: Int32) {
    let savedErrno = errno
    restoreTerminal()
    sendAgain(signal)
    pendingEvents.bitwiseOr(SignalGuard.Events.interrupted.rawValue, ordering: .relaxed)
    WakePipe.wake()
    errno = savedErrno
}

private func handleSuspension(_ signal: Int32) {
    let savedErrno = errno
    restoreTerminal()
    sendAgain(signal)
    _ = sigaction(signal, installedActions + Int(signal), nil)
    resumeRawMode()
    errno = savedErrno
}

private func handleContinuation(_ signal: Int32) {
    let savedErrno = errno
    resumeRawMode()
    errno = savedErrno
}

private func handleResize(_ signal: Int32) {
    let savedErrno = errno
    pendingEvents.bitwiseOr(SignalGuard.Events.resized.rawValue, ordering: .relaxed)
    WakePipe.wake()
    errno = savedErrno
}

/// Puts back the settings from before raw mode, shows the cursor and starts a new line.
private func restoreTerminal() {
    let descriptor = guardedDescriptor.load(ordering: .acquiring)
    guard descriptor >= 0 else { return }
    _ = tcsetattr(descriptor, TCSANOW, savedSettings)
    _ = write(descriptor, showCursor.utf8Start, showCursor.utf8CodeUnitCount)
}

/// Enters raw mode again and asks for a fresh frame.
private func resumeRawMode() {
    let descriptor = guardedDescriptor.load(ordering: .acquiring)
    guard descriptor >= 0 else { return }
    _ = tcsetattr(descriptor, TCSANOW, savedSettings + 1)
    pendingEvents.bitwiseOr(SignalGuard.Events.resumed.rawValue, ordering: .relaxed)
    WakePipe.wake()
}

/// Delivers `signal` again with the disposition found at installation, now, on this thread.
private func sendAgain(_ signal: Int32) {
    _ = sigaction(signal, previousActions + Int(signal), nil)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, signal)
    _ = pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    _ = raise(signal)
}

/// An action running `handler` with the guarded signals blocked, restarting interrupted calls.
private func makeAction(_ handler: @convention(c) (Int32) -> Void) -> sigaction {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH] {
        sigaddset(&action.sa_mask, signal)
    }
    action.sa_flags = SA_RESTART
    return action
}

/// Whether `action` ignores its signal (`SIG_IGN`).
private func isIgnored(_ action: sigaction) -> Bool {
    action.sa_flags & SA_SIGINFO == 0
        && unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}
