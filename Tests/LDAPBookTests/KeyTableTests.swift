@testable import LDAPBook
import Testing

@Suite("KeyTable: byte strings each once, numbered as first added")
struct KeyTableTests {
    @Test("a string added again has its first number; another gets the next")
    func numbering() {
        var table = KeyTable()
        #expect(table.insert(Array("nada".utf8)) == (0, true))
        #expect(table.insert(Array("nadb".utf8)) == (1, true))
        #expect(table.insert(Array("nada".utf8)) == (0, false))
        // A prefix, the empty string and bytes of every value are strings of their own.
        #expect(table.insert(Array("nad".utf8)) == (2, true))
        #expect(table.insert([]) == (3, true))
        #expect(table.insert([]) == (3, false))
        #expect(table.insert([0x00, 0xFF]) == (4, true))
        #expect(table.count == 5)
        #expect(Array(table[0]) == Array("nada".utf8) && Array(table[2]) == Array("nad".utf8) && table[3].isEmpty)
        #expect(Array(table[4]) == [0x00, 0xFF])
    }

    @Test("a slice is found by its bytes, wherever it is cut from")
    func slices() {
        var table = KeyTable()
        let whole = Array("xxberg".utf8)
        #expect(table.insert(whole[2...]) == (0, true))
        #expect(table.insert(Array("berg".utf8)) == (0, false))
    }

    @Test("tens of thousands of strings, as a full load files them, against a Set")
    func manyAgainstASet() {
        var table = KeyTable()
        var seen: [[UInt8]: Int] = [:]
        var generator = SplitMix(state: 7)
        for _ in 0..<50_000 {
            let length = Int.random(in: 0...6, using: &generator)
            // Few letters, so that most strings come again.
            let key = (0..<length).map { _ in UInt8.random(in: 0x61...0x64, using: &generator) }
            let (number, inserted) = table.insert(key)
            if let known = seen[key] {
                #expect(!inserted && number == known)
            } else {
                #expect(inserted && number == seen.count)
                seen[key] = number
            }
        }
        #expect(table.count == seen.count)
        for (key, number) in seen { #expect(Array(table[number]) == key) }
    }

    @Test("emptied, it numbers from 0 again")
    func emptied() {
        var table = KeyTable()
        for word in ["ada", "grace", "alan"] { _ = table.insert(Array(word.utf8)) }
        table.removeAll()
        #expect(table.isEmpty)
        #expect(table.insert(Array("alan".utf8)) == (0, true))
        #expect(table.insert(Array("ada".utf8)) == (1, true))
    }

    @Test("a full load's lists come out in the order SQLite orders blobs: byte by byte, a prefix first")
    func loadedOrder() {
        // Two alike in their first eight bytes, which the sorting compares first.
        let keys: [[UInt8]] = [[], [0x6E], [0x6E, 0x61], [0x6E, 0x61, 0x00], [0x6E, 0x61, 0x61],
                               [0x6E, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x00], [0x6E, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61, 0x61],
                               [0x6E, 0x62], [0x6E, 0xFF], [0x70], [0xFF]]
        var table = KeyTable()
        var lastPosting: [Int32] = [], ids: [Int64] = [], previous: [Int32] = []
        // Filed in reverse, each key with its place in `keys` as its one id.
        for (place, key) in keys.enumerated().reversed() {
            #expect(table.insert(key).inserted)
            lastPosting.append(Int32(ids.count))
            previous.append(-1)
            ids.append(Int64(place))
        }
        let lists = PeopleIndex.LoadedPostings(keys: table, lastPosting: lastPosting, ids: ids, previous: previous)
        var order: [Int64] = []
        for number in 0..<lists.blockCount {
            let block = lists.take(number)
            for index in block.places.indices { order += block.ids(at: index) }
        }
        #expect(order == Array(0..<Int64(keys.count)))
    }
}
