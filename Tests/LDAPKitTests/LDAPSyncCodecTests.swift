import Testing
@testable import LDAPKit

/// The BER of RFC 4533's Sync Request, Sync State and Sync Done controls and of its Sync
/// Info intermediate responses, against bytes derived by hand from the RFC's ASN.1.
@Suite("Content synchronization values")
struct LDAPSyncCodecTests {
    private let uuidA: [UInt8] = Array(0x00...0x0F)
    private let uuidB: [UInt8] = Array(0xF0...0xFF)
    private let cookie: [UInt8] = Array("rid=000,csn=20240101000000.000000Z#000000#000#000000".utf8)

    /// An OCTET STRING of fewer than 128 bytes: tag, length, contents.
    private func octets(_ bytes: [UInt8], tag: UInt8 = 0x04) -> [UInt8] {
        [tag, UInt8(bytes.count)] + bytes
    }

    // MARK: Sync Request

    @Test("The OIDs are RFC 4533's")
    func oids() {
        #expect(LDAPControl.OID.syncRequest == "1.3.6.1.4.1.4203.1.9.1.1")
        #expect(LDAPControl.OID.syncState == "1.3.6.1.4.1.4203.1.9.1.2")
        #expect(LDAPControl.OID.syncDone == "1.3.6.1.4.1.4203.1.9.1.3")
        #expect(LDAPControl.OID.syncInfo == "1.3.6.1.4.1.4203.1.9.1.4")
    }

    @Test("A request without a cookie is the refreshOnly mode alone, and critical")
    func requestWithoutCookie() {
        let control = LDAPControl.syncRequest(cookie: nil)
        #expect(control.oid == LDAPControl.OID.syncRequest)
        #expect(control.isCritical)
        // SEQUENCE { ENUMERATED 1 }
        #expect(control.value == [0x30, 0x03, 0x0A, 0x01, 0x01])
    }

    @Test("A request carries its cookie after the mode; the reload hint is written only when true")
    func requestWithCookie() {
        let short: [UInt8] = Array("cookie".utf8)
        #expect(LDAPControl.syncRequest(cookie: short).value
            == [0x30, 0x0B, 0x0A, 0x01, 0x01, 0x04, 0x06, 0x63, 0x6F, 0x6F, 0x6B, 0x69, 0x65])
        #expect(LDAPControl.syncRequest(cookie: short, reloadHint: false).value
            == LDAPControl.syncRequest(cookie: short).value)
        #expect(LDAPControl.syncRequest(cookie: short, reloadHint: true).value
            == [0x30, 0x0E, 0x0A, 0x01, 0x01, 0x04, 0x06, 0x63, 0x6F, 0x6F, 0x6B, 0x69, 0x65, 0x01, 0x01, 0xFF])
        #expect(LDAPControl.syncRequest(cookie: nil, reloadHint: true).value
            == [0x30, 0x06, 0x0A, 0x01, 0x01, 0x01, 0x01, 0xFF])
        // An empty cookie is a cookie, not an absent one.
        #expect(LDAPControl.syncRequest(cookie: []).value == [0x30, 0x05, 0x0A, 0x01, 0x01, 0x04, 0x00])
    }

    @Test("A cookie of 200 bytes gets long-form lengths")
    func requestWithLongCookie() {
        let long = [UInt8](repeating: 0x2A, count: 200)
        // 3 bytes of mode, 3 of cookie header, 200 of cookie: 206 = 0xCE.
        #expect(LDAPControl.syncRequest(cookie: long).value
            == [0x30, 0x81, 0xCE, 0x0A, 0x01, 0x01, 0x04, 0x81, 0xC8] + long)
    }

    // MARK: Sync State

    @Test("A state control decodes each state, with and without a cookie", arguments: LDAPSync.State.allCases)
    func stateControl(state: LDAPSync.State) throws {
        let plain: [UInt8] = [0x30, 0x15, 0x0A, 0x01, UInt8(state.rawValue)] + octets(uuidA)
        #expect(try LDAPSync.StateValue(controlValue: plain) == .init(state: state, uuid: uuidA))

        let body: [UInt8] = [0x0A, 0x01, UInt8(state.rawValue)] + octets(uuidB) + octets(cookie)
        let withCookie: [UInt8] = [0x30, UInt8(body.count)] + body
        #expect(try LDAPSync.StateValue(controlValue: withCookie) == .init(state: state, uuid: uuidB, cookie: cookie))
    }

    @Test("The states have RFC 4533's numbers")
    func stateNumbers() {
        #expect(LDAPSync.State.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(LDAPSync.State.allCases == [.present, .add, .modify, .delete])
    }

    // MARK: Sync Done

    @Test("A done control defaults to no cookie and refreshDeletes false")
    func doneControl() throws {
        #expect(try LDAPSync.DoneValue(controlValue: [0x30, 0x00]) == .init(cookie: nil, refreshDeletes: false))
        #expect(try LDAPSync.DoneValue(controlValue: [0x30, 0x03, 0x01, 0x01, 0xFF])
            == .init(cookie: nil, refreshDeletes: true))
        #expect(try LDAPSync.DoneValue(controlValue: [0x30, 0x08, 0x04, 0x03, 0x61, 0x62, 0x63, 0x01, 0x01, 0xFF])
            == .init(cookie: Array("abc".utf8), refreshDeletes: true))
        let body = octets(cookie) + [0x01, 0x01, 0x00]
        #expect(try LDAPSync.DoneValue(controlValue: [0x30, UInt8(body.count)] + body)
            == .init(cookie: cookie, refreshDeletes: false))
    }

    // MARK: Sync Info

    @Test("newcookie is [0], primitive")
    func newCookie() throws {
        let value = try LDAPSync.InfoValue(responseValue: octets(cookie, tag: 0x80))
        #expect(value == .newCookie(cookie))
        guard case .newCookie(let carried) = value.event else {
            Issue.record("expected a new cookie, got \(value.event)")
            return
        }
        #expect(carried == cookie)
    }

    @Test("refreshDelete [1] and refreshPresent [2] default refreshDone to true")
    func phases() throws {
        #expect(try LDAPSync.InfoValue(responseValue: [0xA1, 0x00]) == .refreshDelete(cookie: nil, refreshDone: true))
        #expect(try LDAPSync.InfoValue(responseValue: [0xA2, 0x00]) == .refreshPresent(cookie: nil, refreshDone: true))
        #expect(try LDAPSync.InfoValue(responseValue: [0xA2, 0x03, 0x01, 0x01, 0x00])
            == .refreshPresent(cookie: nil, refreshDone: false))
        let body = octets(cookie) + [0x01, 0x01, 0x00]
        #expect(try LDAPSync.InfoValue(responseValue: [0xA1, UInt8(body.count)] + body)
            == .refreshDelete(cookie: cookie, refreshDone: false))
        #expect(try LDAPSync.InfoValue(responseValue: [0xA2, UInt8(octets(cookie).count)] + octets(cookie))
            == .refreshPresent(cookie: cookie, refreshDone: true))
    }

    @Test("A phase's end becomes phaseEnded, delete phases with refreshDeletes")
    func phaseEvents() throws {
        guard case .phaseEnded(let deletes, let done, let carried) = try LDAPSync.InfoValue(
            responseValue: [0xA1, 0x03, 0x01, 0x01, 0x00]).event else {
            Issue.record("expected the end of a phase")
            return
        }
        #expect(deletes && !done && carried == nil)
        guard case .phaseEnded(let presentDeletes, let presentDone, _) = try LDAPSync.InfoValue(
            responseValue: [0xA2, 0x00]).event else {
            Issue.record("expected the end of a phase")
            return
        }
        #expect(!presentDeletes && presentDone)
    }

    @Test("syncIdSet [3] lists entryUUIDs, refreshDeletes false unless said")
    func idSet() throws {
        // SET OF two 16-byte OCTET STRINGs: 2 * 18 = 36 = 0x24.
        let members: [UInt8] = [0x31, 0x24] + octets(uuidA) + octets(uuidB)
        let deletes: [UInt8] = [0xA3, UInt8(3 + members.count), 0x01, 0x01, 0xFF] + members
        #expect(deletes[1] == 0x29)
        #expect(try LDAPSync.InfoValue(responseValue: deletes)
            == .idSet(cookie: nil, refreshDeletes: true, uuids: [uuidA, uuidB]))

        let body = octets(cookie) + members
        let present: [UInt8] = [0xA3, UInt8(body.count)] + body
        #expect(try LDAPSync.InfoValue(responseValue: present)
            == .idSet(cookie: cookie, refreshDeletes: false, uuids: [uuidA, uuidB]))

        #expect(try LDAPSync.InfoValue(responseValue: [0xA3, 0x02, 0x31, 0x00])
            == .idSet(cookie: nil, refreshDeletes: false, uuids: []))

        guard case .idSet(let uuids, let refreshDeletes, let carried) = try LDAPSync.InfoValue(responseValue: deletes).event
        else {
            Issue.record("expected a set of entryUUIDs")
            return
        }
        #expect(uuids == [uuidA, uuidB] && refreshDeletes && carried == nil)
    }

    // MARK: Malformed values

    static let malformedInfo: [(String, [UInt8])] = [
        ("empty", []),
        ("an unknown choice [4]", [0xA4, 0x00]),
        ("a constructed newcookie", [0xA0, 0x00]),
        ("a primitive refreshDelete", [0x81, 0x00]),
        ("a SEQUENCE instead of a choice", [0x30, 0x00]),
        ("a cookie longer than the data", [0x80, 0x05, 0x61]),
        ("an indefinite length", [0xA1, 0x80, 0x00, 0x00]),
        ("trailing bytes", [0xA2, 0x00, 0x00]),
        ("a boolean of two octets", [0xA1, 0x04, 0x01, 0x02, 0xFF, 0xFF]),
        ("an integer where the boolean goes", [0xA1, 0x03, 0x02, 0x01, 0x01]),
        ("an idSet without its SET", [0xA3, 0x03, 0x01, 0x01, 0xFF]),
        ("an idSet with a short uuid", [0xA3, 0x05, 0x31, 0x03, 0x04, 0x01, 0x00]),
        ("an idSet with something after its SET", [0xA3, 0x04, 0x31, 0x00, 0x05, 0x00]),
        ("a length of 2^63", [0x80, 0x88, 0x80, 0, 0, 0, 0, 0, 0, 0]),
    ]

    @Test("Malformed sync info values are decoding errors", arguments: malformedInfo)
    func malformedSyncInfo(_ name: String, bytes: [UInt8]) {
        let error = #expect(throws: LDAPError.self, "\(name)") { try LDAPSync.InfoValue(responseValue: bytes) }
        #expect(error?.code == .decodingError)
    }

    static let malformedState: [(String, [UInt8])] = [
        ("empty", []),
        ("an empty SEQUENCE", [0x30, 0x00]),
        ("no uuid", [0x30, 0x03, 0x0A, 0x01, 0x01]),
        ("the state 4", [0x30, 0x15, 0x0A, 0x01, 0x04, 0x04, 0x10] + Array(0..<16)),
        ("the state -1", [0x30, 0x15, 0x0A, 0x01, 0xFF, 0x04, 0x10] + Array(0..<16)),
        ("a uuid of 15 bytes", [0x30, 0x14, 0x0A, 0x01, 0x01, 0x04, 0x0F] + Array(0..<15)),
        ("a uuid of 17 bytes", [0x30, 0x16, 0x0A, 0x01, 0x01, 0x04, 0x11] + Array(0..<17)),
        ("an INTEGER state", [0x30, 0x15, 0x02, 0x01, 0x01, 0x04, 0x10] + Array(0..<16)),
        ("a boolean after the cookie", [0x30, 0x1A, 0x0A, 0x01, 0x01, 0x04, 0x10] + Array(0..<16) + [0x04, 0x00, 0x01, 0x01, 0xFF]),
        ("bytes after the SEQUENCE", [0x30, 0x15, 0x0A, 0x01, 0x01, 0x04, 0x10] + Array(0..<16) + [0x00]),
        ("a SEQUENCE shorter than its contents", [0x30, 0x10, 0x0A, 0x01, 0x01, 0x04, 0x10] + Array(0..<16)),
    ]

    @Test("Malformed state controls are decoding errors", arguments: malformedState)
    func malformedStateControl(_ name: String, bytes: [UInt8]) {
        let error = #expect(throws: LDAPError.self, "\(name)") { try LDAPSync.StateValue(controlValue: bytes) }
        #expect(error?.code == .decodingError)
    }

    static let malformedDone: [(String, [UInt8])] = [
        ("empty", []),
        ("a SET", [0x31, 0x00]),
        ("the boolean before the cookie", [0x30, 0x05, 0x01, 0x01, 0xFF, 0x04, 0x00]),
        ("two cookies", [0x30, 0x04, 0x04, 0x00, 0x04, 0x00]),
        ("an empty boolean", [0x30, 0x02, 0x01, 0x00]),
    ]

    @Test("Malformed done controls are decoding errors", arguments: malformedDone)
    func malformedDoneControl(_ name: String, bytes: [UInt8]) {
        let error = #expect(throws: LDAPError.self, "\(name)") { try LDAPSync.DoneValue(controlValue: bytes) }
        #expect(error?.code == .decodingError)
    }

    @Test("Every truncation of a valid value fails to decode, and no random bytes trap")
    func truncationsAndNoise() {
        let members: [UInt8] = [0x31, 0x24] + octets(uuidA) + octets(uuidB)
        let idSetBody = octets(cookie) + [0x01, 0x01, 0xFF] + members
        let info: [UInt8] = [0xA3, UInt8(idSetBody.count)] + idSetBody
        let stateBody: [UInt8] = [0x0A, 0x01, 0x02] + octets(uuidA) + octets(cookie)
        let state: [UInt8] = [0x30, UInt8(stateBody.count)] + stateBody
        let done: [UInt8] = [0x30, 0x08, 0x04, 0x03, 0x61, 0x62, 0x63, 0x01, 0x01, 0xFF]
        for length in 0..<info.count {
            #expect(throws: LDAPError.self) { try LDAPSync.InfoValue(responseValue: Array(info.prefix(length))) }
        }
        for length in 0..<state.count {
            #expect(throws: LDAPError.self) { try LDAPSync.StateValue(controlValue: Array(state.prefix(length))) }
        }
        for length in 0..<done.count {
            #expect(throws: LDAPError.self) { try LDAPSync.DoneValue(controlValue: Array(done.prefix(length))) }
        }

        var random = SeededRandom(seed: 4533)
        for _ in 0..<5000 {
            let base = [info, state, done].randomElement(using: &random)!
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            _ = try? LDAPSync.InfoValue(responseValue: bytes)
            _ = try? LDAPSync.StateValue(controlValue: bytes)
            _ = try? LDAPSync.DoneValue(controlValue: bytes)
        }
    }

    // MARK: UUIDs

    @Test("A uuid reads as 8-4-4-4-12 lowercase hexadecimal digits")
    func uuidString() {
        let uuid: [UInt8] = [0x3F, 0x25, 0x04, 0xE0, 0x4F, 0x89, 0x11, 0xD3, 0x9A, 0x0C, 0x03, 0x05, 0xE8, 0x2C, 0x33, 0x01]
        #expect(LDAPSync.uuidString(uuid) == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(LDAPSync.uuidString(uuidA) == "00010203-0405-0607-0809-0a0b0c0d0e0f")
        #expect(LDAPSync.uuidString([0xAB, 0x01]) == "ab01")
        #expect(LDAPSync.uuidString([]) == "")
    }
}
