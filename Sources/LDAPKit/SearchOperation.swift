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

extension SearchRequest {
    /// Sends the request with `controls` instead of its own and returns its message id.
    func send(on handle: LDAPHandle, controls: [LDAPControl], operation: String) throws(LDAPError) -> Int32 {
        let arena = CArena()
        var messageID: Int32 = -1
        // libldap sends the timeout's seconds as the request's time limit.
        var limit = timeval(tv_sec: timeLimit ?? 0, tv_usec: 0)
        let rc = withUnsafeMutablePointer(to: &limit) { limit in
            ldap_search_ext(
                handle.ld, arena.cString(base), scope.cValue, arena.cString(filter),
                arena.cStringArray(attributes), typesOnly ? 1 : 0, arena.controls(controls), nil,
                timeLimit == nil ? nil : limit, Int32(clamping: sizeLimit), &messageID)
        }
        try handle.check(rc, operation)
        return messageID
    }
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
final class SearchOperation: ChannelOperation<LDAPEntry>, @unchecked Sendable {
    private let request: SearchRequest
    private var cookie: [UInt8] = []
    init(id: UInt64, request: SearchRequest, timeout: Duration?, cancellation: CancellationFlag, channel: SearchChannel<LDAPEntry>) {
        self.request = request
        super.init(id: id, name: "search", timeout: timeout, cancellation: cancellation, channel: channel)
    }

    override func sendRequest(on handle: LDAPHandle) throws(LDAPError) -> Int32 {
        var controls = request.controls
        if let pageSize = request.pageSize {
            controls.append(.pagedResults(size: pageSize, cookie: cookie))
        }
        return try request.send(on: handle, controls: controls, operation: name)
    }

    override func receive(_ message: OpaquePointer, messageType: Int32, handle: LDAPHandle) -> ReceiveOutcome {
        switch ber_tag_t(messageType) {
        case LDAP_RES_SEARCH_ENTRY:
            do {
                keep(try handle.entry(from: message))
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
}
