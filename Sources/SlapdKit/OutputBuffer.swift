import Synchronization

/// A thread-safe byte buffer that keeps only the most recent output of a program.
final class OutputBuffer: Sendable {
    private struct Storage {
        var bytes: [UInt8] = []
        /// How many bytes were ever appended, including those dropped since.
        var totalCount = 0
    }

    /// The number of most recent bytes the buffer guarantees to keep.
    let limit: Int

    private let storage = Mutex(Storage())

    /// Creates an empty buffer that keeps at least the last `limit` bytes.
    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Appends bytes, dropping the oldest ones once the buffer holds twice its limit.
    func append(_ newBytes: some Collection<UInt8>) {
        storage.withLock { storage in
            storage.bytes.append(contentsOf: newBytes)
            storage.totalCount += newBytes.count
            if storage.bytes.count > 2 * limit {
                storage.bytes.removeFirst(storage.bytes.count - limit)
            }
        }
    }

    /// How many bytes were ever appended; pass it to ``text(since:lastBytes:)`` later to see
    /// only what came after this moment.
    var mark: Int {
        storage.withLock { $0.totalCount }
    }

    /// The kept output, decoded as UTF-8 (invalid sequences replaced).
    var text: String {
        text(since: 0, lastBytes: limit)
    }

    /// The output appended after `mark`, at most its last `lastBytes` bytes.
    func text(since mark: Int, lastBytes: Int) -> String {
        storage.withLock { storage in
            let firstKept = storage.totalCount - storage.bytes.count
            let start = max(mark, firstKept, storage.totalCount - lastBytes)
            guard start < storage.totalCount else { return "" }
            return String(decoding: storage.bytes[(start - firstKept)...], as: UTF8.self)
        }
    }
}
