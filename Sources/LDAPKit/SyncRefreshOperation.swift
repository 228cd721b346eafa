internal import CLDAP

/// A content synchronization in refreshOnly mode (RFC 4533) on the loop thread: a search
/// with the Sync Request control, whose entries, Sync Info intermediate responses and
/// result go to the channel as events, in batches as a search's entries do.
final class SyncRefreshOperation: ChannelOperation<LDAPSync.Event>, @unchecked Sendable {
    private let request: SearchRequest
    /// - Parameter request: the search, with the Sync Request control among its controls
    ///   and no paging, which slapd refuses to combine with it.
    init(id: UInt64, request: SearchRequest, timeout: Duration?, cancellation: CancellationFlag,
         channel: SearchChannel<LDAPSync.Event>) {
        self.request = request
        super.init(id: id, name: "sync refresh", timeout: timeout, cancellation: cancellation, channel: channel)
    }

    /// The most events waiting for the consumer before the loop stops reading the socket, so
    /// that the server waits (TCP's flow control) rather than the memory filling.
    private static let highWater = 8192

    override func holdsReads() -> Bool {
        channel.isBackedUp(highWater: Self.highWater)
    }

    override func sendRequest(on handle: LDAPHandle) throws(LDAPError) -> Int32 {
        try request.send(on: handle, controls: request.controls, operation: name)
    }

    override func receive(_ message: OpaquePointer, messageType: Int32, handle: LDAPHandle) -> ReceiveOutcome {
        do {
            switch ber_tag_t(messageType) {
            case LDAP_RES_SEARCH_ENTRY:
                keep(try entryEvent(message, handle: handle))
            case LDAP_RES_INTERMEDIATE:
                let response = try handle.intermediateResponse(from: message, operation: name)
                guard response.oid == LDAPControl.OID.syncInfo else { return .waiting }
                let value = try decoded(handle) { try LDAPSync.InfoValue(responseValue: response.value ?? []) }
                keep(value.event)
            case LDAP_RES_SEARCH_RESULT:
                let response = handle.parseResult(message)
                guard response.code == .success else {
                    flush()
                    channel.finish(throwing: LDAPError(response.code, message: response.message,
                        matchedDN: response.matchedDN, operation: name, server: handle.servers))
                    return .finished
                }
                guard let control = response.controls.control(withOID: LDAPControl.OID.syncDone) else {
                    throw LDAPError(.controlNotFound, message: "the server ended the refresh without a Sync Done control",
                                    operation: name, server: handle.servers)
                }
                let done = try decoded(handle) { try LDAPSync.DoneValue(controlValue: control.value ?? []) }
                keep(.done(cookie: done.cookie, refreshDeletes: done.refreshDeletes))
                flush()
                channel.finish(throwing: nil)
                return .finished
            default:
                // References: referral chasing is off.
                break
            }
        } catch {
            if ber_tag_t(messageType) != LDAP_RES_SEARCH_RESULT {
                ldap_abandon_ext(handle.ld, messageID, nil, nil)
            }
            flush()
            channel.finish(throwing: error)
            return .finished
        }
        return .waiting
    }

    /// An entry and what its Sync State control says of it.
    private func entryEvent(_ message: OpaquePointer, handle: LDAPHandle) throws(LDAPError) -> LDAPSync.Event {
        let entry = try handle.entry(from: message)
        guard let value = try handle.entryControlValue(LDAPControl.OID.syncState, of: message, operation: name) else {
            throw LDAPError(.controlNotFound, message: "the server sent \(entry.dn.string) without a Sync State control",
                            operation: name, server: handle.servers)
        }
        let state = try decoded(handle) { try LDAPSync.StateValue(controlValue: value) }
        return .entry(entry, state: state.state, uuid: state.uuid, cookie: state.cookie)
    }

    /// The value `decode` returns, or its decoding error as this operation's.
    private func decoded<Value>(_ handle: LDAPHandle, _ decode: () throws -> Value) throws(LDAPError) -> Value {
        do {
            return try decode()
        } catch {
            var failure = error as? LDAPError ?? LDAPError(.decodingError, message: "\(error)")
            failure.operation = name
            failure.server = handle.servers
            throw failure
        }
    }
}
