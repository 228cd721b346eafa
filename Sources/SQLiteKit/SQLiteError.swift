internal import CSQLite

/// An error from SQLite: its result code and message.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's (extended) result code, such as `SQLITE_BUSY` (5) or `SQLITE_CORRUPT` (11).
    public let code: Int32
    /// What SQLite said, and what was being done.
    public let message: String

    /// Creates an error.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code (the low byte of ``code``).
    public var primaryCode: Int32 { code & 0xFF }

    /// Whether another connection held a lock longer than the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// Whether the file is no database, or a damaged one: it can only be made again.
    public var isDamaged: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// The message.
    public var description: String { message }
}
