internal import CLDAP
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread that owns a connection's libldap session.
///
/// Every libldap call of the connection happens here, never on Swift's
/// cooperative pool. Callers hand it commands; it sends requests, waits in
/// `poll(2)` for the server's socket or a new command (no polling sleeps),
/// reads every response available with a zero-timeout `ldap_result` and hands
/// each to the operation waiting on its message id. Deadlines are tracked
/// here too: an operation whose server stays silent past its timeout is
/// abandoned and fails, and the connection stays usable.
///
/// It is also a task executor (``LDAPConnection/executor``): the jobs of tasks that prefer
/// it run here between reads, so that a task reading a search as it arrives and the
/// reading itself take one thread, as `ldapsearch` does, instead of two taking turns across
/// cores.
final class ConnectionLoop: TaskExecutor, Sendable {
    /// What callers ask of the loop.
    enum Command {
        /// Start an operation (connecting first when needed).
        case start(LoopOperation)
        /// Abandon an operation and fail it with `CancellationError`.
        case cancel(UInt64)
        /// Continue a paged search that paused for its consumer.
        case resume(UInt64)
        /// Connect and bind now; report the outcome.
        case connect(@Sendable (Result<Void, LDAPError>) -> Void)
        /// Fail everything, unbind and end the thread.
        case shutdown(@Sendable () -> Void)
    }

    private struct Inbox {
        var commands: [Command] = []
        /// The jobs of tasks that prefer this loop as their executor.
        var jobs: [UnownedJob] = []
        var wakeRequested = false
        var isShutDown = false
    }

    let configuration: LDAPConnection.Configuration
    private let inbox = Mutex(Inbox())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let nextID = Atomic<UInt64>(1)
    /// The loop thread's `pthread_self()`, once it runs.
    private let loopThread = Atomic<UInt>(0)
    /// The server of the current session, once connected.
    let server = CurrentServer()
    /// State that only the loop thread touches.
    private let state: LoopState

    init(configuration: LDAPConnection.Configuration) {
        self.configuration = configuration
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 {
            fatalError("cannot create the connection's wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        state = LoopState(configuration: configuration, server: server)
        let thread = Thread { [self] in run() }
        thread.name = "ldap-connection"
        // The jobs of tasks that prefer this loop run on this stack too: as large as a
        // thread's by default (only the pages used are ever touched).
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// A fresh identifier for an operation.
    func makeOperationID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Hands `command` to the loop thread. After shutdown, operations fail at once.
    func send(_ command: Command) {
        let accepted: Bool = inbox.withLock { inbox in
            guard !inbox.isShutDown else { return false }
            inbox.commands.append(command)
            if case .shutdown = command { inbox.isShutDown = true }
            if inbox.wakeRequested { return true }
            inbox.wakeRequested = true
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            return true
        }
        if !accepted {
            let closed = LDAPError(.serverDown, message: "the connection is closed")
            switch command {
            case .start(let operation): operation.fail(closed)
            case .connect(let report): report(.failure(closed))
            case .shutdown(let done): done()
            case .cancel, .resume: break
            }
        }
    }

    // MARK: Running jobs

    /// Runs `job` on the loop thread, after what the thread is doing now. A job the loop
    /// thread enqueues itself (a search's consumer, resumed with entries it just read) needs
    /// no wake-up: the loop runs the jobs it has before it waits again. After shutdown, jobs
    /// run on Dispatch's global queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let onLoop = pthread_self() == loopThread.load(ordering: .relaxed)
        let accepted: Bool = inbox.withLock { inbox in
            guard !inbox.isShutDown else { return false }
            inbox.jobs.append(job)
            if onLoop || inbox.wakeRequested { return true }
            inbox.wakeRequested = true
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            return true
        }
        if !accepted { runElsewhere(job) }
    }

    private func runElsewhere(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }

    // MARK: The loop thread

    private func run() {
        loopThread.store(pthread_self(), ordering: .relaxed)
        // liblber writes with write(2): a write to a connection the server
        // has reset raises SIGPIPE, which would kill the process. SIGPIPE is
        // sent to the writing thread, so blocking it here (and only here)
        // turns it into the EPIPE error libldap reports as serverDown.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        while true {
            let (commands, jobs): ([Command], [UnownedJob]) = inbox.withLock { inbox in
                inbox.wakeRequested = false
                defer {
                    inbox.commands.removeAll(keepingCapacity: true)
                    inbox.jobs.removeAll(keepingCapacity: true)
                }
                return (inbox.commands, inbox.jobs)
            }
            for command in commands {
                if case .shutdown(let done) = command {
                    state.failAll(LDAPError(.serverDown, message: "the connection was closed", operation: "close"))
                    state.handle = nil
                    done()
                    // Jobs that came in meanwhile run elsewhere; any later ones too.
                    for job in jobs + inbox.withLock({ $0.jobs }) { runElsewhere(job) }
                    return
                }
                state.execute(command)
            }
            let executor = asUnownedTaskExecutor()
            for job in jobs { job.runSynchronously(on: executor) }
            // The jobs may have queued more (or commands): then only look whether the
            // server has sent something, without waiting.
            let hasMore = inbox.withLock { !$0.jobs.isEmpty || !$0.commands.isEmpty }
            waitForEvents(waiting: !hasMore)
            state.expireDeadlines()
        }
    }

    private func waitForEvents(waiting: Bool = true) {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        // While a consumer has not taken what it was sent, the socket is left unread: the
        // server waits, and the consumer's taking wakes the loop.
        let socket = state.holdingReads() ? nil : state.handle?.fileDescriptor
        if let socket {
            fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
        }
        let timeout = waiting ? state.pollTimeoutMilliseconds() : 0
        let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        guard ready > 0 else { return }
        var woken = false
        if fds[0].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &buffer, buffer.count) > 0 {}
            woken = true
        }
        // Woken while reads were held, libldap may hold messages it read before, which no
        // poll of the socket announces: read them too.
        if (fds.count > 1 && fds[1].revents != 0) || (woken && socket == nil && state.handle != nil) {
            state.readResponses()
        }
    }
}

/// The server a connection's session reached, read by any thread.
final class CurrentServer: Sendable {
    let uri = Mutex<String?>(nil)
}

/// The loop thread's own state: the session and the operations in flight.
/// Only the loop thread touches it, so it needs no lock.
final class LoopState: @unchecked Sendable {
    private let configuration: LDAPConnection.Configuration
    var handle: LDAPHandle?
    /// Every live operation, including paged searches paused for their consumer.
    private var operations: [UInt64: LoopOperation] = [:]
    /// Operations with a request on the wire, by message id.
    private var byMessageID: [Int32: LoopOperation] = [:]
    private let clock = ContinuousClock()
    /// When the session was opened or last received a message: a server silent for a whole
    /// timeout since is hung, and its session is left.
    private var lastHeard: ContinuousClock.Instant?
    /// The last failure to connect, and when it ended: operations started before then
    /// share it rather than each waiting for the servers again.
    private var connectFailure: (error: LDAPError, ended: ContinuousClock.Instant)?

    private let server: CurrentServer

    init(configuration: LDAPConnection.Configuration, server: CurrentServer) {
        self.configuration = configuration
        self.server = server
    }

    func execute(_ command: ConnectionLoop.Command) {
        switch command {
        case .start(let operation):
            if operation.cancellation.isCancelled {
                operation.fail(CancellationError())
                return
            }
            operations[operation.id] = operation
            send(operation)
        case .cancel(let id):
            guard let operation = operations.removeValue(forKey: id) else { return }
            abandon(operation)
            operation.fail(CancellationError())
        case .resume(let id):
            guard let operation = operations[id], operation.messageID < 0 else { return }
            send(operation)
        case .connect(let report):
            do throws(LDAPError) {
                try connectIfNeeded(startedAt: clock.now)
                report(.success(()))
            } catch {
                report(.failure(error))
            }
        case .shutdown:
            break
        }
    }

    /// Opens a session unless there is one. An operation started before the last attempt
    /// failed fails the same way: the operations of one moment wait for the servers once.
    private func connectIfNeeded(startedAt started: ContinuousClock.Instant) throws(LDAPError) {
        if handle == nil {
            if let connectFailure, started < connectFailure.ended { throw connectFailure.error }
            let opened: LDAPHandle
            do throws(LDAPError) {
                opened = try LDAPHandle.open(configuration)
            } catch {
                connectFailure = (error, clock.now)
                throw error
            }
            connectFailure = nil
            handle = opened
            lastHeard = clock.now
            server.uri.withLock { $0 = opened.servers }
        }
    }

    /// Sends an operation's request, connecting first if there is no session.
    private func send(_ operation: LoopOperation) {
        do throws(LDAPError) {
            try connectIfNeeded(startedAt: operation.started)
            guard let handle else { return }
            let messageID = try operation.sendRequest(on: handle)
            operation.messageID = messageID
            byMessageID[messageID] = operation
            operation.deadline = operation.timeout.map { clock.now + $0 }
        } catch {
            operations.removeValue(forKey: operation.id)
            if error.code == .serverDown { dropSession(error) }
            operation.fail(error)
        }
    }

    private func abandon(_ operation: LoopOperation) {
        guard operation.messageID >= 0 else { return }
        byMessageID.removeValue(forKey: operation.messageID)
        if let handle {
            ldap_abandon_ext(handle.ld, operation.messageID, nil, nil)
        }
        operation.messageID = -1
    }

    /// Reads every response libldap has, without blocking.
    func readResponses() {
        var zero = timeval(tv_sec: 0, tv_usec: 0)
        var touched: [LoopOperation] = []
        defer {
            let now = clock.now
            for operation in touched { operation.flushAfterReading(now: now) }
        }
        while let handle, !holdingReads() {
            var message: OpaquePointer?
            let type = ldap_result(handle.ld, cldap_res_any(), LDAP_MSG_ONE, &zero, &message)
            if type == 0 { return }
            if type < 0 {
                var code: Int32 = LDAP_SERVER_DOWN
                ldap_get_option(handle.ld, LDAP_OPT_RESULT_CODE, &code)
                dropSession(handle.error(code, operation: "read"))
                return
            }
            guard let message else { return }
            defer { ldap_msgfree(message) }
            lastHeard = clock.now
            let messageID = ldap_msgid(message)
            if messageID == 0 {
                // An unsolicited notification (RFC 4511 4.4.1): the server is
                // about to close the connection.
                let notice = handle.parseResult(message)
                dropSession(LDAPError(.serverDown, message: notice.message.isEmpty
                    ? "the server closed the connection" : notice.message,
                    operation: "read", server: handle.servers))
                return
            }
            guard let operation = byMessageID[messageID] else { continue }
            operation.deadline = operation.timeout.map { clock.now + $0 }
            if !touched.contains(where: { $0 === operation }) { touched.append(operation) }
            switch operation.receive(message, messageType: type, handle: handle) {
            case .waiting:
                break
            case .finished:
                byMessageID.removeValue(forKey: messageID)
                operations.removeValue(forKey: operation.id)
            case .sendAgain:
                byMessageID.removeValue(forKey: messageID)
                operation.messageID = -1
                send(operation)
            case .paused:
                byMessageID.removeValue(forKey: messageID)
                operation.messageID = -1
                operation.deadline = nil
            }
        }
    }

    /// The connection is gone: every operation fails, and the next one reconnects.
    private func dropSession(_ error: LDAPError) {
        handle = nil
        failAll(error)
    }

    func failAll(_ error: LDAPError) {
        let failing = operations.values
        operations.removeAll()
        byMessageID.removeAll()
        for operation in failing {
            // Each fails as itself: a modify cut off by a lost connection is a failed modify.
            var own = error
            if !operation.name.isEmpty { own.operation = operation.name }
            operation.fail(own)
        }
    }

    /// Abandons and fails the operations whose server stayed silent too long, and hands on
    /// what operations kept back as long as they may.
    ///
    /// When the server has sent nothing at all for a whole timeout, it is not slow with one
    /// request but hung: the session is left, every operation on it fails with the timeout,
    /// and the next operation connects again, to the next server of the list if this one
    /// still does not answer.
    func expireDeadlines() {
        let now = clock.now
        for operation in operations.values {
            if let flushDeadline = operation.flushDeadline, flushDeadline <= now { operation.flush() }
        }
        for operation in Array(operations.values) {
            guard let deadline = operation.deadline, deadline <= now, operations[operation.id] != nil else { continue }
            let waited = operation.timeout.map { " within \($0.formattedSeconds)" } ?? ""
            let timedOut = LDAPError(.timeout, message: "no response from the server\(waited)",
                                     operation: operation.name, server: handle?.servers ?? "")
            if let timeout = operation.timeout, let lastHeard, lastHeard + timeout <= now {
                dropSession(timedOut)
                return
            }
            operations.removeValue(forKey: operation.id)
            abandon(operation)
            operation.fail(timedOut)
        }
    }

    /// Whether an operation's consumer has yet to take what it was sent (``LoopOperation/holdsReads()``).
    /// Meanwhile the server is not silent but waiting: its operations' deadlines and the
    /// session's last word move on.
    func holdingReads() -> Bool {
        var holding = false
        for operation in byMessageID.values where operation.holdsReads() {
            holding = true
            operation.deadline = operation.timeout.map { clock.now + $0 }
        }
        if holding { lastHeard = clock.now }
        return holding
    }

    /// Milliseconds until the nearest deadline, or -1 (wait for an event) when none.
    func pollTimeoutMilliseconds() -> Int32 {
        var nearest: ContinuousClock.Instant?
        func consider(_ deadline: ContinuousClock.Instant?) {
            if let deadline, nearest.map({ deadline < $0 }) ?? true { nearest = deadline }
        }
        for operation in operations.values {
            consider(operation.deadline)
            consider(operation.flushDeadline)
        }
        guard let nearest else { return -1 }
        let remaining = clock.now.duration(to: nearest)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}

extension Duration {
    /// The duration in seconds for messages, such as `2.5s`.
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(Double(milliseconds) / 1000)s"
    }
}
