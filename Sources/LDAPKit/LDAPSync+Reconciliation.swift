extension LDAPSync {
    /// The entries a client holds, by entryUUID, kept up to date by the events of its
    /// refreshes as RFC 4533 section 3.3 says:
    ///
    /// - an entry added or modified is held;
    /// - an entry deleted, in a delete-state entry or a `syncIdSet` with `refreshDeletes`,
    ///   is not;
    /// - at the end of a present phase (``Event/phaseEnded(refreshDeletes:done:cookie:)`` or
    ///   ``Event/done(cookie:refreshDeletes:)`` with `refreshDeletes` false), every entry held
    ///   that the phase did not report, as present, added or modified, is gone;
    /// - the cookie is the latest one any event carried.
    ///
    /// Apply every event of a refresh, in order, then keep ``cookie`` for the next refresh.
    /// After a refresh fails, start again from the reconciliation held before it; after
    /// ``LDAPResultCode/syncRefreshRequired``, from an empty one, without a cookie.
    public struct Reconciliation: Sendable, Hashable {
        /// The entryUUIDs of the entries held.
        public private(set) var uuids: Set<[UInt8]>

        /// The latest cookie: the one to send with the next refresh.
        public private(set) var cookie: [UInt8]?

        /// The entries the present phase under way has reported.
        private var reportedInPhase: Set<[UInt8]> = []

        /// Creates a reconciliation that holds `uuids` as of `cookie`; by default nothing,
        /// for a first refresh.
        public init(uuids: Set<[UInt8]> = [], cookie: [UInt8]? = nil) {
            self.uuids = uuids
            self.cookie = cookie
        }

        /// Applies one event of a refresh.
        public mutating func apply(_ event: Event) {
            if let newCookie = event.cookie { cookie = newCookie }
            switch event {
            case .entry(_, let state, let uuid, _):
                switch state {
                case .present:
                    reportedInPhase.insert(uuid)
                case .add, .modify:
                    uuids.insert(uuid)
                    reportedInPhase.insert(uuid)
                case .delete:
                    uuids.remove(uuid)
                }
            case .idSet(let members, let refreshDeletes, _):
                if refreshDeletes {
                    uuids.subtract(members)
                } else {
                    reportedInPhase.formUnion(members)
                }
            case .newCookie:
                break
            case .phaseEnded(let refreshDeletes, _, _), .done(_, let refreshDeletes):
                if !refreshDeletes { uuids.formIntersection(reportedInPhase) }
                reportedInPhase = []
            }
        }

        /// Applies events of a refresh in order.
        public mutating func apply(contentsOf events: some Sequence<Event>) {
            for event in events { apply(event) }
        }
    }
}
