import Testing
import LDAPKit

/// The content a client holds after the events of refreshes, by RFC 4533 section 3.3.
@Suite("Reconciling the events of content synchronization")
struct LDAPSyncReconciliationTests {
    private static func uuid(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 16) }
    private let a = uuid(0xA), b = uuid(0xB), c = uuid(0xC), d = uuid(0xD), e = uuid(0xE)
    private let first = Array("first".utf8), second = Array("second".utf8), third = Array("third".utf8)

    private func entry(_ uuid: [UInt8], _ state: LDAPSync.State, cookie: [UInt8]? = nil) throws -> LDAPSync.Event {
        let dn = try DistinguishedName(parsing: "cn=\(uuid[0]),dc=example,dc=com")
        return .entry(LDAPEntry(dn: dn), state: state, uuid: uuid, cookie: cookie)
    }

    @Test("A first refresh holds every entry added, and ends with the done control's cookie")
    func initialRefresh() throws {
        var content = LDAPSync.Reconciliation()
        content.apply(contentsOf: [try entry(a, .add), try entry(b, .add), try entry(c, .add),
                                   .done(cookie: first, refreshDeletes: false)])
        #expect(content.uuids == [a, b, c])
        #expect(content.cookie == first)
    }

    @Test("A delete phase changes only what it names: added, modified, deleted")
    func deletePhase() throws {
        var content = LDAPSync.Reconciliation(uuids: [a, b, c], cookie: first)
        content.apply(contentsOf: [try entry(b, .modify), try entry(d, .add), try entry(c, .delete),
                                   .done(cookie: second, refreshDeletes: true)])
        #expect(content.uuids == [a, b, d])
        #expect(content.cookie == second)
    }

    @Test("At the end of a present phase, an entry held but not reported is gone")
    func presentPhase() throws {
        var content = LDAPSync.Reconciliation(uuids: [a, b, c], cookie: first)
        content.apply(contentsOf: [try entry(a, .present), try entry(b, .modify), try entry(d, .add),
                                   .done(cookie: second, refreshDeletes: false)])
        #expect(content.uuids == [a, b, d])
    }

    @Test("A syncIdSet reports entries present, or with refreshDeletes entries deleted")
    func idSets() {
        var present = LDAPSync.Reconciliation(uuids: [a, b, c], cookie: first)
        present.apply(contentsOf: [.idSet(uuids: [a, b], refreshDeletes: false, cookie: nil),
                                   .done(cookie: second, refreshDeletes: false)])
        #expect(present.uuids == [a, b])

        var deleted = LDAPSync.Reconciliation(uuids: [a, b, c], cookie: first)
        deleted.apply(contentsOf: [.idSet(uuids: [c], refreshDeletes: true, cookie: nil),
                                   .done(cookie: second, refreshDeletes: true)])
        #expect(deleted.uuids == [a, b])
    }

    @Test("A present phase followed by a delete phase: the first prunes, the second deletes")
    func presentThenDelete() throws {
        var content = LDAPSync.Reconciliation(uuids: [a, b, c, d], cookie: first)
        content.apply(contentsOf: [try entry(a, .present), try entry(b, .present), try entry(c, .present),
                                   .phaseEnded(refreshDeletes: false, done: false, cookie: nil)])
        #expect(content.uuids == [a, b, c])
        content.apply(contentsOf: [try entry(b, .delete), try entry(e, .add),
                                   .done(cookie: second, refreshDeletes: true)])
        #expect(content.uuids == [a, c, e])
    }

    @Test("A refresh with nothing changed keeps everything")
    func nothingChanged() {
        var content = LDAPSync.Reconciliation(uuids: [a, b], cookie: first)
        content.apply(.done(cookie: second, refreshDeletes: true))
        #expect(content.uuids == [a, b])
        #expect(content.cookie == second)
    }

    @Test("The cookie is the latest any event carried; an event without one keeps it")
    func cookies() throws {
        var content = LDAPSync.Reconciliation()
        content.apply(.newCookie(first))
        #expect(content.cookie == first)
        content.apply(try entry(a, .add, cookie: second))
        #expect(content.cookie == second)
        content.apply(try entry(b, .add))
        content.apply(.done(cookie: nil, refreshDeletes: false))
        #expect(content.cookie == second)
        content.apply(.phaseEnded(refreshDeletes: true, done: true, cookie: third))
        #expect(content.cookie == third)
        #expect(content.uuids == [a, b])
    }

    @Test("What one present phase reported does not count in the next")
    func phasesAreSeparate() throws {
        var content = LDAPSync.Reconciliation(uuids: [a, b], cookie: first)
        content.apply(contentsOf: [try entry(a, .present), try entry(b, .present),
                                   .done(cookie: second, refreshDeletes: false)])
        #expect(content.uuids == [a, b])
        content.apply(contentsOf: [try entry(a, .present), .done(cookie: third, refreshDeletes: false)])
        #expect(content.uuids == [a])
    }

    @Test("An entry reported present that the client never held is not held by it")
    func unknownPresent() throws {
        var content = LDAPSync.Reconciliation(uuids: [a], cookie: first)
        content.apply(contentsOf: [try entry(a, .present), try entry(b, .present),
                                   .done(cookie: second, refreshDeletes: false)])
        #expect(content.uuids == [a])
    }
}
