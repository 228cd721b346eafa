import Dispatch
import Synchronization

extension PeopleIndex {
    /// The lists a full load gathered, put in key order and read out of their chains on a
    /// thread of their own, a block of keys at a time, while the caller writes the blocks
    /// before: at the end of a sync nothing else is left to run, and the writing alone (SQLite
    /// inserting the rows) took half of its last third of a second at 100,000 people, the
    /// sorting and the reading of the chains the other half.
    final class LoadedPostings: Sendable {
        /// A block of keys, each with its ids in ascending order.
        struct Block: Sendable {
            /// Each key, as its place in the load's keys.
            var places: [Int32] = []
            /// Where each key's ids end in ``ids``.
            var ends: [Int] = []
            var ids: [Int64] = []

            /// The ids of the `index`-th key of the block.
            func ids(at index: Int) -> ArraySlice<Int64> {
                ids[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
            }
        }

        /// How many keys a block holds: enough that handing one over costs nothing beside
        /// writing it, few enough that the writing starts soon after the sorting.
        static let keysPerBlock = 4096

        let blockCount: Int
        private let blocks: Mutex<[Block?]>
        /// Signalled once for each block ready, in order.
        private let ready = DispatchSemaphore(value: 0)

        /// Starts sorting `keys` and reading their ids: each key's last id (by the key's number
        /// in `keys`) is a place in `ids` (`lastPosting`), and each place in `ids` has the place
        /// of the same key's id before it in `previous` (-1: none).
        init(keys: KeyTable, lastPosting: [Int32], ids: [Int64], previous: [Int32]) {
            blockCount = (keys.count + Self.keysPerBlock - 1) / Self.keysPerBlock
            blocks = Mutex(Array(repeating: nil, count: blockCount))
            DispatchQueue.global().async { [self] in
                // Put in buckets by their first two bytes, and each bucket sorted only when a
                // block needs it: so that the first blocks are written while the later ones
                // are sorted (the writing waited a third as long as it wrote for one sort of
                // every key). In a bucket, keys are sorted by their first eight bytes as an
                // integer, and only keys alike there by all their bytes (comparing every
                // pair's bytes took a third of the writing).
                var order = Self.bucketed(keys)
                var bucket = 0, sortedEnd = 0
                var start = 0
                for number in 0..<blockCount {
                    var block = Block()
                    let end = min(start + Self.keysPerBlock, order.items.count)
                    while sortedEnd < end {
                        while order.bucketEnds[bucket] <= sortedEnd { bucket += 1 }
                        let range = sortedEnd..<order.bucketEnds[bucket]
                        order.items[range].sort { lhs, rhs in
                            lhs.first != rhs.first ? lhs.first < rhs.first : keys[lhs.place].lexicographicallyPrecedes(keys[rhs.place])
                        }
                        sortedEnd = range.upperBound
                    }
                    block.places.reserveCapacity(end - start)
                    block.ends.reserveCapacity(end - start)
                    for (_, place) in order.items[start..<end] {
                        let first = block.ids.count
                        var posting = lastPosting[place]
                        while posting >= 0 {
                            block.ids.append(ids[Int(posting)])
                            posting = previous[Int(posting)]
                        }
                        block.ids[first...].reverse()
                        block.places.append(Int32(place))
                        block.ends.append(block.ids.count)
                    }
                    start = end
                    blocks.withLock { [block] in $0[number] = block }
                    ready.signal()
                }
            }
        }

        /// Every key's place in `keys` with its first eight bytes as an integer, in buckets by
        /// the first two, in their order; and where each bucket ends.
        static func bucketed(_ keys: KeyTable) -> (items: [(first: UInt64, place: Int)], bucketEnds: [Int]) {
            let firsts = (0..<keys.count).map { place in
                let key = keys[place]
                return Candidate.SortKey.integer(key, from: key.startIndex)
            }
            var bucketEnds = [Int](repeating: 0, count: 1 << 16)
            for first in firsts { bucketEnds[Int(first >> 48)] += 1 }
            var total = 0
            for bucket in bucketEnds.indices {
                total += bucketEnds[bucket]
                bucketEnds[bucket] = total
            }
            // Each bucket filled from its end down: its start is where the one before ends.
            var next = bucketEnds
            var items = [(first: UInt64, place: Int)](repeating: (0, 0), count: keys.count)
            for place in firsts.indices.reversed() {
                let bucket = Int(firsts[place] >> 48)
                next[bucket] -= 1
                items[next[bucket]] = (firsts[place], place)
            }
            return (items, bucketEnds)
        }

        /// The `number`-th block, once it is ready; blocks are taken in order, each once.
        func take(_ number: Int) -> Block {
            ready.wait()
            return blocks.withLock { blocks in
                defer { blocks[number] = nil }
                return blocks[number] ?? Block()
            }
        }
    }
}

/// What `work` gives, worked out on a thread of its own while the caller goes on.
final class Concurrently<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once, by the work, before `done` is signalled; read after it is waited for.
    private var result: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async { [self] in
            result = work()
            done.signal()
        }
    }

    /// The value, once it is worked out; asked for once.
    func value() -> Value {
        done.wait()
        return result!
    }
}
