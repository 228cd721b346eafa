import Foundation
import SQLiteKit
import Testing

@Suite("SQLiteKit: a database, its statements and its errors")
struct SQLiteDatabaseTests {
    @Test("values go in and come out as they were: integers, text, bytes, empty blobs and NULL")
    func roundTrip() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t(i INTEGER, s TEXT, b BLOB)")
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?, ?)")
        try insert.bind(Int64.max, at: 1)
        try insert.bind("Zoë Ångström 王伟", at: 2)
        try insert.bind(blob: [0, 1, 255], at: 3)
        try insert.run()
        try insert.bind(-1, at: 1)
        try insert.bind("", at: 2)
        try insert.bind(blob: [UInt8](), at: 3)
        try insert.run()
        try insert.bindNull(at: 3)
        try insert.run()
        #expect(database.lastInsertedRowID == 3)
        let select = try database.prepare("SELECT i, s, b, b IS NULL FROM t ORDER BY rowid")
        var rows: [(Int64, String, [UInt8], Bool)] = []
        while try select.step() {
            rows.append((select.int64(at: 0), select.text(at: 1), select.bytes(at: 2), select.isNull(at: 2)))
        }
        #expect(rows.count == 3)
        #expect(rows[0] == (Int64.max, "Zoë Ångström 王伟", [0, 1, 255], false))
        #expect(rows[1].0 == -1 && rows[1].1 == "" && rows[1].2.isEmpty && !rows[1].3)
        #expect(rows[2].3)
    }

    @Test("a transaction commits what its body did, and a body that throws leaves nothing")
    func transactions() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE TABLE t(a INTEGER)")
        try database.transaction { try database.execute("INSERT INTO t VALUES (1)") }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try database.transaction(immediate: true) {
                try database.execute("INSERT INTO t VALUES (2)")
                throw Stop()
            }
        }
        let count = try database.prepare("SELECT count(*), sum(a) FROM t")
        #expect(try count.step())
        #expect(count.int64(at: 0) == 1 && count.int64(at: 1) == 1)
    }

    @Test("errors carry SQLite's message and code: bad SQL, a constraint, a file that is no database")
    func errors() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        let bad = #expect(throws: SQLiteError.self) { try database.prepare("SELEKT 1") }
        #expect(bad?.message.contains("syntax error") == true)
        try database.execute("CREATE TABLE t(a INTEGER PRIMARY KEY)")
        try database.execute("INSERT INTO t VALUES (1)")
        let duplicate = #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO t VALUES (1)") }
        #expect(duplicate?.message.contains("UNIQUE") == true)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-database-\(UUID().uuidString)")
        try Data(repeating: 0x41, count: 8192).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let opened = try SQLiteDatabase(path: file.path)
        let damaged = #expect(throws: SQLiteError.self) { try opened.execute("SELECT * FROM sqlite_master") }
        #expect(damaged?.isDamaged == true)
    }

    @Test("a second connection waits for the first's write lock, then reports busy")
    func busy() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let first = try SQLiteDatabase(path: file.path)
        try first.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(a INTEGER)")
        let second = try SQLiteDatabase(path: file.path)
        second.setBusyTimeout(milliseconds: 50)
        try first.execute("BEGIN IMMEDIATE")
        let error = #expect(throws: SQLiteError.self) { try second.execute("BEGIN IMMEDIATE") }
        #expect(error?.isBusy == true)
        // A reader is not held up by the writer.
        let read = try second.prepare("SELECT count(*) FROM t")
        #expect(try read.step())
        read.reset()
        try first.execute("COMMIT")
        try second.execute("BEGIN IMMEDIATE; COMMIT")
    }

    @Test("full-text search (FTS5) is built into the library, with prefix queries")
    func fullTextSearch() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE VIRTUAL TABLE k USING fts5(word, tokenize='ascii', content='', detail=none)")
        try database.execute("INSERT INTO k(rowid, word) VALUES (7, 'mueller muller')")
        let match = try database.prepare("SELECT rowid FROM k WHERE k MATCH ?")
        try match.bind("\"mue\"*", at: 1)
        #expect(try match.step())
        #expect(match.int64(at: 0) == 7)
        #expect(SQLiteDatabase.libraryVersion.hasPrefix("3."))
    }
}
