internal import CLDAP
import Synchronization

/// Set when the task that started an operation is cancelled, possibly before
/// the loop has seen the operation at all.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Marks the operation cancelled.
    func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Whether the operation was cancelled.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// What an operation wants after receiving a message.
enum ReceiveOutcome {
    /// More messages will come for the same request.
    case waiting
    /// The operation is complete.
    case finished
    /// Send the request again now (the next page of a paged search).
    case sendAgain
    /// Wait until the consumer asks for more (a paged search with a full buffer).
    case paused
}

/// An operation as the connection loop tracks it. Subclasses send their
/// request and interpret the responses; all of it runs on the loop thread,
/// except `fail`, which must be safe to call from any thread.
class LoopOperation: @unchecked Sendable {
    let id: UInt64
    /// The operation's name in errors: `search`, `modify`, ...
    let name: String
    /// How long the server may stay silent.
    let timeout: Duration?
    /// The message id of the request on the wire, or -1.
    var messageID: Int32 = -1
    /// When the operation times out, if it is waiting for the server.
    var deadline: ContinuousClock.Instant?
    /// When what ``receive(_:messageType:handle:)`` kept back must be handed on, if it
    /// is holding anything back.
    var flushDeadline: ContinuousClock.Instant?
    /// Set by the caller's task cancellation handler.
    let cancellation: CancellationFlag
    /// When the caller started the operation.
    let started = ContinuousClock.now

    init(id: UInt64, name: String, timeout: Duration?, cancellation: CancellationFlag) {
        self.id = id
        self.name = name
        self.timeout = timeout
        self.cancellation = cancellation
    }

    /// Sends the request and returns its message id.
    func sendRequest(on handle: LDAPHandle) throws(LDAPError) -> Int32 {
        preconditionFailure("\(type(of: self)) must override sendRequest(on:)")
    }

    /// Handles one response message of type `messageType` (an `LDAP_RES_*` tag).
    /// Whether the loop should read nothing more for now, because this operation's consumer
    /// has not taken what it has; the consumer wakes the loop when it does.
    func holdsReads() -> Bool { false }

    func receive(_ message: OpaquePointer, messageType: Int32, handle: LDAPHandle) -> ReceiveOutcome {
        preconditionFailure("\(type(of: self)) must override receive(_:messageType:handle:)")
    }

    /// Fails the operation; later calls and late responses are ignored.
    func fail(_ error: any Error) {
        preconditionFailure("\(type(of: self)) must override fail(_:)")
    }

    /// Hands on whatever ``receive(_:messageType:handle:)`` kept back.
    func flush() {}

    /// Called by the loop after reading every response that was ready: hands on what was
    /// kept back now, or sets ``flushDeadline`` to do it later.
    func flushAfterReading(now: ContinuousClock.Instant) {
        flush()
    }
}

/// An operation with a single result message: add, modify, delete, rename,
/// compare, extended operations.
final class SingleResultOperation: LoopOperation, @unchecked Sendable {
    typealias Send = @Sendable (LDAPHandle, inout Int32) -> Int32

    private let send: Send
    private let acceptedCodes: Set<LDAPResultCode>
    private var completion: CheckedContinuation<LDAPExtendedResponse, any Error>?

    /// - Parameters:
    ///   - acceptedCodes: result codes that are not errors for this operation
    ///     (`compareTrue` and `compareFalse` for a compare).
    ///   - send: issues the request with libldap, storing the message id.
    init(id: UInt64, name: String, timeout: Duration?, cancellation: CancellationFlag,
         acceptedCodes: Set<LDAPResultCode>,
         continuation: CheckedContinuation<LDAPExtendedResponse, any Error>, send: @escaping Send) {
        self.send = send
        self.acceptedCodes = acceptedCodes
        self.completion = continuation
        super.init(id: id, name: name, timeout: timeout, cancellation: cancellation)
    }

    override func sendRequest(on handle: LDAPHandle) throws(LDAPError) -> Int32 {
        var messageID: Int32 = -1
        let rc = send(handle, &messageID)
        guard rc == LDAP_SUCCESS else { throw handle.error(rc, operation: name) }
        return messageID
    }

    override func receive(_ message: OpaquePointer, messageType: Int32, handle: LDAPHandle) -> ReceiveOutcome {
        let response = handle.parseResult(message)
        guard acceptedCodes.contains(response.code) else {
            fail(LDAPError(response.code, message: response.message, matchedDN: response.matchedDN,
                           operation: name, server: handle.servers))
            return .finished
        }
        var extended = LDAPExtendedResponse(response: response)
        if ber_tag_t(messageType) == LDAP_RES_EXTENDED {
            (extended.oid, extended.value) = handle.extendedResult(from: message)
        }
        completion?.resume(returning: extended)
        completion = nil
        return .finished
    }

    override func fail(_ error: any Error) {
        completion?.resume(throwing: error)
        completion = nil
    }
}
