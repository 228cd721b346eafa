/// The entries of a search, streamed as they arrive.
///
/// Iterating starts the search; with a page size set, pages are requested as
/// the iteration consumes them, so memory stays bounded whatever the size of
/// the result. Leaving the loop early, or cancelling the task, abandons the
/// search on the server. Errors (including a size limit reached) are thrown
/// after the entries received before them.
///
/// ```swift
/// for try await person in connection.search(filter: .prefix("sn", "Lov")) {
///     print(person.dn)
/// }
/// ```
public struct LDAPSearchResults: AsyncSequence, Sendable {
    /// A search result entry.
    public typealias Element = LDAPEntry

    let loop: ConnectionLoop
    let request: Result<SearchRequest, LDAPError>

    /// Starts the search and returns an iterator over its entries.
    public func makeAsyncIterator() -> AsyncIterator {
        let id = loop.makeOperationID()
        let loop = self.loop
        let pageSize = (try? request.get())?.pageSize ?? 0
        let channel = SearchChannel<LDAPEntry>(
            lowWater: pageSize,
            onDemand: { loop.send(.resume(id)) },
            onCancel: { loop.send(.cancel(id)) })
        switch request {
        case .success(let request):
            let operation = SearchOperation(id: id, request: request, timeout: loop.configuration.operationTimeout,
                                            cancellation: CancellationFlag(), channel: channel)
            loop.send(.start(operation))
        case .failure(let error):
            channel.finish(throwing: error)
        }
        return AsyncIterator(lifetime: SearchLifetime(channel: channel))
    }

    /// Reads every entry into an array. Use only for results known to be small.
    public func collect() async throws -> [LDAPEntry] {
        var entries: [LDAPEntry] = []
        for try await entry in self {
            entries.append(entry)
        }
        return entries
    }

    /// The iterator of a search.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let lifetime: SearchLifetime<LDAPEntry>
        /// The entries taken from the channel and not returned yet, from ``position``.
        private var batch: [LDAPEntry] = []
        private var position = 0

        init(lifetime: SearchLifetime<LDAPEntry>) {
            self.lifetime = lifetime
        }

        /// The next entry, or `nil` when the search is complete.
        public mutating func next() async throws -> LDAPEntry? {
            if position == batch.count {
                batch = []
                position = 0
                batch = try await lifetime.channel.nextBatch()
                guard !batch.isEmpty else { return nil }
            }
            defer { position += 1 }
            return batch[position]
        }
    }
}

/// Abandons a search whose iterator is dropped before the end.
final class SearchLifetime<Element: Sendable>: Sendable {
    let channel: SearchChannel<Element>

    init(channel: SearchChannel<Element>) {
        self.channel = channel
    }

    deinit {
        if !channel.isFinished {
            channel.cancel()
        }
    }
}
