internal import CLDAP
import Synchronization

/// A search request in the form the loop sends it.
struct SearchRequest: Sendable {
    var base: String
    var scope: SearchScope
    var filter: String
    var attributes: [String]
    var sizeLimit: Int
    var pageSize: Int?
    var controls: [LDAPControl]
    /// Attribute names without their values (`attrsonly`).
    var typesOnly = false
    /// The most seconds the server may spend on the search (its `timeLimit`); `nil` for the
    /// server's own limit.
    var timeLimit: Int? = nil
}

extension SearchScope {
    var cValue: Int32 {
        switch self {
        case .base: LDAP_SCOPE_BASE
        case .oneLevel: LDAP_SCOPE_ONELEVEL
        case .subtree: LDAP_SCOPE_SUBTREE
        case .children: LDAP_SCOPE_CHILDREN
        }
    }
}

/// A search on the loop thread: entries go to the channel as they arrive;
/// with paging, the next page is requested when the consumer is ready.
final class SearchOperation: LoopOperation, @unchecked Sendable {
    private let request: SearchRequest
    let channel: SearchChannel
    private var cookie: [UInt8] = []
    /// Entries decoded but not yet handed to the consumer: they go in batches, so that a
    /// consumer waiting for entries is woken once per batch rather than once per entry.
    private var pending: [LDAPEntry] = []
    /// The most entries kept back before they are handed on anyway.
    private static let batchSize = 256
    /// Fewer entries than this are kept back from a consumer that is waiting for them,
    /// for at most ``holdLimit``: a server sends entries a few at a time, and waking the
    /// consumer for each few costs more than it does with them.
    private static let wakeBatch = 64
    /// How long entries may be kept back from a waiting consumer.
    private static let holdLimit = Duration.milliseconds(5)

    init(id: UInt64, request: SearchRequest, timeout: Duration?, cancellation: CancellationFlag, channel: SearchChannel) {
        self.request = request
        self.channel = channel
        super.init(id: id, name: "search", timeout: timeout, cancellation: cancellation)
    }

    override func sendRequest(on handle: LDAPHandle) throws(LDAPError) -> Int32 {
        let arena = CArena()
        var controls = request.controls
        if let pageSize = request.pageSize {
            controls.append(.pagedResults(size: pageSize, cookie: cookie))
        }
        var messageID: Int32 = -1
        // libldap sends the timeout's seconds as the request's time limit.
        var limit = timeval(tv_sec: request.timeLimit ?? 0, tv_usec: 0)
        let rc = withUnsafeMutablePointer(to: &limit) { limit in
            ldap_search_ext(
                handle.ld, arena.cString(request.base), request.scope.cValue, arena.cString(request.filter),
                arena.cStringArray(request.attributes), request.typesOnly ? 1 : 0, arena.controls(controls), nil,
                request.timeLimit == nil ? nil : limit, Int32(clamping: request.sizeLimit), &messageID)
        }
        try handle.check(rc, "search")
        return messageID
    }

    override func receive(_ message: OpaquePointer, messageType: Int32, handle: LDAPHandle) -> ReceiveOutcome {
        switch ber_tag_t(messageType) {
        case LDAP_RES_SEARCH_ENTRY:
            do {
                pending.append(try handle.entry(from: message))
                if pending.count >= Self.batchSize { flush() }
                return .waiting
            } catch {
                ldap_abandon_ext(handle.ld, messageID, nil, nil)
                flush()
                channel.finish(throwing: error)
                return .finished
            }
        case LDAP_RES_SEARCH_RESULT:
            flush()
            let response = handle.parseResult(message)
            guard response.code == .success else {
                channel.finish(throwing: LDAPError(response.code, message: response.message,
                    matchedDN: response.matchedDN, operation: name, server: handle.servers))
                return .finished
            }
            if request.pageSize != nil {
                do {
                    if let paging = try response.controls.pagedResultsResponse(), !paging.cookie.isEmpty {
                        cookie = paging.cookie
                        return channel.wantsNextPageNow() ? .sendAgain : .paused
                    }
                } catch {
                    channel.finish(throwing: error)
                    return .finished
                }
            }
            channel.finish(throwing: nil)
            return .finished
        default:
            // References (referral chasing is off) and intermediate responses.
            return .waiting
        }
    }

    override func fail(_ error: any Error) {
        flush()
        channel.finish(throwing: error)
    }

    override func flush() {
        flushDeadline = nil
        guard !pending.isEmpty else { return }
        channel.deliver(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Hands the entries on unless a few are all there is and the consumer is waiting:
    /// then they wait for more, until ``holdLimit`` after the first of them was kept.
    override func flushAfterReading(now: ContinuousClock.Instant) {
        if pending.count >= Self.wakeBatch || !channel.hasWaitingConsumer || flushDeadline.map({ $0 <= now }) == true {
            flush()
        } else if !pending.isEmpty && flushDeadline == nil {
            flushDeadline = now + Self.holdLimit
        }
    }
}

/// Hands entries from the loop thread to the task iterating a search, and
/// tells the loop when a paused paged search should fetch more.
///
/// The consumer takes every entry buffered at once (``nextBatch()``): one lock and, at
/// most, one wait per batch rather than per entry, and no entries moved within the buffer.
final class SearchChannel: Sendable {
    private struct State {
        var buffer: [LDAPEntry] = []
        var outcome: Result<Void, any Error>?
        var waiter: CheckedContinuation<[LDAPEntry], any Error>?
        var pausedForDemand = false
        var isCancelled = false
    }

    private let state = Mutex(State())
    /// A paged search fetches its next page while fewer entries than this are buffered.
    private let lowWater: Int
    private let onDemand: @Sendable () -> Void
    private let onCancel: @Sendable () -> Void

    /// - Parameters:
    ///   - lowWater: how few buffered entries make a paused search continue.
    ///   - onDemand: called (on the consumer's thread) to resume a paused search.
    ///   - onCancel: called once when the consumer stops before the end, to abandon the search.
    init(lowWater: Int, onDemand: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        self.lowWater = max(lowWater, 1)
        self.onDemand = onDemand
        self.onCancel = onCancel
    }

    // Loop side.

    /// Hands on several entries at once: a waiting consumer gets them all, so it is woken once.
    func deliver(contentsOf entries: [LDAPEntry]) {
        guard !entries.isEmpty else { return }
        let waiter: CheckedContinuation<[LDAPEntry], any Error>? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.buffer.append(contentsOf: entries)
            return nil
        }
        waiter?.resume(returning: entries)
    }

    /// Ends the stream: successfully when `error` is nil.
    func finish(throwing error: (any Error)?) {
        let waiter: CheckedContinuation<[LDAPEntry], any Error>? = state.withLock { state in
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

    var isFinished: Bool { state.withLock { $0.outcome != nil || $0.isCancelled } }

    /// Whether the consumer is waiting for entries.
    var hasWaitingConsumer: Bool { state.withLock { $0.waiter != nil } }

    // Consumer side.

    /// The entries buffered, or the next ones to arrive; empty at the end. Throws the
    /// search's error once, after the entries received before it.
    func nextBatch() async throws -> [LDAPEntry] {
        enum Immediate { case entries([LDAPEntry]), end, failure(any Error) }
        func takeImmediately(_ state: inout State, resume: inout Bool) -> Immediate? {
            if !state.buffer.isEmpty {
                var entries: [LDAPEntry] = []
                swap(&entries, &state.buffer)
                if state.pausedForDemand {
                    state.pausedForDemand = false
                    resume = true
                }
                return .entries(entries)
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
        case .entries(let entries)?: return entries
        case .end?: return []
        case .failure(let error)?: throw error
        case nil: break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[LDAPEntry], any Error>) in
                var resume = false
                let immediate = state.withLock { state -> Immediate? in
                    if let now = takeImmediately(&state, resume: &resume) { return now }
                    state.waiter = continuation
                    return nil
                }
                if resume { onDemand() }
                switch immediate {
                case .entries(let entries)?: continuation.resume(returning: entries)
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
        let (waiter, abandon) = state.withLock { state -> (CheckedContinuation<[LDAPEntry], any Error>?, Bool) in
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
