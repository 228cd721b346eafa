import Foundation
import LDAPKit
import SQLiteKit

extension PeopleIndex {
    /// The database and its statements, used under the index's lock.
    final class Store {
        let database: SQLiteDatabase
        let scope: Scope
        let folding = NameFolding()
        private let base: String
        private var statements: [String: SQLiteStatement] = [:]
        /// A full load under way, if any.
        private var load: FullLoad?

        init(database: SQLiteDatabase, scope: Scope) throws {
            self.database = database
            self.scope = scope
            base = scope.base
            try database.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
            try database.transaction(immediate: true) {
                // An index of another scope, or made with other keys (whose tables may have
                // other columns), is made anew.
                if try meta("scope") != scope.description || meta("key-version") != PeopleIndex.keyVersion {
                    try database.execute("DROP TABLE IF EXISTS people; DROP TABLE IF EXISTS postings; DELETE FROM meta")
                    try setMeta("scope", scope.description)
                    try setMeta("key-version", PeopleIndex.keyVersion)
                }
                try database.execute("""
                    CREATE TABLE IF NOT EXISTS people(id INTEGER PRIMARY KEY, uuid BLOB NOT NULL UNIQUE, dn TEXT NOT NULL,
                                                      record BLOB NOT NULL, sortkey BLOB NOT NULL);
                    CREATE TABLE IF NOT EXISTS postings(key BLOB PRIMARY KEY, ids BLOB NOT NULL) WITHOUT ROWID;
                    """)
            }
        }

        func statement(_ sql: String) throws -> SQLiteStatement {
            if let prepared = statements[sql] {
                prepared.reset()
                return prepared
            }
            let prepared = try database.prepare(sql)
            statements[sql] = prepared
            return prepared
        }

        // MARK: Meta

        func meta(_ key: String) throws -> String? {
            let select = try statement("SELECT value FROM meta WHERE key = ?")
            try select.bind(key, at: 1)
            defer { select.reset() }
            return try select.step() ? select.text(at: 0) : nil
        }

        func setMeta(_ key: String, _ value: String?) throws {
            if let value {
                let upsert = try statement(
                    "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
                try upsert.bind(key, at: 1)
                try upsert.bind(value, at: 2)
                try upsert.run()
            } else {
                let delete = try statement("DELETE FROM meta WHERE key = ?")
                try delete.bind(key, at: 1)
                try delete.run()
            }
        }

        func count() throws -> Int {
            let select = try statement("SELECT count(*) FROM people")
            defer { select.reset() }
            return try select.step() ? Int(select.int64(at: 0)) : 0
        }

        /// Empties the index of people, keeping its scope.
        func removeEverything() throws {
            try database.execute("""
                DELETE FROM people; DELETE FROM postings;
                DELETE FROM meta WHERE key NOT IN ('scope', 'key-version');
                """)
        }

        // MARK: Reading everyone

        /// What a full load gathers in memory: each key's ids, and the vocabulary, written
        /// once per key when it is flushed.
        ///
        /// A key's ids are a chain through two flat arrays (each id, and where the key's
        /// previous one is), not an array of its own: most keys have one or two people, and
        /// an array each cost a third of a million allocations at 100,000 people.
        private final class FullLoad {
            /// The keys, each numbered by its place in ``lastPosting``.
            var keys = KeyTable()
            /// Each key's last id, as a place in ``ids``.
            var lastPosting: [Int32] = []
            /// The ids filed, and for each, the place of the same key's id before it (-1: none).
            var ids: [Int64] = []
            var previous: [Int32] = []
            var filed = 0
            var nextID: Int64 = 1
            /// The vocabulary: the words seen, and the shelves of those not written yet.
            var words = KeyTable()
            var shelves: [Int: [UInt8]] = [:]
            /// Whether lists were written already, to be appended to.
            var flushed = false
            /// Everyone filed, by the start of their order (``Candidate/order``), for their
            /// positions. (Someone the server sent twice is here twice, the first time under an
            /// id whose row was replaced: a position nobody is found at.)
            var placed: [Placed] = []
            /// Each id's whole order and DN (the first id's first), for the few alike in the start
            /// of their orders.
            var whole: [(order: [UInt8], dn: String)] = []
        }

        /// The most ids a full load gathers before it writes them: some 100,000 people's.
        static let loadFlushThreshold = 1_200_000

        /// Starts reading everyone anew: the index is emptied and marked incomplete (lookups
        /// search the server meanwhile) until ``finishFullLoad()``.
        func beginFullLoad() throws {
            try removeEverything()
            try setMeta("incomplete", "it is being made")
            load = FullLoad()
        }

        /// Files `person` during a full load: their row now, their keys in memory.
        func load(_ person: FiledPerson) throws {
            guard let load else { return try put(person) }
            let keys = person.keys
            let id = load.nextID
            let insert = try statement("INSERT OR REPLACE INTO people(id, uuid, dn, record, sortkey) VALUES (?, ?, ?, ?, ?)")
            try insert.bind(id, at: 1)
            try insert.bind(blob: person.uuid, at: 2)
            try insert.bind(relative(person.dn), at: 3)
            try insert.bind(blob: person.record.bytes, at: 4)
            try insert.bind(blob: keys.order, at: 5)
            try insert.run()
            // A replaced row (the server sent someone twice) leaves its id in lists: harmless,
            // it finds no row, and its keys were the same person's.
            load.nextID += 1
            load.placed.append(Placed(keys.order, id: id))
            load.whole.append((keys.order, person.dn))
            for key in keys.keys {
                let posting = Int32(load.ids.count)
                load.ids.append(id)
                let (place, isNew) = load.keys.insert(key)
                if isNew {
                    load.lastPosting.append(posting)
                    load.previous.append(-1)
                } else {
                    load.previous.append(load.lastPosting[place])
                    load.lastPosting[place] = posting
                }
            }
            load.filed += keys.keys.count
            for word in keys.words where load.words.insert(word).inserted {
                Vocabulary.append(word, to: &load.shelves[Vocabulary.letters(of: word).count, default: []])
            }
            if load.filed >= Self.loadFlushThreshold { try flushLoad() }
        }

        /// Writes what the full load has gathered: each key's ids appended to its row.
        func flushLoad() throws {
            guard let load else { return }
            // In key order, so that the table's pages are written from first to last; put in
            // order on another thread while this one writes (``LoadedPostings``). The arrays
            // are read as locals: each read of the load's own, a class's, was checked for
            // exclusive access.
            let (keys, appending) = (load.keys, load.flushed)
            let lists = LoadedPostings(keys: keys, lastPosting: load.lastPosting, ids: load.ids, previous: load.previous)
            let select = appending ? try statement("SELECT ids FROM postings WHERE key = ?") : nil
            let write = try statement(appending ? "INSERT OR REPLACE INTO postings(key, ids) VALUES (?, ?)"
                                                : "INSERT INTO postings(key, ids) VALUES (?, ?)")
            var list: [UInt8] = []
            for number in 0..<lists.blockCount {
                let block = lists.take(number)
                for index in block.places.indices {
                    try appendLoaded(block.ids(at: index), to: keys[Int(block.places[index])], in: &list,
                                     select: select, write: write)
                }
            }
            for (length, words) in load.shelves { try appendToShelf(words, length: length) }
            load.shelves.removeAll()
            load.keys.removeAll()
            load.lastPosting.removeAll()
            load.ids.removeAll()
            load.previous.removeAll()
            load.filed = 0
            load.flushed = true
        }

        /// Writes `ids` (ascending, after any the key has) under `key` with `write`: a new row,
        /// or, when earlier batches were written, the row `select` reads with them appended.
        /// `list` is where the row is put together, its room kept from one key to the next.
        private func appendLoaded(_ ids: ArraySlice<Int64>, to key: ArraySlice<UInt8>, in list: inout [UInt8],
                                  select: SQLiteStatement?, write: SQLiteStatement) throws {
            list.removeAll(keepingCapacity: true)
            if let select {
                var last: Int64 = 0
                try select.bind(blob: key, at: 1)
                if try select.step() {
                    list = select.bytes(at: 0)
                    last = Postings.decode(list).last ?? 0
                }
                select.reset()
                Postings.append(ids.filter { $0 > last }, to: &list, after: last)
            } else {
                Postings.append(ids, to: &list, after: 0)
            }
            try write.bind(blob: key, at: 1)
            try write.bind(blob: list, at: 2)
            try write.run()
        }

        /// Ends a full load: what is gathered is written.
        func finishFullLoad() throws {
            guard let load else { return }
            // Everyone's position is worked out on another thread while the lists are written.
            let (placed, whole, base) = (load.placed, load.whole, base)
            let sorting = Concurrently {
                Self.sorted(placed) { id in
                    let (order, dn) = whole[Int(id) - 1]
                    return (order, Self.asLookedUp(Self.absolute(Self.relative(dn, to: base), to: base)))
                }
            }
            try flushLoad()
            self.load = nil
            try writePositions(sorting.value())
        }

        /// Whether a full load is under way.
        var isLoading: Bool { load != nil }

        // MARK: Changes

        /// Files `person` in place of what the index held of them: their row, and their keys
        /// where they changed.
        func put(_ person: FiledPerson) throws {
            let (record, keys, uuid) = (person.record, person.keys, person.uuid)
            let dn = relative(person.dn)
            if let (id, old, oldDN, oldOrder) = try row(uuid: uuid) {
                let oldKeys = IndexKeys(of: old.values(), folding: folding).keys
                let update = try statement("UPDATE people SET dn = ?, record = ?, sortkey = ? WHERE id = ?")
                try update.bind(dn, at: 1)
                try update.bind(blob: record.bytes, at: 2)
                try update.bind(blob: keys.order, at: 3)
                try update.bind(id, at: 4)
                try update.run()
                // Someone renamed, or moved among namesakes, takes another place.
                if oldDN != dn || oldOrder != keys.order { try invalidatePositions() }
                for key in oldKeys where !keys.keys.contains(key) { try remove(id, from: Array(key)) }
                for key in keys.keys where !oldKeys.contains(key) { try add(id, to: Array(key)) }
            } else {
                let insert = try statement("INSERT INTO people(uuid, dn, record, sortkey) VALUES (?, ?, ?, ?)")
                try insert.bind(blob: uuid, at: 1)
                try insert.bind(dn, at: 2)
                try insert.bind(blob: record.bytes, at: 3)
                try insert.bind(blob: keys.order, at: 4)
                try insert.run()
                let id = database.lastInsertedRowID
                try invalidatePositions()
                for key in keys.keys { try add(id, to: Array(key)) }
            }
            for word in keys.words { try fileWord(Array(word)) }
        }

        /// Adds `word` to the vocabulary, unless it is there.
        private func fileWord(_ word: [UInt8]) throws {
            let length = Vocabulary.letters(of: word).count
            var held = false
            try forEachKey(prefix: Vocabulary.shelfKey(length: length)) { _, row in
                if !held && Vocabulary.shelf(row, holds: word) { held = true }
            }
            guard !held else { return }
            var entry: [UInt8] = []
            Vocabulary.append(word, to: &entry)
            try appendToShelf(entry, length: length)
        }

        /// Appends `words` (as ``Vocabulary/append(_:to:)`` writes them) to the shelf of words
        /// of `length` letters: to its last row while it has room (``Vocabulary/rowBytes``),
        /// then to rows after it.
        private func appendToShelf(_ words: [UInt8], length: Int) throws {
            let last = try selecting("key, ids", prefix: Vocabulary.shelfKey(length: length), then: " ORDER BY key DESC LIMIT 1")
            var row = 0, current: [UInt8] = []
            if try last.step() {
                let key = last.bytes(at: 0)
                if key.count == 4 { row = Int(key[2]) << 8 | Int(key[3]) }
                current = last.bytes(at: 1)
            }
            last.reset()
            var start = 0
            for end in Vocabulary.ends(in: words) {
                if !current.isEmpty && current.count + (end - start) > Vocabulary.rowBytes && row < 0xFFFF {
                    try setValue(current, of: Vocabulary.shelfKey(length: length, row: row))
                    row += 1
                    current = []
                }
                current += words[start..<end]
                start = end
            }
            if !current.isEmpty { try setValue(current, of: Vocabulary.shelfKey(length: length, row: row)) }
        }

        /// Removes the person with the identifier `uuid`; returns whether the index had them.
        @discardableResult
        func remove(uuid: [UInt8]) throws -> Bool {
            guard let (id, record, _, _) = try row(uuid: uuid) else { return false }
            try remove(id: id, record: record)
            return true
        }

        private func remove(id: Int64, record: PersonRecord) throws {
            for key in IndexKeys(of: record.values(), folding: folding).keys { try remove(id, from: Array(key)) }
            let delete = try statement("DELETE FROM people WHERE id = ?")
            try delete.bind(id, at: 1)
            try delete.run()
        }

        /// Removes everyone whose identifier is not in `kept`: the end of a refresh that named
        /// everyone present. (The vocabulary keeps its words: a word nobody has any more finds
        /// nobody.)
        func removeAll(except kept: Set<[UInt8]>) throws -> Int {
            var gone: [(Int64, PersonRecord)] = []
            let select = try statement("SELECT id, uuid, record FROM people")
            while try select.step() {
                if !kept.contains(select.bytes(at: 1)) { gone.append((select.int64(at: 0), PersonRecord(bytes: select.bytes(at: 2)))) }
            }
            select.reset()
            for (id, record) in gone { try remove(id: id, record: record) }
            return gone.count
        }

        /// The id, record, DN (as kept) and order of the person with the identifier `uuid`.
        private func row(uuid: [UInt8]) throws -> (Int64, PersonRecord, String, [UInt8])? {
            let select = try statement("SELECT id, record, dn, sortkey FROM people WHERE uuid = ?")
            try select.bind(blob: uuid, at: 1)
            defer { select.reset() }
            guard try select.step() else { return nil }
            return (select.int64(at: 0), PersonRecord(bytes: select.bytes(at: 1)), select.text(at: 2), select.bytes(at: 3))
        }

        // MARK: Positions

        /// How many people's positions a row holds: where each person comes in the order ties
        /// between equal scores are broken by (their ``Candidate/order``, then their DN), so
        /// that a lookup can take the best few of thousands without reading them
        /// (``rankedCandidates(for:)``). A lookup reads the rows of the people it found, not
        /// everyone's: one row of a million people's was 4 MB read by every lookup.
        ///
        /// A row of 240 (960 bytes) stays in its page: SQLite keeps a row of this table of up
        /// to 1,002 bytes (in pages of 4,096) where it is, read in place, and puts the rest of
        /// a longer one on overflow pages, which it copies out to be read. Rows of 4,096 (16 KB
        /// each) were copied whole for the few people of each a lookup needed.
        static let positionsPerRow = 240

        /// The key of row `row` of the positions: the ids from `row * positionsPerRow`.
        static func positionsKey(row: Int) -> [UInt8] {
            [Postings.Kind.positions.rawValue] + (0..<4).map { UInt8(truncatingIfNeeded: row >> (8 * (3 - $0))) }
        }

        /// Drops the positions, which someone new or renamed makes wrong: lookups read everyone
        /// they may mean until ``updatePositions()``.
        func invalidatePositions() throws {
            let delete = try statement("DELETE FROM postings WHERE key >= x'72' AND key < x'73'")
            try delete.run()
        }

        /// Whether the positions are worked out (for everyone: anyone new drops them all).
        func hasPositions() throws -> Bool {
            let present = try statement("SELECT 1 FROM postings WHERE key = ?")
            try present.bind(blob: Self.positionsKey(row: 0), at: 1)
            defer { present.reset() }
            return try present.step()
        }

        /// The positions of row `row` (a 32-bit number per id, little-endian; 0 for nobody).
        func positions(row: Int) throws -> [UInt8]? {
            try value(of: Self.positionsKey(row: row))
        }

        /// Works the positions out again, unless they are current: everyone's order and DN,
        /// sorted (at the end of a sync that added or renamed someone).
        func updatePositions() throws {
            guard try !hasPositions() else { return }
            var people: [Placed] = []
            let select = try statement("SELECT id, sortkey FROM people")
            while try select.step() {
                let id = select.int64(at: 0)
                people.append(select.withBytes(at: 1) { order in Placed(order, id: id) })
            }
            select.reset()
            try writePositions(Self.sorted(people, whole: orderAndDN(id:)))
        }

        /// A person by the start of their order: its first sixteen bytes as two integers.
        struct Placed: Sendable {
            var first: UInt64, second: UInt64, id: Int64

            init<Order: RandomAccessCollection<UInt8>>(_ order: Order, id: Int64) where Order.Index == Int {
                (first, second) = (Candidate.SortKey.integer(order, from: 0), Candidate.SortKey.integer(order, from: 8))
                self.id = id
            }
        }

        /// `people` in order: by the start of their orders, which most people's differ in, and
        /// only those alike there by their whole orders (`whole` gives a person's, and their DN
        /// as a lookup gives it back) and then, namesakes, by DN. Comparing a million orders
        /// whole took three seconds of a sync.
        static func sorted(_ people: [Placed], whole: (Int64) throws -> (order: [UInt8], dn: String)) rethrows -> [Placed] {
            var people = people.sorted { ($0.first, $0.second) < ($1.first, $1.second) }
            var start = 0
            while start < people.count {
                var end = start + 1
                while end < people.count && people[end].first == people[start].first && people[end].second == people[start].second {
                    end += 1
                }
                if end - start > 1 {
                    var alike: [Int64: (order: [UInt8], dn: String)] = [:]
                    for person in people[start..<end] { alike[person.id] = try whole(person.id) }
                    people[start..<end].sort { lhs, rhs in
                        let left = alike[lhs.id] ?? ([], ""), right = alike[rhs.id] ?? ([], "")
                        if left.order != right.order { return left.order.lexicographicallyPrecedes(right.order) }
                        return left.dn.utf8.lexicographicallyPrecedes(right.dn.utf8)
                    }
                }
                start = end
            }
            return people
        }

        /// Writes the positions of `people`, in order (``sorted(_:whole:)``).
        private func writePositions(_ people: [Placed]) throws {
            let largest = people.lazy.map(\.id).max() ?? 0
            guard largest < Int64(UInt32.max) else { return }
            // Position 0 is nobody's: an id without a place (there is none) is read, not ranked.
            var positions = [UInt8](repeating: 0, count: 4 * (Int(largest) + 1))
            for (place, person) in people.enumerated() {
                let value = UInt32(place + 1), at = 4 * Int(person.id)
                for byte in 0..<4 { positions[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte))) }
            }
            try invalidatePositions()
            for row in 0...(Int(largest) / Self.positionsPerRow) {
                let start = 4 * row * Self.positionsPerRow
                try setValue(Array(positions[start..<min(start + 4 * Self.positionsPerRow, positions.count)]),
                             of: Self.positionsKey(row: row))
            }
        }

        /// The order of the person with `id`, and their DN as a lookup gives it back (parsed,
        /// as ``entry(id:)`` gives it).
        private func orderAndDN(id: Int64) throws -> (order: [UInt8], dn: String) {
            let select = try statement("SELECT sortkey, dn FROM people WHERE id = ?")
            try select.bind(id, at: 1)
            defer { select.reset() }
            guard try select.step() else { return ([], "") }
            return (select.bytes(at: 0), Self.asLookedUp(absolute(select.text(at: 1))))
        }

        /// `dn` as a lookup gives it back: parsed, as ``entry(id:)`` parses it.
        static func asLookedUp(_ dn: String) -> String {
            (try? DistinguishedName(parsing: dn))?.string ?? dn
        }

        /// The ids under `key`.
        func list(_ key: [UInt8]) throws -> [Int64] {
            let select = try statement("SELECT ids FROM postings WHERE key = ?")
            try select.bind(blob: key, at: 1)
            defer { select.reset() }
            return try select.step() ? Postings.decode(select.bytes(at: 0)) : []
        }

        private func store(_ ids: [Int64], under key: [UInt8]) throws {
            if ids.isEmpty {
                let delete = try statement("DELETE FROM postings WHERE key = ?")
                try delete.bind(blob: key, at: 1)
                try delete.run()
            } else {
                let upsert = try statement("INSERT OR REPLACE INTO postings(key, ids) VALUES (?, ?)")
                try upsert.bind(blob: key, at: 1)
                try upsert.bind(blob: Postings.encode(ids), at: 2)
                try upsert.run()
            }
        }

        private func add(_ id: Int64, to key: [UInt8]) throws {
            var ids = try list(key)
            if let last = ids.last, last >= id {
                guard !ids.contains(id) else { return }
                ids.insert(id, at: ids.firstIndex { $0 > id } ?? ids.count)
            } else {
                ids.append(id)
            }
            try store(ids, under: key)
        }

        private func remove(_ id: Int64, from key: [UInt8]) throws {
            var ids = try list(key)
            guard let index = ids.firstIndex(of: id) else { return }
            ids.remove(at: index)
            try store(ids, under: key)
        }

        // MARK: Looking up

        /// The ids filed under every key that starts with `prefix`, into `ids`.
        func collect(prefix: [UInt8], into ids: inout Set<Int64>) throws {
            try forEachKey(prefix: prefix) { _, list in Postings.forEachID(in: list) { ids.insert($0) } }
        }

        /// Calls `body` with each key that starts with `prefix` and its list, read in place.
        func forEachKey(prefix: [UInt8], _ body: ([UInt8], UnsafeBufferPointer<UInt8>) -> Void) throws {
            let select = try selecting("key, ids", prefix: prefix)
            defer { select.reset() }
            while try select.step() {
                let key = select.bytes(at: 0)
                select.withBytes(at: 1) { body(key, $0) }
            }
        }

        /// How many bytes the lists of the keys `prefix` starts hold, in all. (SQLite reads a
        /// value's length from its row's header, not the value.)
        func listBytes(prefix: [UInt8]) throws -> Int {
            let select = try selecting("total(length(ids))", prefix: prefix)
            defer { select.reset() }
            return try select.step() ? Int(select.int64(at: 0)) : 0
        }

        /// The statement that selects `columns` of the rows of `postings` whose keys start with
        /// `prefix`, `then` (an order, a limit), bound.
        private func selecting(_ columns: String, prefix: [UInt8], then rest: String = "") throws -> SQLiteStatement {
            let select: SQLiteStatement
            if let end = Postings.end(ofPrefix: prefix) {
                select = try statement("SELECT \(columns) FROM postings WHERE key >= ? AND key < ?\(rest)")
                try select.bind(blob: prefix, at: 1)
                try select.bind(blob: end, at: 2)
            } else {
                select = try statement("SELECT \(columns) FROM postings WHERE key >= ?\(rest)")
                try select.bind(blob: prefix, at: 1)
            }
            return select
        }

        /// The value of the row `key` of `postings`, if there is one.
        func value(of key: [UInt8]) throws -> [UInt8]? {
            try withValue(of: key) { Array($0) }
        }

        /// Calls `body` with the value of the row `key` of `postings`, read in place; `nil`
        /// when there is no such row.
        func withValue<Result>(of key: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result? {
            let select = try statement("SELECT ids FROM postings WHERE key = ?")
            try select.bind(blob: key, at: 1)
            defer { select.reset() }
            guard try select.step() else { return nil }
            return try select.withBytes(at: 0, body)
        }

        /// Sets the row `key` of `postings` to `value`.
        func setValue(_ value: [UInt8], of key: [UInt8]) throws {
            let upsert = try statement("INSERT OR REPLACE INTO postings(key, ids) VALUES (?, ?)")
            try upsert.bind(blob: key, at: 1)
            try upsert.bind(blob: value, at: 2)
            try upsert.run()
        }

        /// The entry of the person with `id`, with their `entryUUID` when the server gave them
        /// one (a server without it identifies people by their DN alone).
        func entry(id: Int64) throws -> LDAPEntry? {
            let select = try statement("SELECT uuid, dn, record FROM people WHERE id = ?")
            try select.bind(id, at: 1)
            defer { select.reset() }
            guard try select.step(), let dn = try? DistinguishedName(parsing: absolute(select.text(at: 1))) else { return nil }
            var entry = PersonRecord(bytes: select.bytes(at: 2)).entry(dn: dn)
            let uuid = select.bytes(at: 0)
            if uuid.count == 16 { entry.attributes.append(LDAPAttribute(name: "entryUUID", values: [LDAPValue(EntryUUID.text(of: uuid))])) }
            return entry
        }

        private func relative(_ dn: String) -> String { Self.relative(dn, to: base) }

        private func absolute(_ kept: String) -> String { Self.absolute(kept, to: base) }

        /// The DN as kept: without the base it ends with (most do), else whole after a `=`,
        /// which no relative DN starts with.
        private static func relative(_ dn: String, to base: String) -> String {
            var suffix = "," + base
            // Most DNs end with the base as it was typed, or in another case of ASCII: their
            // bytes compared where they are (lowering both as strings cost a fortieth of making
            // the index, and so did comparing them through their UTF-8 views).
            var whole = dn
            let asTyped = whole.withUTF8 { dn in
                suffix.withUTF8 { suffix -> String? in
                    guard dn.count > suffix.count else { return nil }
                    let start = dn.count - suffix.count
                    for offset in 0..<suffix.count {
                        let a = dn[start + offset], b = suffix[offset]
                        guard a == b || (a | 0x20 == b | 0x20 && (a | 0x20) &- 0x61 < 26) else { return nil }
                    }
                    return String(decoding: UnsafeBufferPointer(rebasing: dn[..<start]), as: UTF8.self)
                }
            }
            if let asTyped { return asTyped }
            // The DN's last bytes, as many as the suffix has (a letter that lowers to more or
            // fewer bytes, ẞ to ß, makes them another name).
            if dn.utf8.count > suffix.utf8.count, let ending = String(dn.utf8.suffix(suffix.utf8.count)),
               ending.lowercased() == suffix.lowercased(), let kept = String(dn.utf8.dropLast(suffix.utf8.count)) {
                return kept
            }
            return "=" + dn
        }

        /// The DN kept as `kept`, whole again.
        private static func absolute(_ kept: String, to base: String) -> String {
            kept.hasPrefix("=") ? String(kept.dropFirst()) : kept + "," + base
        }
    }
}

/// A person as the index files them, worked out from their entry before the index is locked:
/// what it keeps of them, and their keys.
struct FiledPerson: Sendable {
    /// The DN, as the server wrote it.
    let dn: String
    /// The entryUUID's bytes (or another server's identifier).
    let uuid: [UInt8]
    /// What the index keeps.
    let record: PersonRecord
    /// What it files them under, and what ties between equal scores are broken on first
    /// (``IndexKeys/order``).
    let keys: IndexKeys

    /// The person of `entry`, identified by `uuid`, their names folded by `folding`.
    ///
    /// Worked out on the thread that read the entry, which frees it: handing the entry's
    /// values to the index's writer to work out the keys there made a sync of 100,000
    /// people take 40% longer (the writer's thread took the reader's place as the slower,
    /// with a third more CPU time in all).
    init(_ entry: LDAPEntry, uuid: [UInt8], folding: NameFolding) {
        dn = entry.dn.string
        self.uuid = uuid
        let made = PersonRecord(entry: entry)
        keys = IndexKeys(of: made.held, folding: folding)
        // Only the bytes go on: the entry's values are freed here, on the thread that read them.
        record = PersonRecord(bytes: made.bytes)
    }
}
