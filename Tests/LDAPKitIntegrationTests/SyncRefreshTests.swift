import Foundation
import LDAPKit
import SlapdKit
import Testing

/// Content synchronization (RFC 4533, refreshOnly) against a real slapd with the syncprov
/// overlay, and against one without.
@Suite("Content synchronization with a real slapd")
struct SyncRefreshTests {
    /// The write operations (other than adds) the provider's session log remembers: few, so
    /// that a test can outrun it.
    private static let sessionLog = 10

    /// Runs `body` with a root connection to a server of its own with the sync provider,
    /// then stops the server.
    private func withProvider(_ body: (LDAPConnection) async throws -> Void) async throws {
        let server = try await TestDirectory.makeServer {
            $0.syncProvider = .init(sessionLog: Self.sessionLog, checkpointOperations: 1, checkpointMinutes: 1)
        }
        do {
            try await body(try await TestDirectory.rootConnection(server))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Adds `count` people under `container`, many adds in flight at once.
    private func populate(_ connection: LDAPConnection, under container: DistinguishedName, count: Int) async throws
        -> [DistinguishedName]
    {
        try await withThrowingTaskGroup(of: [DistinguishedName].self) { group in
            for batch in stride(from: 0, to: count, by: 50) {
                group.addTask {
                    var added: [DistinguishedName] = []
                    for index in batch..<min(batch + 50, count) {
                        added.append(try await TestDirectory.addPerson(connection, under: container, given: "Synced",
                                                                       surname: "Number\(index)"))
                    }
                    return added
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    private func refresh(_ connection: LDAPConnection, _ container: DistinguishedName, cookie: [UInt8]?)
        -> LDAPSync.Refresh
    {
        connection.syncRefresh(base: container, scope: .oneLevel, filter: .equal("objectClass", "inetOrgPerson"),
                               attributes: ["cn", "sn"], cookie: cookie)
    }

    /// The entryUUIDs a plain search finds under `container`, in the form of ``LDAPSync/uuidString(_:)``.
    private func searchedUUIDs(_ connection: LDAPConnection, _ container: DistinguishedName) async throws -> Set<String> {
        let entries = try await connection.search(base: container, scope: .oneLevel,
                                                  filter: .equal("objectClass", "inetOrgPerson"),
                                                  attributes: ["entryUUID"], pageSize: 0).collect()
        return Set(entries.compactMap { $0.string("entryUUID")?.lowercased() })
    }

    private func strings(_ uuids: Set<[UInt8]>) -> Set<String> {
        Set(uuids.map(LDAPSync.uuidString))
    }

    /// The entries of `events` with their states.
    private func entries(_ events: [LDAPSync.Event]) -> [(entry: LDAPEntry, state: LDAPSync.State, uuid: [UInt8])] {
        events.compactMap { event in
            guard case .entry(let entry, let state, let uuid, _) = event else { return nil }
            return (entry, state, uuid)
        }
    }

    @Test("a first refresh returns every entry once, added, then a cookie; the next returns what changed")
    func refreshesFollowChanges() async throws {
        try await withProvider { connection in
            let container = try await TestDirectory.makeContainer(connection, "sync")
            let people = try await populate(connection, under: container, count: 300)

            // slapd 2.5 sends every entry as added, then a Sync Done with a cookie and
            // refreshDeletes true: a delete phase, from an empty content.
            let initial = try await refresh(connection, container, cookie: nil).collect()
            let arrived = entries(initial)
            #expect(arrived.count == 300)
            #expect(arrived.allSatisfy { $0.state == .add || $0.state == .present })
            #expect(arrived.allSatisfy { $0.uuid.count == 16 })
            #expect(Set(arrived.map(\.uuid)).count == 300)
            #expect(Set(arrived.map { $0.entry.dn }) == Set(people))
            #expect(arrived.allSatisfy { $0.entry.string("sn")?.hasPrefix("Number") == true })
            guard case .done(let doneCookie, _)? = initial.last, let cookie = doneCookie else {
                Issue.record("the refresh did not end with a cookie: \(String(describing: initial.last))")
                return
            }
            #expect(!cookie.isEmpty)
            var content = LDAPSync.Reconciliation()
            content.apply(contentsOf: initial)
            #expect(content.cookie == cookie)
            #expect(strings(content.uuids) == (try await searchedUUIDs(connection, container)))

            // Two modified, one added, one deleted.
            for dn in people[0..<2] {
                try await connection.modify(dn, [LDAPModification(.replace, "sn", values: [LDAPValue("Changed")])])
            }
            let added = try await TestDirectory.addPerson(connection, under: container, given: "Synced", surname: "Late")
            try await connection.delete(people[2])

            // slapd 2.5 names the deleted entry from its session log in a syncIdSet with
            // refreshDeletes, and sends the modified entries as added, like the new one.
            let changes = try await refresh(connection, container, cookie: content.cookie).collect()
            let changed = entries(changes)
            let written = Set(people[0..<2] + [added])
            for dn in written {
                #expect(changed.contains { $0.entry.dn == dn && ($0.state == .add || $0.state == .modify) }, "\(dn)")
            }
            #expect(changed.filter { $0.state == .add || $0.state == .modify }.allSatisfy { written.contains($0.entry.dn) })
            #expect(changed.contains { $0.entry.dn == people[0] && $0.entry.string("sn") == "Changed" })
            guard case .done(_, let refreshDeletes)? = changes.last else {
                Issue.record("the refresh did not end with done: \(String(describing: changes.last))")
                return
            }
            if refreshDeletes {
                // The session log named the deleted entry.
                let deletedUUID = try #require(arrived.first { $0.entry.dn == people[2] }?.uuid)
                let deleted = changes.contains { event in
                    switch event {
                    case .entry(_, .delete, let uuid, _): uuid == deletedUUID
                    case .idSet(let uuids, true, _): uuids.contains(deletedUUID)
                    default: false
                    }
                }
                #expect(deleted)
            } else {
                // A present phase: the unchanged entries are reported present.
                #expect(changed.filter { $0.state == .present }.count + changes.idSetCount(refreshDeletes: false) >= 297)
            }
            content.apply(contentsOf: changes)
            #expect(content.uuids.count == 300)
            #expect(strings(content.uuids) == (try await searchedUUIDs(connection, container)))
            #expect(content.cookie != cookie)

            // Nothing changed since: nothing to report, and the content stays. (slapd 2.5 then
            // sends a Sync Done without a cookie; the last one stays the one to send.)
            let quiet = try await refresh(connection, container, cookie: content.cookie).collect()
            #expect(entries(quiet).filter { $0.state != .present }.isEmpty)
            content.apply(contentsOf: quiet)
            #expect(strings(content.uuids) == (try await searchedUUIDs(connection, container)))
        }
    }

    @Test("a cookie from before the session log gets a full present phase, or syncRefreshRequired")
    func cookieOlderThanTheSessionLog() async throws {
        try await withProvider { connection in
            let container = try await TestDirectory.makeContainer(connection, "stale")
            let people = try await populate(connection, under: container, count: 60)
            let initial = try await refresh(connection, container, cookie: nil).collect()
            var content = LDAPSync.Reconciliation()
            content.apply(contentsOf: initial)
            #expect(content.uuids.count == 60)

            // More deletes than the session log keeps.
            for dn in people.suffix(Self.sessionLog + 5) {
                try await connection.delete(dn)
            }
            try await connection.modify(people[0], [LDAPModification(.replace, "sn", values: [LDAPValue("Changed")])])

            do {
                // slapd 2.5 runs a present phase: a syncIdSet of the entries still there, the
                // modified entry as added, and a Sync Done with refreshDeletes false.
                let events = try await refresh(connection, container, cookie: content.cookie).collect()
                guard case .done(_, let refreshDeletes)? = events.last else {
                    Issue.record("the refresh did not end with done")
                    return
                }
                // The deletes are no longer known one by one: the entries still present are listed.
                #expect(!refreshDeletes || events.contains { if case .phaseEnded(false, _, _) = $0 { true } else { false } })
                content.apply(contentsOf: events)
                #expect(content.uuids.count == 60 - Self.sessionLog - 5)
                #expect(strings(content.uuids) == (try await searchedUUIDs(connection, container)))
            } catch let error as LDAPError where error.code == .syncRefreshRequired {
                // The documented alternative: start again without a cookie.
                var fresh = LDAPSync.Reconciliation()
                fresh.apply(contentsOf: try await refresh(connection, container, cookie: nil).collect())
                #expect(strings(fresh.uuids) == (try await searchedUUIDs(connection, container)))
            }
        }
    }

    @Test("a cookie that is garbage gets a full refresh, or syncRefreshRequired")
    func garbageCookie() async throws {
        try await withProvider { connection in
            let container = try await TestDirectory.makeContainer(connection, "garbage")
            _ = try await populate(connection, under: container, count: 20)
            let expected = try await searchedUUIDs(connection, container)
            // An entry the client wrongly believes it holds. slapd 2.5 answers a cookie it cannot
            // parse as no cookie (every entry added, refreshDeletes true; for "garbage" the new
            // cookie is even empty), and one of an ancient CSN with a present phase in which
            // every entry comes as added.
            let phantom = [UInt8](repeating: 0x42, count: 16)
            for cookie in [Array("garbage".utf8), Array("rid=000,csn=19700101000000.000000Z#000000#000#000000".utf8),
                           [0xFF, 0x00, 0x13, 0x37]] {
                let label = Comment(rawValue: String(decoding: cookie, as: UTF8.self))
                do {
                    let events = try await refresh(connection, container, cookie: cookie).collect()
                    guard case .done(_, let refreshDeletes)? = events.last else {
                        Issue.record("the refresh did not end with done, for the cookie \(label.rawValue)")
                        continue
                    }
                    if refreshDeletes {
                        // slapd reads a cookie it cannot parse as none: every entry comes again, added,
                        // as in a first refresh, which starts from an empty content.
                        #expect(entries(events).count == 20 && entries(events).allSatisfy { $0.state == .add }, label)
                        var content = LDAPSync.Reconciliation()
                        content.apply(contentsOf: events)
                        #expect(strings(content.uuids) == expected, label)
                    } else {
                        // A present phase: what the client holds and the server did not report is gone.
                        var content = LDAPSync.Reconciliation(uuids: [phantom], cookie: cookie)
                        content.apply(contentsOf: events)
                        #expect(strings(content.uuids) == expected, label)
                        #expect(content.cookie.map { !$0.isEmpty } == true, label)
                    }
                } catch let error as LDAPError where error.code == .syncRefreshRequired {
                    // The other documented answer: start again without a cookie.
                }
            }
            // The connection goes on.
            #expect(try await searchedUUIDs(connection, container) == expected)
        }
    }

    @Test("the size limit applies to a refresh, and leaving one early lets the connection go on")
    func sizeLimitAndLeavingEarly() async throws {
        try await withProvider { connection in
            let container = try await TestDirectory.makeContainer(connection, "limit")
            _ = try await populate(connection, under: container, count: 30)

            var received = 0
            let error = await #expect(throws: LDAPError.self) {
                for try await batch in connection.syncRefresh(base: container, scope: .oneLevel, attributes: ["cn"],
                                                              cookie: nil, sizeLimit: 5) {
                    received += entries(batch).count
                }
            }
            #expect(error?.code == .sizeLimitExceeded)
            #expect(received == 5)

            for try await _ in refresh(connection, container, cookie: nil) { break }
            #expect(try await searchedUUIDs(connection, container).count == 30)
        }
    }

    @Test("a server without syncprov refuses the refresh with unavailableCriticalExtension")
    func serverWithoutSyncProvider() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.syncRefresh(cookie: nil).collect()
        }
        #expect(error?.code == .unavailableCriticalExtension)
        #expect(error?.operation == "sync refresh")
    }
}

extension [LDAPSync.Event] {
    /// How many entryUUIDs the `syncIdSet`s with `refreshDeletes` name.
    fileprivate func idSetCount(refreshDeletes: Bool) -> Int {
        reduce(0) { count, event in
            guard case .idSet(let uuids, refreshDeletes, _) = event else { return count }
            return count + uuids.count
        }
    }
}
