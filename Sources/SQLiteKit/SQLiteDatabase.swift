internal import CSQLite

/// A connection to an SQLite database file (or an in-memory database), used from one thread
/// at a time. Every call that fails throws ``SQLiteError`` with SQLite's message; nothing is
/// retried except what the busy timeout waits for.
///
/// ```swift
/// let database = try SQLiteDatabase(path: path)
/// try database.execute("CREATE TABLE IF NOT EXISTS t(a INTEGER)")
/// let insert = try database.prepare("INSERT INTO t VALUES (?)")
/// try insert.bind(42, at: 1)
/// try insert.run()
/// ```
public final class SQLiteDatabase {
    let handle: OpaquePointer

    /// How a database file is opened.
    public enum Mode: Sendable {
        /// Read and write, creating the file when it does not exist.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read an existing file.
        case readOnly
    }

    /// Opens the database at `path` (`:memory:` for one in memory).
    ///
    /// The corresponding C function is `sqlite3_open_v2`.
    public init(path: String, mode: Mode = .readWriteCreate) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var opened: OpaquePointer?
        let rc = sqlite3_open_v2(path, &opened, flags, nil)
        guard rc == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let opened { sqlite3_close_v2(opened) }
            throw SQLiteError(code: rc, message: "cannot open \(path): \(message)")
        }
        handle = opened
    }

    deinit {
        // The _v2 form waits for statements still alive to be finalized.
        sqlite3_close_v2(handle)
    }

    /// How long a statement waits for another connection's lock before it fails as busy.
    ///
    /// The corresponding C function is `sqlite3_busy_timeout`.
    public func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// Runs one or more statements separated by semicolons, discarding any rows.
    ///
    /// The corresponding C function is `sqlite3_exec`.
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(error)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message)
        }
    }

    /// Compiles one statement.
    ///
    /// The corresponding C function is `sqlite3_prepare_v3`.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw error(rc, "cannot prepare \(sql)")
        }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// An immediate transaction takes the write lock at once (waiting up to the busy
    /// timeout), so that two writers never both read and then both write.
    public func transaction<Result>(immediate: Bool = false, _ body: () throws -> Result) throws -> Result {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last row inserted.
    ///
    /// The corresponding C function is `sqlite3_last_insert_rowid`.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last statement changed.
    ///
    /// The corresponding C function is `sqlite3_changes64`.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The error for result code `rc`, with the connection's message.
    func error(_ rc: Int32, _ doing: String) -> SQLiteError {
        let message = String(cString: sqlite3_errmsg(handle))
        return SQLiteError(code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : rc,
                           message: "\(doing): \(message)")
    }

    /// The SQLite library's version, such as `3.40.1`.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
