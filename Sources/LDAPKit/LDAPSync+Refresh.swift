extension LDAPSync {
    /// The events of one refresh, streamed in batches as they arrive: each element is every
    /// event received since the last one was taken, in the server's order, so that a
    /// refresh of many entries costs one hand-over per batch rather than per entry.
    ///
    /// Iterating starts the refresh; leaving the loop early, or cancelling the task,
    /// abandons it on the server. The last event of a complete refresh is
    /// ``Event/done(cookie:refreshDeletes:)``. Errors are thrown after the events received
    /// before them: ``LDAPResultCode/syncRefreshRequired`` when the server cannot continue
    /// from the cookie, ``LDAPResultCode/unavailableCriticalExtension`` when it has no
    /// content synchronization, and a search's errors, such as
    /// ``LDAPResultCode/sizeLimitExceeded``.
    ///
    /// Create one with ``LDAPConnection/syncRefresh(base:scope:filter:attributes:cookie:sizeLimit:)``.
    public struct Refresh: AsyncSequence, Sendable {
        /// The events received together.
        public typealias Element = [Event]

        let loop: ConnectionLoop
        let request: Result<SearchRequest, LDAPError>

        /// Starts the refresh and returns an iterator over its batches of events.
        public func makeAsyncIterator() -> AsyncIterator {
            let id = loop.makeOperationID()
            let loop = self.loop
            let channel = SearchChannel<Event>(lowWater: 1, onDemand: { loop.send(.resume(id)) },
                                                onCancel: { loop.send(.cancel(id)) })
            switch request {
            case .success(let request):
                loop.send(.start(SyncRefreshOperation(
                    id: id, request: request, timeout: loop.configuration.operationTimeout,
                    cancellation: CancellationFlag(), channel: channel)))
            case .failure(let error):
                channel.finish(throwing: error)
            }
            return AsyncIterator(lifetime: SearchLifetime(channel: channel))
        }

        /// Reads every event of the refresh into one array. Use only for refreshes known to
        /// be small.
        public func collect() async throws -> [Event] {
            var events: [Event] = []
            for try await batch in self {
                events += batch
            }
            return events
        }

        /// The iterator of a refresh.
        public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
            let lifetime: SearchLifetime<Event>

            /// The events received since the last call, waiting for some if there are none
            /// yet; `nil` when the refresh is complete.
            public mutating func next() async throws -> [Event]? {
                let batch = try await lifetime.channel.nextBatch()
                return batch.isEmpty ? nil : batch
            }
        }
    }
}
