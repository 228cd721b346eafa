/// Byte strings, each once, numbered from 0 in the order they were first added: the keys
/// and words a full load of the local index gathers (``PeopleIndex/Store/load(_:)``).
///
/// The strings are kept one after another in one array, and found through an
/// open-addressed table of their numbers, by a hash of their bytes. A `Dictionary` of byte
/// arrays did the same at a million keys for 100,000 people with an array per key, hashing
/// each key with SipHash and comparing keys as generic collections: a sixth of the time
/// a full load spent on its own thread (BENCHMARKS.md, workload 6).
struct KeyTable {
    /// The strings, one after another.
    private(set) var bytes: [UInt8] = []
    /// Where each string ends in ``bytes``: string `n` is from `ends[n - 1]` (0 for the first).
    private var ends: [Int] = []
    /// Each string's hash, so that growing the table and most mismatches need no bytes.
    private var hashes: [UInt32] = []
    /// The table: a string's number plus one, 0 for an empty slot.
    private var slots: [Int32] = []

    /// How many strings there are.
    var count: Int { ends.count }

    var isEmpty: Bool { ends.isEmpty }

    /// String number `number`.
    subscript(number: Int) -> ArraySlice<UInt8> {
        bytes[(number == 0 ? 0 : ends[number - 1])..<ends[number]]
    }

    /// The number of `key`, added as the next when it is not there yet; and whether it was
    /// added.
    mutating func insert(_ key: ArraySlice<UInt8>) -> (number: Int, inserted: Bool) {
        if 2 * (count + 1) > slots.count { grow() }
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let found = Int(slots[slot]) - 1
            if found < 0 { break }
            if hashes[found] == hash && self[found].elementsEqual(key) { return (found, false) }
            slot = (slot + 1) & mask
        }
        let number = count
        guard number < Int32.max else { preconditionFailure("more keys than a table numbers") }
        slots[slot] = Int32(number + 1)
        bytes += key
        ends.append(bytes.count)
        hashes.append(hash)
        return (number, true)
    }

    /// ``insert(_:)-(ArraySlice<UInt8>)`` of a whole array.
    mutating func insert(_ key: [UInt8]) -> (number: Int, inserted: Bool) {
        insert(key[...])
    }

    /// Empties the table, keeping its room.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        for index in slots.indices { slots[index] = 0 }
    }

    /// Doubles the table (at least 64 slots) and puts every string back by its hash.
    private mutating func grow() {
        let capacity = max(64, 2 * slots.count)
        slots = [Int32](repeating: 0, count: capacity)
        let mask = capacity - 1
        for number in hashes.indices {
            var slot = Int(hashes[number]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number + 1)
        }
    }

    /// FNV-1a of the bytes, its bits then mixed so that the low ones, which pick the slot,
    /// depend on every byte.
    static func hash(_ key: ArraySlice<UInt8>) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash ^= hash >> 29
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
