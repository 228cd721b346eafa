import Foundation

/// The local index's inverted lists: for each key, the people (or words) filed under it, as
/// one row of `postings` whose value is their ids in ascending order, each as its distance
/// from the one before in seven-bit groups (LEB128): a person under a key costs one or two
/// bytes. A prefix of a name is looked up as a range of keys (`jo` is every key from `jo` to
/// `jp`), as a dictionary is read.
///
/// The lists are made in memory while everyone is read and written once per key, where a
/// full-text table (SQLite's FTS5) takes each person's keys one by one: reading 100,000
/// people took three times ldapsearch's time that way (BENCHMARKS.md, workload 6).
enum Postings {
    /// What a key files: the first byte of the key.
    enum Kind: UInt8 {
        /// An address key (``IndexKeys``, the local part as a name key): person ids.
        case address = 0x6D
        /// A name key (``IndexKeys``): person ids.
        case name = 0x6E
        /// A phone key (``IndexKeys/phones``): person ids.
        case phone = 0x70
        /// Where each person comes in the order ties are broken by (``Candidate/order``), in
        /// rows of a few hundred ids: a 32-bit number per id, little-endian
        /// (``PeopleIndex/Store/positionsPerRow``).
        case positions = 0x72
        /// A shelf of the vocabulary (``Vocabulary``): words of one length.
        case shelf = 0x76
    }

    /// The key of `bytes` of `kind`.
    static func key(_ kind: Kind, _ bytes: some Collection<UInt8>) -> [UInt8] {
        var key = [kind.rawValue]
        key.reserveCapacity(bytes.count + 1)
        key += bytes
        return key
    }

    /// The first key after every key that starts with `prefix`: `prefix` with its last byte
    /// one more (carrying past 0xFF); `nil` when there is none (all 0xFF).
    static func end(ofPrefix prefix: [UInt8]) -> [UInt8]? {
        var end = prefix
        while let last = end.last {
            if last < 0xFF {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return nil
    }

    /// `ids` (ascending, each once) as a list.
    static func encode(_ ids: some Sequence<Int64>) -> [UInt8] {
        var bytes: [UInt8] = []
        var previous: Int64 = 0
        for id in ids {
            append(UInt64(id - previous), to: &bytes)
            previous = id
        }
        return bytes
    }

    /// Appends `ids` (ascending, each above every id of the list) to `list`, whose last id is
    /// `last`.
    static func append(_ ids: some Sequence<Int64>, to list: inout [UInt8], after last: Int64) {
        var previous = last
        for id in ids {
            append(UInt64(id - previous), to: &list)
            previous = id
        }
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Calls `body` with each id of a list, in order; a list cut short ends where it is cut,
    /// and a damaged one where an id would be beyond `Int64`.
    static func forEachID(in list: UnsafeBufferPointer<UInt8>, _ body: (Int64) -> Void) {
        var id: Int64 = 0
        var value: UInt64 = 0, shift: UInt64 = 0
        for byte in list {
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                guard let distance = Int64(exactly: value) else { return }
                let (next, overflow) = id.addingReportingOverflow(distance)
                if overflow { return }
                id = next
                body(id)
                value = 0
                shift = 0
            } else {
                shift += 7
                if shift > 63 { return }
            }
        }
    }

    /// The ids of a list.
    static func decode(_ list: [UInt8]) -> [Int64] {
        var ids: [Int64] = []
        list.withUnsafeBufferPointer { forEachID(in: $0) { ids.append($0) } }
        return ids
    }
}
