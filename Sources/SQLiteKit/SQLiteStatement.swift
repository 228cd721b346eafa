internal import CSQLite

/// A compiled statement of an ``SQLiteDatabase``: bind its parameters (numbered from 1), step
/// through its rows, read their columns (numbered from 0), and reset it to run it again.
/// A statement is prepared once and run many times; it keeps its database open.
public final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    // MARK: Parameters

    /// Binds an integer to parameter `index` (from 1).
    ///
    /// The corresponding C function is `sqlite3_bind_int64`.
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, value), "bind")
    }

    /// Binds an integer to parameter `index` (from 1).
    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value), at: index)
    }

    /// Binds text to parameter `index` (from 1); SQLite copies it.
    ///
    /// The corresponding C function is `sqlite3_bind_text`.
    public func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        var text = text
        let rc = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { characters in
                // Empty text is text, not NULL: SQLite needs an address for it.
                withUnsafePointer(to: CChar(0)) { empty in
                    csqlite_bind_text_copied(statement, index, characters.baseAddress ?? empty, Int32(clamping: characters.count))
                }
            }
        }
        try check(rc, "bind")
    }

    /// Binds bytes as a blob to parameter `index` (from 1); SQLite copies them.
    ///
    /// The corresponding C function is `sqlite3_bind_blob`.
    public func bind(blob bytes: some Collection<UInt8>, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        if let done = bytes.withContiguousStorageIfAvailable({ bindBlob($0, at: index) }) {
            rc = done
        } else {
            rc = Array(bytes).withUnsafeBufferPointer { bindBlob($0, at: index) }
        }
        try check(rc, "bind")
    }

    private func bindBlob(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        // An empty blob is a zero-length blob, not NULL: SQLite needs an address for that.
        withUnsafePointer(to: 0) { empty in
            csqlite_bind_blob_copied(statement, index, bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(empty),
                                     Int32(clamping: bytes.count))
        }
    }

    /// Binds NULL to parameter `index` (from 1).
    ///
    /// The corresponding C function is `sqlite3_bind_null`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(statement, index), "bind")
    }

    // MARK: Running

    /// Runs the statement to its next row: `true` when there is one to read, `false` at the end.
    ///
    /// The corresponding C function is `sqlite3_step`.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw database.error(rc, "step")
    }

    /// Runs the statement to its end, discarding rows, then resets it for the next run.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Makes the statement ready to run again, with its parameters kept.
    ///
    /// The corresponding C function is `sqlite3_reset`.
    public func reset() {
        sqlite3_reset(statement)
    }

    // MARK: Columns

    /// Whether column `index` (from 0) of the current row is NULL.
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    /// Column `index` (from 0) of the current row as an integer.
    ///
    /// The corresponding C function is `sqlite3_column_int64`.
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(statement, index)
    }

    /// Column `index` (from 0) of the current row as text (invalid UTF-8 repaired).
    ///
    /// The corresponding C function is `sqlite3_column_text`.
    public func text(at index: Int32) -> String {
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Calls `body` with the bytes of column `index` (from 0) of the current row, valid only
    /// during the call: read in place, without a copy.
    ///
    /// The corresponding C functions are `sqlite3_column_blob` and `sqlite3_column_bytes`.
    public func withBytes<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let pointer = sqlite3_column_blob(statement, index)
        let count = Int(sqlite3_column_bytes(statement, index))
        return try body(UnsafeBufferPointer(start: pointer?.assumingMemoryBound(to: UInt8.self), count: pointer == nil ? 0 : count))
    }

    /// Column `index` (from 0) of the current row as bytes.
    public func bytes(at index: Int32) -> [UInt8] {
        withBytes(at: index) { Array($0) }
    }

    private func check(_ rc: Int32, _ doing: String) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw database.error(rc, doing) }
    }
}
