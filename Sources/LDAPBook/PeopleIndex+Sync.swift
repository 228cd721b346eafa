import Foundation
import LDAPKit
import Synchronization

extension PeopleIndex {
    /// What a sync did.
    public struct SyncOutcome: Sendable {
        /// How it was done: `rfc4533` (the server's content synchronization) or `poll`.
        public var method: String
        /// Whether the whole directory was read (the first sync, or a server that could not
        /// say what changed), rather than only what changed.
        public var wasFull: Bool
        /// How many people were filed (added or changed).
        public var filed: Int
        /// How many people were taken out (deleted on the server, or out of reach).
        public var removed: Int
        /// How many people the index holds afterwards.
        public var people: Int
    }

    /// Why the index cannot stand for the directory, when it cannot: the server's size limit
    /// stopped the reading of everyone (an index with some people would miss the others, and a
    /// miss must never become a second entry for someone). `nil` when it is complete.
    public func incompleteness() throws -> String? {
        try withStore { try $0.meta("incomplete") }
    }

    /// The attributes a sync reads of each person: what the index keeps, `entryUUID`, and
    /// `modifyTimestamp` (for polling).
    public static var readAttributes: [String] { SyncRun.attributes }

    /// The people of the directory: its persons (inetOrgPerson, organizationalPerson, and
    /// the classes other servers derive from person).
    static let peopleFilter = LDAPFilter.equal("objectClass", "person")

    /// How many entries a batch of changes holds: one transaction each.
    static let batchSize = 1000

    /// Brings the index up to date with the directory under `base`, as `connection`'s identity
    /// reads it: the changes since the last sync when the server can say what they were, else
    /// everyone; everyone again when `full` (`ldapbook sync --rebuild`). `progress` is told how
    /// many people have been read, now and then.
    ///
    /// The index stays usable meanwhile: changes are filed in batches, each a transaction, and
    /// people are taken out only once the server has said they are gone.
    ///
    /// One sync at a time, across processes: a sync holds a lock on a file beside the index
    /// (``SyncLock``). When another holds it, this waits for it to end when `waiting`, and
    /// throws ``SyncUnderWay`` otherwise. (Two full loads at once emptied the index under each
    /// other, and the second to finish failed.)
    ///
    /// - Throws: the ``LDAPKit/LDAPError`` that stopped the reading; what was filed before it
    ///   stays (and the next sync starts again from the last point it finished).
    ///   ``SyncUnderWay`` when another sync holds the index and not `waiting`.
    @discardableResult
    public func sync(_ connection: LDAPConnection, base: DistinguishedName, full: Bool = false, waiting: Bool = true,
                     progress: (@Sendable (Int) -> Void)? = nil) async throws -> SyncOutcome {
        let lock = try SyncLock(path: path + ".lock")
        while !lock.acquire() {
            guard waiting else { throw SyncUnderWay() }
            // A holder that is stopped (`kill -STOP`, ^Z) would be waited for without end.
            if let holder = lock.holder, SyncLock.isStopped(holder) {
                throw AddressBookError(.indexUnavailable, "the local index is being brought up to date by ldapbook (process "
                                       + "\(holder)), which is stopped: resume it (kill -CONT \(holder)) or end it, then sync again")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        defer { lock.release() }
        return try await syncHoldingLock(connection, base: base, full: full, progress: progress)
    }

    /// Another process (or another sync of this one) is bringing the index up to date.
    public struct SyncUnderWay: Error, CustomStringConvertible {
        public var description: String { "another ldapbook is bringing the local index up to date" }
    }

    private func syncHoldingLock(_ connection: LDAPConnection, base: DistinguishedName, full: Bool,
                                 progress: (@Sendable (Int) -> Void)?) async throws -> SyncOutcome {
        let (watermark, cookie, method) = try withStore { store in
            (try store.meta("watermark"), try store.meta("cookie"), try store.meta("method"))
        }
        let syncedBefore = try withStore { try $0.meta("synced-at") } != nil
        let complete = try !full && syncedBefore && incompleteness() == nil
        var run = SyncRun(index: self, progress: progress)
        var used = "poll"
        do {
            // Content synchronization unless the server said it has none (a rebuild asks again).
            if full || method != "poll" {
                do {
                    try await run.refresh(connection, base: base, cookie: complete ? cookie.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } : nil)
                    used = "rfc4533"
                } catch let error as LDAPError where error.code == .syncRefreshRequired && !run.wasFull {
                    // The server cannot say what changed since the cookie: everyone, afresh.
                    run = SyncRun(index: self, progress: progress)
                    try await run.refresh(connection, base: base, cookie: nil)
                    used = "rfc4533"
                } catch let error as LDAPError where SyncRun.offersNoContentSynchronization(error) && run.read == 0 {
                    // Active Directory, 389-DS without its plugin, slapd without syncprov:
                    // polling, from now on.
                    run = SyncRun(index: self, progress: progress)
                    try await run.poll(connection, base: base, since: complete && method == "poll" ? watermark : nil)
                }
            } else {
                try await run.poll(connection, base: base, since: complete ? watermark : nil)
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .adminLimitExceeded {
            // What was read is kept, but cannot stand for everyone.
            try write { try $0.setMeta("incomplete", "the server's size limit stopped the reading at \(run.read) people") }
            throw error
        }
        try compact()
        let people = try withStore { try $0.count() }
        return SyncOutcome(method: used, wasFull: run.wasFull, filed: run.filed, removed: run.removed, people: people)
    }
}

/// The lock one sync at a time holds: an exclusive `flock` on a file of its own beside the
/// index, which the system drops when the process ends, however it ends (a sync killed
/// halfway leaves no lock behind).
private final class SyncLock {
    private let descriptor: Int32

    init(path: String) throws {
        let previous = umask(0o077)
        defer { umask(previous) }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AddressBookError(.indexUnavailable, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// Takes the lock unless someone holds it; says whether it did. The holder writes its
    /// process number in the file, for whoever waits (``holder``).
    func acquire() -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                let number = Array("\(getpid())\n".utf8)
                if ftruncate(descriptor, 0) == 0 { _ = pwrite(descriptor, number, number.count, 0) }
                return true
            }
            if errno != EINTR { return false }
        }
    }

    func release() { flock(descriptor, LOCK_UN) }

    /// The process number the holder wrote, when there is one.
    var holder: Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether process `number` is stopped (its state in `/proc/<number>/stat` is `T`):
    /// false where that cannot be read.
    static func isStopped(_ number: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(number)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first == "T"
    }
}

/// One sync, batch by batch.
private struct SyncRun {
    let index: PeopleIndex
    let progress: (@Sendable (Int) -> Void)?
    var read = 0, filed = 0, removed = 0
    var wasFull = false
    private var batch: [FiledPerson] = []
    /// Folds the names of the people read, on the reading thread.
    private let folding = NameFolding()
    private let writer: BatchWriter

    init(index: PeopleIndex, progress: (@Sendable (Int) -> Void)?) {
        self.index = index
        self.progress = progress
        writer = BatchWriter(index: index)
    }

    /// The attributes read of each person.
    static let attributes = PersonRecord.attributes + ["entryUUID", "modifyTimestamp"]

    /// How far before the last change seen a poll looks again: a change replicated late from
    /// another server carries the time it was made there.
    static let pollOverlap: TimeInterval = 600

    /// Polling: everyone changed since `watermark` (a `modifyTimestamp`; everyone when `nil`),
    /// then every identifier, to see who is gone.
    mutating func poll(_ connection: LDAPConnection, base: DistinguishedName, since watermark: String?) async throws {
        var filter = PeopleIndex.peopleFilter
        if let watermark, let earlier = Self.generalizedTime(watermark, minus: Self.pollOverlap) {
            filter = .and([filter, .greaterOrEqual("modifyTimestamp", LDAPValue(earlier))])
        }
        wasFull = watermark == nil
        if wasFull { try index.write { try $0.beginFullLoad() } }
        var latest = watermark ?? ""
        var seen = Set<[UInt8]>()
        for try await entry in connection.search(base: base, filter: filter, attributes: Self.attributes) {
            let uuid = Self.identifier(of: entry)
            if let stamp = entry.string("modifyTimestamp"), stamp > latest { latest = stamp }
            if !wasFull { seen.insert(uuid) }
            try add(entry, uuid: uuid)
        }
        try flush()
        try drain()
        if !wasFull {
            // Who is gone: every identifier there is now, against the index's.
            seen = []
            for try await entry in connection.search(base: base, filter: PeopleIndex.peopleFilter, attributes: ["entryUUID"]) {
                seen.insert(Self.identifier(of: entry))
            }
        }
        let kept = seen
        let stamp = latest
        let full = wasFull
        removed += try index.write { store in
            if full { try store.finishFullLoad() }
            let gone = full ? 0 : try store.removeAll(except: kept)
            try store.setMeta("method", "poll")
            try store.setMeta("cookie", nil)
            if !stamp.isEmpty { try store.setMeta("watermark", stamp) }
            try store.setMeta("incomplete", nil)
            try store.setMeta("synced-at", String(Date().timeIntervalSince1970))
            try store.updatePositions()
            return gone
        }
    }

    /// What identifies the person of `entry` in the index: their entryUUID, or their DN on a
    /// server without one.
    static func identifier(of entry: LDAPEntry) -> [UInt8] {
        EntryUUID.bytes(of: entry.string("entryUUID") ?? entry.dn.string)
    }

    /// Whether `error` says that the server offers no content synchronization (RFC 4533): it
    /// refused the critical Sync Request control, or would not perform it.
    static func offersNoContentSynchronization(_ error: LDAPError) -> Bool {
        [LDAPResultCode.unavailableCriticalExtension, .unwillingToPerform, .protocolError, .insufficientAccessRights].contains(error.code)
    }

    /// Content synchronization (RFC 4533, refreshOnly): what changed since `cookie`, or
    /// everyone without one. Entries added or modified are filed as they come; the deleted,
    /// and at the end of a present phase everyone the server did not name, are taken out
    /// once the refresh is complete, with the new cookie, in one transaction.
    mutating func refresh(_ connection: LDAPConnection, base: DistinguishedName, cookie: [UInt8]?) async throws {
        wasFull = cookie == nil
        if wasFull { try index.write { try $0.beginFullLoad() } }
        var deleted: [[UInt8]] = []
        var present = Set<[UInt8]>()
        var presentPhaseEnded = false
        var latest = cookie
        let attributes = Self.attributes.filter { $0 != "modifyTimestamp" }
        for try await events in connection.syncRefresh(base: base, filter: PeopleIndex.peopleFilter, attributes: attributes,
                                                       cookie: cookie) {
            for event in events {
                if let cookie = event.cookie { latest = cookie }
                switch event {
                case .entry(let entry, let state, let uuid, _):
                    switch state {
                    case .add, .modify:
                        if !wasFull { present.insert(uuid) }
                        try add(entry, uuid: uuid)
                    case .present:
                        present.insert(uuid)
                    case .delete:
                        deleted.append(uuid)
                    }
                case .idSet(let uuids, let refreshDeletes, _):
                    if refreshDeletes { deleted += uuids } else { present.formUnion(uuids) }
                case .newCookie:
                    break
                case .phaseEnded(let refreshDeletes, _, _), .done(_, let refreshDeletes):
                    if !refreshDeletes && !wasFull { presentPhaseEnded = true }
                }
            }
        }
        try flush()
        try drain()
        let (full, gone, kept, stamp) = (wasFull, deleted, present, latest)
        let checkForGone = presentPhaseEnded
        removed += try index.write { store in
            if full { try store.finishFullLoad() }
            var count = 0
            for uuid in gone {
                if try store.remove(uuid: uuid) { count += 1 }
            }
            if checkForGone { count += try store.removeAll(except: kept) }
            try store.setMeta("method", "rfc4533")
            try store.setMeta("cookie", stamp.map { Data($0).base64EncodedString() })
            try store.setMeta("watermark", nil)
            try store.setMeta("incomplete", nil)
            try store.setMeta("synced-at", String(Date().timeIntervalSince1970))
            try store.updatePositions()
            return count
        }
    }

    /// Files `entry`, in a batch: worked out here, written by the writer.
    mutating func add(_ entry: LDAPEntry, uuid: [UInt8]) throws {
        batch.append(FiledPerson(entry, uuid: uuid, folding: folding))
        read += 1
        if batch.count >= PeopleIndex.batchSize { try flush() }
    }

    /// Hands the batch to the writer, which files it while the next is read.
    mutating func flush() throws {
        guard !batch.isEmpty else { return }
        try writer.submit(batch)
        filed += batch.count
        batch.removeAll(keepingCapacity: true)
        progress?(read)
    }

    /// Waits for the writer to file every batch handed to it.
    func drain() throws {
        try writer.drain()
    }

    /// A generalized time (`20261206115239Z`) `seconds` earlier, in the same form.
    static func generalizedTime(_ text: String, minus seconds: TimeInterval) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss"
        guard text.count >= 14, let date = formatter.date(from: String(text.prefix(14))) else { return nil }
        return formatter.string(from: date.addingTimeInterval(-seconds)) + "Z"
    }
}

/// Files batches of people on a thread of its own, while the connection's reads the next:
/// working out a person's keys and writing them costs more than reading them (BENCHMARKS.md,
/// workload 6), and the two take turns on two cores otherwise. At most two batches wait, so
/// that a fast server cannot fill the memory.
private final class BatchWriter: @unchecked Sendable {
    private let index: PeopleIndex
    private let queue = DispatchQueue(label: "ldapbook.index-writer")
    private let room = DispatchSemaphore(value: 2)
    /// The first error a batch met; the later batches are dropped.
    private let failure = Mutex<(any Error)?>(nil)

    init(index: PeopleIndex) {
        self.index = index
    }

    /// The batches filed, handed back to be freed by the thread that made them: freeing
    /// another thread's memory takes its allocator's lock, which the two threads then fought
    /// over (a tenth of a sync's time in futex waits and wakes, by perf).
    private let spent = Mutex<[[FiledPerson]]>([])

    /// Queues `batch`, waiting while two are queued already; throws what an earlier batch met.
    func submit(_ batch: [FiledPerson]) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        room.wait()
        // Freed here, once the lock is let go.
        _ = spent.withLock { batches in
            defer { batches = [] }
            return batches
        }
        queue.async { [self] in
            defer { room.signal() }
            guard failure.withLock({ $0 == nil }) else { return }
            do {
                try index.write { store in
                    for person in batch { try store.load(person) }
                }
            } catch {
                failure.withLock { $0 = error }
            }
            spent.withLock { $0.append(batch) }
        }
    }

    /// Waits for every batch queued; throws what one of them met.
    func drain() throws {
        queue.sync {}
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
