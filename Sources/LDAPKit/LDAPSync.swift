/// The LDAP Content Synchronization operation (RFC 4533), in refreshOnly mode: a search
/// that returns what changed in the directory since the last one, named by a cookie.
///
/// The first refresh has no cookie and returns every entry that matches; each later one
/// sends the cookie the previous one ended with and returns only the entries added or
/// modified since, with the entries deleted since or, when the server cannot tell those,
/// the entryUUIDs of the entries still present. ``Reconciliation`` turns those events into
/// the set of entries a client holds.
///
/// ```swift
/// var content = LDAPSync.Reconciliation()
/// for try await events in connection.syncRefresh(filter: .equal("objectClass", "person"),
///                                                attributes: ["cn", "mail"], cookie: nil) {
///     content.apply(contentsOf: events)
/// }
/// // Keep content.cookie for the next refresh.
/// ```
///
/// A server without content synchronization refuses the refresh with
/// ``LDAPResultCode/unavailableCriticalExtension``; a server that cannot continue from a
/// cookie may refuse it with ``LDAPResultCode/syncRefreshRequired``, after which the client
/// starts again without one.
public enum LDAPSync {
    /// The refreshOnly mode of the Sync Request control.
    static let refreshOnlyMode = 1

    /// How an entry returned by a refresh relates to the client's content (the `state` of
    /// the Sync State control).
    public enum State: Int, Sendable, Hashable, CaseIterable {
        /// The entry is unchanged and still matches: the client keeps it. The server sends
        /// only its DN.
        case present = 0
        /// The entry is new to the client's content.
        case add = 1
        /// The entry changed; the client replaces its copy.
        case modify = 2
        /// The entry was deleted or no longer matches. The server sends only its DN.
        case delete = 3
    }

    /// One thing a refresh reports, in the order the server sent it.
    public enum Event: Sendable {
        /// An entry with its Sync State control: its state, its entryUUID (16 bytes) and,
        /// sometimes, a cookie up to this entry.
        case entry(LDAPEntry, state: State, uuid: [UInt8], cookie: [UInt8]?)

        /// The entryUUIDs of several entries at once (a `syncIdSet`): entries deleted since
        /// the cookie when `refreshDeletes` is true, else entries still present.
        case idSet(uuids: [[UInt8]], refreshDeletes: Bool, cookie: [UInt8]?)

        /// A new cookie, with nothing else.
        case newCookie([UInt8])

        /// A phase of the refresh ended before another began: a delete phase (entries
        /// deleted were reported) when `refreshDeletes` is true, else a present phase
        /// (entries present were reported, so every other entry the client holds is gone).
        /// `done` says whether the refresh is complete with it.
        case phaseEnded(refreshDeletes: Bool, done: Bool, cookie: [UInt8]?)

        /// The refresh is complete (the Sync Done control of the search's result): the last
        /// phase was a delete phase when `refreshDeletes` is true, else a present phase. The
        /// cookie, when the server sent one, is the one to send with the next refresh.
        case done(cookie: [UInt8]?, refreshDeletes: Bool)

        /// The cookie the event carries, if any.
        public var cookie: [UInt8]? {
            switch self {
            case .entry(_, _, _, let cookie): cookie
            case .idSet(_, _, let cookie): cookie
            case .newCookie(let cookie): cookie
            case .phaseEnded(_, _, let cookie): cookie
            case .done(let cookie, _): cookie
            }
        }
    }

    /// `uuid` in the usual lowercase form, `8-4-4-4-12` hexadecimal digits, such as
    /// `3f2504e0-4f89-11d3-9a0c-0305e82c3301`, as slapd writes `entryUUID`; bytes of any
    /// other length than 16 as plain hexadecimal digits.
    public static func uuidString(_ uuid: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in uuid.enumerated() {
            if uuid.count == 16 && [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
