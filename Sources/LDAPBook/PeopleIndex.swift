import Foundation
import LDAPKit
import SQLiteKit

/// A local index of a directory's people, so that names are found as they are typed without
/// the shared server reading its entries for each lookup: names, nicknames, display names,
/// addresses, phone numbers, titles, departments and organisations (``PersonRecord``), never
/// a secret or a photo, as one identity may read them under one base of one directory.
///
/// It is an SQLite database (Debian's `libsqlite3`, which every system has: transactions,
/// readers that never wait for the writer, a file that survives a crash), with three tables:
/// - `people`: a row per person, by their entryUUID: their DN, ``PersonRecord``, and what ties
///   between equal scores are broken on (``Candidate/order``);
/// - `postings`: a row per key with the ids of the people filed under it (``Postings``): name
///   keys looked up as prefixes (`vande` finds vanderberg), each saying how its people can
///   match (``IndexKeys``, ``NameClass``); phone numbers' reversed digits; the vocabulary of
///   names, in shelves of words of one length, for the words a typed word with typos means
///   (``Vocabulary``); and every person's place among equals, in rows, so that the best few
///   of thousands are read first (``Store/rankedCandidates(for:)``);
/// - `meta`: the scope, the key version, the sync's cookie or watermark, when it last synced.
///
/// The index is kept current by ``sync(_:progress:)`` (RFC 4533 where the server offers it,
/// else polling); it never decides who a write goes to (``AddressBook`` reads the entry on the
/// server first). Its file is private to the user (0600 in a 0700 folder).
public final class PeopleIndex: @unchecked Sendable {
    /// Which directory the index is of, and as whom: the key of its file.
    public struct Scope: Sendable, Hashable, CustomStringConvertible {
        /// The servers, as configured (a list of replicas is one directory).
        public var servers: [String]
        /// The search base.
        public var base: String
        /// Who reads it: a bind DN, `sasl:EXTERNAL`, or `anonymous`.
        public var identity: String

        /// Creates a scope.
        public init(servers: [String], base: String, identity: String) {
            self.servers = servers
            self.base = base
            self.identity = identity
        }

        /// The scope in one line, as the file records it.
        public var description: String { "\(servers.joined(separator: " ")) \(base) as \(identity)" }

        /// A file name for the scope: a 64-bit FNV-1a hash of its description, in hex (the
        /// file records the description itself, and an index of another scope is not used).
        var fileName: String {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in description.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + ".sqlite"
        }
    }

    /// What the index holds, and how current it is.
    public struct Status: Sendable {
        /// The database file.
        public let path: String
        /// The scope.
        public let scope: Scope
        /// How many people it holds.
        public let people: Int
        /// The size of its files, in bytes.
        public let bytes: Int
        /// When it was last brought up to date; `nil` if it never was.
        public let syncedAt: Date?
        /// How it is kept current: `rfc4533` (the server's content synchronization) or `poll`.
        public let method: String?
    }

    /// The version of the keys: an index made with other keys is made again.
    static let keyVersion = "8"

    /// The database file.
    public let path: String
    /// Which directory, as whom.
    public let scope: Scope
    /// The database, used only under ``lock``: one thread at a time, as SQLite's connections
    /// without their own mutex require.
    private let database: Store
    private let lock = NSLock()

    /// The folder of indexes: `$XDG_CACHE_HOME/ldapbook/index` (`~/.cache/ldapbook/index`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/ldapbook/index" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/ldapbook/index"
    }

    /// Opens (or creates, empty) the index of `scope` in `directory`, which is made private to
    /// the user. A file that is not an index of this scope and key version (damaged, or of an
    /// older ldapbook) is replaced by an empty one.
    ///
    /// - Throws: ``AddressBookError`` (`indexUnavailable`) or ``SQLiteKit/SQLiteError`` when the folder or file cannot be made.
    public static func open(scope: Scope, in directory: String = defaultDirectory()) throws -> PeopleIndex {
        try makePrivateDirectory(directory)
        let path = directory + "/" + scope.fileName
        do {
            return try PeopleIndex(path: path, scope: scope)
        } catch let error as SQLiteError where error.isDamaged {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            return try PeopleIndex(path: path, scope: scope)
        }
    }

    private init(path: String, scope: Scope) throws {
        self.path = path
        self.scope = scope
        // The files SQLite makes (the database, its write-ahead log) are the user's alone.
        let previous = umask(0o077)
        defer { umask(previous) }
        let database = try SQLiteDatabase(path: path)
        database.setBusyTimeout(milliseconds: 5000)
        // Pages freed (by people removed, keys replaced) go back to the file system when asked
        // (``compact()``): only a database without tables takes this, before the journal mode
        // is set, and it is set only there. (Setting it writes the file's first page, even to
        // what it was: every lookup was a write transaction, its log synced to disk and
        // checkpointed on closing, and a lookup waited for a sync's batch to end.) Readers
        // never wait for a writer in WAL mode.
        let vacuum = try database.prepare("PRAGMA auto_vacuum")
        let incremental = try vacuum.step() && vacuum.int64(at: 0) == 2
        vacuum.reset()
        if !incremental { try database.execute("PRAGMA auto_vacuum = INCREMENTAL") }
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
        // Pages read in place from a mapping of the file, not copied by a system call each.
        try database.execute("PRAGMA mmap_size = 1073741824")
        self.database = try Store(database: database, scope: scope)
    }

    private static func makePrivateDirectory(_ directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        } catch {
            throw AddressBookError(.indexUnavailable, "cannot make the index folder \(directory): \(error.localizedDescription)")
        }
    }

    /// What the index holds, and how current it is.
    public func status() throws -> Status {
        let (people, syncedAt, method) = try withStore { store in
            (try store.count(), try store.meta("synced-at").flatMap { Double($0) }, try store.meta("method"))
        }
        let bytes = ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
        return Status(path: path, scope: scope, people: people, bytes: bytes,
                      syncedAt: syncedAt.map { Date(timeIntervalSince1970: $0) }, method: method)
    }

    /// Gives back to the file system what a sync leaves over: the pages of people removed and
    /// keys replaced, and the write-ahead log, which otherwise stays the size of the largest
    /// sync (a full read of 5,000 people left 4 MB of log beside a 1.3 MB index).
    func compact() throws {
        try withStore { try $0.database.execute("PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// When the index was last brought up to date; `nil` if it never was.
    public func syncedAt() throws -> Date? {
        try withStore { try $0.meta("synced-at").flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) } }
    }

    /// Marks the index out of date, so that the next lookup brings it up to date first: after
    /// a write, which the index learns of from the server like anyone else's.
    public func markStale() {
        try? withStore { try $0.setMeta("synced-at", "0") }
    }

    /// The people the query may mean, each as the index keeps them (their entry has the
    /// attributes of ``PersonRecord`` and `entryUUID`); the matcher decides who really matches.
    public func candidates(for matcher: NameMatcher) throws -> [LDAPEntry] {
        // One read transaction for all of it: each statement outside one takes and drops the
        // file's locks itself (fcntl calls were 7% of `find jo` at 100,000 people).
        try withStore { store in try store.database.transaction { try store.candidates(for: matcher) } }
    }

    /// Runs `body` in one read transaction of the index: what it reads is of one moment.
    func read<Result>(_ body: (Store) throws -> Result) throws -> Result {
        try withStore { store in try store.database.transaction { try body(store) } }
    }

    /// Runs `body` in one write transaction of the index, which waits for any other writer
    /// (another process syncing) first.
    func write<Result>(_ body: (Store) throws -> Result) throws -> Result {
        try withStore { store in try store.database.transaction(immediate: true) { try body(store) } }
    }

    /// Runs `body` with the store, under the lock.
    func withStore<Result>(_ body: (Store) throws -> Result) throws -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(database)
    }
}

