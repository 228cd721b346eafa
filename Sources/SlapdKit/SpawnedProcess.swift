internal import CSpawn
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child process started by `posix_spawn(3)`, in the shape of Foundation's `Process`:
/// set the executable, arguments, environment, directory and standard streams, `run()`,
/// then wait for it.
///
/// Foundation's `Process.run()` on Linux (Swift 6.3.1) dies now and then with SIGSEGV in
/// `memcpy`: before spawning it lists `/proc/self/fd` and copies each entry's whole 256-byte
/// `d_name`, though `readdir(3)` returns entries only as long as their names, so an entry at
/// the end of glibc's directory buffer is read past it, into a page that may not be mapped
/// (swift-corelibs-foundation pull request 5472). The test suite, which starts thousands of
/// processes, died so in both runs of one `make test`. This spawns without listing anything: the child's
/// descriptors above 2 are closed by `posix_spawn_file_actions_addclosefrom_np`.
///
/// The child gets a process group of its own and every signal at its default, unblocked,
/// whichever thread starts it, as Foundation's `Process` does.
public final class SpawnedProcess: @unchecked Sendable {
    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, without its name (which is the executable's path).
    public var arguments: [String]?
    /// Its environment; `nil` passes this process's.
    public var environment: [String: String]?
    /// Its working directory; `nil` leaves this process's.
    public var currentDirectoryURL: URL?
    /// Its standard input: a `Pipe` (it reads the pipe), a `FileHandle` (`nullDevice` opens
    /// `/dev/null`), or `nil` for this process's own.
    public var standardInput: Any?
    /// Its standard output: a `Pipe` (it writes the pipe), a `FileHandle`, or `nil`.
    public var standardOutput: Any?
    /// Its standard error: a `Pipe`, a `FileHandle`, or `nil`.
    public var standardError: Any?
    /// Called once the process has ended, on a thread of its own.
    public var terminationHandler: (@Sendable (SpawnedProcess) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    private struct State {
        var pid: pid_t = 0
        var ended: Int32?
        var handler: (@Sendable (SpawnedProcess) -> Void)?
    }

    private let state = Mutex(State())
    private let endedSignal = DispatchSemaphore(value: 0)

    /// Creates a process to run; nothing runs until ``run()``.
    public init() {}

    /// The child's process ID (a `pid_t`), once it runs.
    public var processIdentifier: Int32 { state.withLock { $0.pid } }

    /// Whether it has been started and has not yet ended.
    public var isRunning: Bool { state.withLock { $0.pid != 0 && $0.ended == nil } }

    /// Its exit status, or the signal that ended it (see ``terminationReason``).
    public var terminationStatus: Int32 {
        guard let status = state.withLock({ $0.ended }) else {
            preconditionFailure("the process has not ended")
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Whether it exited or was ended by a signal.
    public var terminationReason: Process.TerminationReason {
        guard let status = state.withLock({ $0.ended }) else {
            preconditionFailure("the process has not ended")
        }
        return status & 0x7F == 0 ? .exit : .uncaughtSignal
    }

    /// Starts the program.
    ///
    /// - Throws: `CocoaError(.fileNoSuchFile)` or a `POSIXError` when it cannot start.
    public func run() throws {
        guard let executable = executableURL?.path else { throw CocoaError(.fileNoSuchFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var closeInParent: [FileHandle] = []
        for (stream, target) in [(standardInput, Int32(0)), (standardOutput, Int32(1)), (standardError, Int32(2))] {
            switch stream {
            case let pipe as Pipe:
                let childEnd = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
                // One pipe may be both standard output and standard error: closed once.
                if !closeInParent.contains(where: { $0 === childEnd }) { closeInParent.append(childEnd) }
            case let handle as FileHandle where handle === FileHandle.nullDevice:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                break
            }
        }
        if let directory = currentDirectoryURL?.path {
            posix_spawn_file_actions_addchdir_np(&actions, directory)
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = [executable] + (arguments ?? [])
        let envp = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        var child: pid_t = 0
        let spawned = withCStrings(argv) { argv in
            if let envp {
                return withCStrings(envp) { envp in posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
            }
            return posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        }
        let pid = child
        guard spawned == 0 else {
            if spawned == ENOENT { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable]) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        // The child has its own copies; the parent keeps only its ends.
        for handle in closeInParent { try? handle.close() }
        state.withLock { $0.pid = pid }
        let thread = Thread { [self] in reap(pid) }
        thread.name = "child waiter"
        thread.stackSize = 64 << 10
        thread.start()
    }

    /// Waits for the child to end, then records how and tells whoever waits.
    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let handler = state.withLock { state in
            state.ended = status
            return state.handler
        }
        handler?(self)
        endedSignal.signal()
    }

    /// Blocks the calling thread until the process has ended.
    public func waitUntilExit() {
        guard state.withLock({ $0.pid != 0 }) else { return }
        endedSignal.wait()
        endedSignal.signal()
    }

    /// Sends SIGTERM unless it has ended.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT unless it has ended.
    public func interrupt() { send(SIGINT) }

    /// Sends `signal` unless the process has ended (and its ID may be someone else's).
    public func send(_ signal: Int32) {
        state.withLock { state in
            if state.pid != 0 && state.ended == nil { kill(state.pid, signal) }
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings copied from `strings`.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) } + [nil]
    defer { for copy in copies { free(copy) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
