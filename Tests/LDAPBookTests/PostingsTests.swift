@testable import LDAPBook
import Testing

/// The ids a list of `bytes` holds, read as the index reads them in place.
private func ids(in bytes: [UInt8]) -> [Int64] {
    var found: [Int64] = []
    bytes.withUnsafeBufferPointer { Postings.forEachID(in: $0) { found.append($0) } }
    return found
}

/// Whether `ids` ascend, each once.
private func isStrictlyAscending(_ ids: [Int64]) -> Bool {
    zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }
}

/// A reproducible sequence of pseudo-random numbers (SplitMix64), for the index's property tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Postings: the index's lists of ids under each key")
struct PostingsTests {
    @Test("a list of ids decodes to the same ids, for lists of none, one, many and the largest ids", arguments: [
        [], [1], [0], [127], [128], [16383], [16384], [1, 2, 3], [1, 1000, 1_000_000, 1_000_000_000_000],
        [Int64.max], [1, Int64.max], [Int64.max - 1, Int64.max], [0, Int64.max],
        Array(1...1000), Array(stride(from: 5, to: 100_000, by: 97)),
    ] as [[Int64]])
    func roundTrip(_ list: [Int64]) {
        let encoded = Postings.encode(list)
        #expect(Postings.decode(encoded) == list)
        #expect(ids(in: encoded) == list, "read in place as decoded")
        #expect(list.isEmpty == encoded.isEmpty, "an empty list is no bytes, any other some")
    }

    @Test("each id costs its distance from the one before in seven-bit groups: one byte below 128")
    func encodedSizes() {
        #expect(Postings.encode([1]) == [0x01])
        #expect(Postings.encode([127]) == [0x7F])
        #expect(Postings.encode([128]) == [0x80, 0x01])
        #expect(Postings.encode([300]) == [0xAC, 0x02])
        #expect(Postings.encode([1, 2, 3]) == [1, 1, 1], "neighbours cost a byte each")
        #expect(Postings.encode([100, 228]) == [100, 0x80, 0x01], "the second is 128 after the first")
        #expect(Postings.encode([Int64.max]).count == 9, "63 bits in nine groups")
        #expect(Postings.encode(Array(1...1000)).count == 1000, "a person under a key costs a byte when ids are dense")
    }

    @Test("random ascending lists survive encoding, and appending a later batch equals encoding them all at once")
    func randomListsAndAppending() {
        var generator = SplitMix(state: 2024)
        for _ in 0..<200 {
            let count = Int.random(in: 0...300, using: &generator)
            let set = Set((0..<count).map { _ in Int64.random(in: 1...(1 << Int64.random(in: 1...62, using: &generator)), using: &generator) })
            let list = set.sorted()
            let encoded = Postings.encode(list)
            #expect(Postings.decode(encoded) == list)
            #expect(isStrictlyAscending(Postings.decode(encoded)))

            let cut = Int.random(in: 0...list.count, using: &generator)
            var appended = Postings.encode(list[..<cut])
            Postings.append(list[cut...], to: &appended, after: list[..<cut].last ?? 0)
            #expect(appended == encoded, "appending after the last id of a list is the list of both")
        }
    }

    @Test("appending to an empty list after 0 is encoding; appending nothing changes nothing")
    func appendEdges() {
        var list: [UInt8] = []
        Postings.append([5, 9], to: &list, after: 0)
        #expect(list == Postings.encode([5, 9]))
        let before = list
        Postings.append([Int64](), to: &list, after: 9)
        #expect(list == before)
        Postings.append([Int64.max], to: &list, after: 9)
        #expect(Postings.decode(list) == [5, 9, Int64.max])
    }

    @Test("a list cut short ends where it is cut: the ids before the cut, nothing made up")
    func cutShort() {
        let whole = Postings.encode([3, 200, 70_000])
        #expect(whole == [3, 0xC5, 0x01, 0xA8, 0xA1, 0x04])
        #expect(Postings.decode(Array(whole.prefix(1))) == [3])
        #expect(Postings.decode(Array(whole.prefix(2))) == [3], "a continuation byte with nothing after it is no id")
        #expect(Postings.decode(Array(whole.prefix(5))) == [3, 200])
        #expect(Postings.decode([0x80]).isEmpty)
    }

    @Test("damaged lists never trap: too many continuation bytes, or ids beyond Int64, end the list")
    func damagedLists() {
        #expect(Postings.decode([UInt8](repeating: 0xFF, count: 40)).isEmpty, "no byte ends an id")
        #expect(Postings.decode([UInt8](repeating: 0x80, count: 12) + [0x01]).isEmpty, "more than 63 bits")
        // Ten groups whose last sets bit 63: no Int64.
        let beyond = [UInt8](repeating: 0xFF, count: 9) + [0x01]
        #expect(Postings.decode(beyond).isEmpty)
        #expect(Postings.decode([0x05] + beyond) == [5], "the ids before the damage are kept")
        // Two distances that add up past Int64.max.
        let largest = Postings.encode([Int64.max])
        #expect(Postings.decode(largest + largest) == [Int64.max])
        #expect(Postings.decode([0x07] + largest) == [7], "7 + Int64.max is no id")
        // Arbitrary bytes decode to ascending ids (or repeat one, for a distance of 0).
        var generator = SplitMix(state: 7)
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let found = Postings.decode(bytes)
            #expect(zip(found, found.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test("a key is its kind's byte, then its bytes")
    func keys() {
        #expect(Postings.key(.name, Array("ada".utf8)) == [0x6E, 0x61, 0x64, 0x61])
        #expect(Postings.key(.phone, "1000".utf8) == [0x70, 0x31, 0x30, 0x30, 0x30])
        #expect(Postings.key(.shelf, [UInt8]()) == [0x76])
        #expect(Postings.Kind(rawValue: 0x6E) == .name && Postings.Kind(rawValue: 0x70) == .phone
            && Postings.Kind(rawValue: 0x76) == .shelf)
        #expect(Postings.Kind(rawValue: 0x00) == nil)
    }

    @Test("the end of a prefix is the first key after every key that starts with it", arguments: [
        ([0x6E, 0x6A, 0x6F], [0x6E, 0x6A, 0x70]), ([0x6E, 0xFF], [0x6F]), ([0x6E, 0x61, 0xFF, 0xFF], [0x6E, 0x62]),
        ([0x00], [0x01]), ([0xFE], [0xFF]),
    ] as [([UInt8], [UInt8])])
    func endOfPrefix(_ prefix: [UInt8], _ end: [UInt8]) throws {
        let found = try #require(Postings.end(ofPrefix: prefix))
        #expect(found == end)
        #expect(prefix.lexicographicallyPrecedes(found))
        // Every key that starts with the prefix sorts before the end, as SQLite orders blobs.
        for tail in [[], [0x00], [0xFF], [0xFF, 0xFF, 0xFF], [0x61, 0x62]] as [[UInt8]] {
            #expect((prefix + tail).lexicographicallyPrecedes(found), "\(prefix + tail)")
            #expect(!(prefix + tail).lexicographicallyPrecedes(prefix))
        }
    }

    @Test("a prefix of nothing but 0xFF, or no prefix at all, has no end")
    func noEnd() {
        #expect(Postings.end(ofPrefix: []) == nil)
        #expect(Postings.end(ofPrefix: [0xFF]) == nil)
        #expect(Postings.end(ofPrefix: [0xFF, 0xFF, 0xFF]) == nil)
    }
}
