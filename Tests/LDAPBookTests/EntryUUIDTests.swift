@testable import LDAPBook
import Testing

@Suite("entryUUID: 16 bytes in the index, the text servers write")
struct EntryUUIDTests {
    @Test("a UUID is its 16 bytes, in any case of its hex digits")
    func parsing() {
        let bytes: [UInt8] = [0x59, 0x7A, 0xE2, 0xF6, 0x16, 0xA6, 0x10, 0x27, 0x98, 0xF4, 0xD2, 0x8B, 0x53, 0x65, 0xDC, 0x14]
        #expect(EntryUUID.bytes(of: "597ae2f6-16a6-1027-98f4-d28b5365dc14") == bytes)
        #expect(EntryUUID.bytes(of: "597AE2F6-16A6-1027-98F4-D28B5365DC14") == bytes)
        #expect(EntryUUID.bytes(of: "597aE2f6-16A6-1027-98f4-D28b5365Dc14") == bytes)
        #expect(EntryUUID.bytes(of: "00000000-0000-0000-0000-000000000000") == [UInt8](repeating: 0, count: 16))
        #expect(EntryUUID.bytes(of: "ffffffff-ffff-ffff-ffff-ffffffffffff") == [UInt8](repeating: 0xFF, count: 16))
    }

    @Test("16 bytes are written in lower case, 8-4-4-4-12, leading zeros kept")
    func formatting() {
        let bytes: [UInt8] = [0x59, 0x7A, 0xE2, 0xF6, 0x16, 0xA6, 0x10, 0x27, 0x98, 0xF4, 0xD2, 0x8B, 0x53, 0x65, 0xDC, 0x14]
        #expect(EntryUUID.text(of: bytes) == "597ae2f6-16a6-1027-98f4-d28b5365dc14")
        #expect(EntryUUID.text(of: [UInt8](repeating: 0, count: 16)) == "00000000-0000-0000-0000-000000000000")
        #expect(EntryUUID.text(of: Array(0..<16)) == "00010203-0405-0607-0809-0a0b0c0d0e0f")
        #expect(EntryUUID.text(of: [UInt8](repeating: 0xFF, count: 16)) == "ffffffff-ffff-ffff-ffff-ffffffffffff")
    }

    @Test("any 16 bytes survive being written and read back; any UUID text reads back in lower case")
    func roundTrips() {
        var generator = SplitMix(state: 4530)
        for _ in 0..<1000 {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = EntryUUID.text(of: bytes)
            #expect(text.utf8.count == 36)
            #expect(EntryUUID.bytes(of: text) == bytes)
            #expect(EntryUUID.bytes(of: text.uppercased()) == bytes)
            #expect(EntryUUID.text(of: EntryUUID.bytes(of: text.uppercased())) == text)
        }
    }

    @Test("text that is no UUID is kept as its UTF-8, and written back as it was", arguments: [
        "", "x", "uid=ada,dc=example,dc=com", "597ae2f6-16a6-1027-98f4-d28b5365dc1", "597ae2f6-16a6-1027-98f4-d28b5365dc145",
        "597ae2f616a6102798f4d28b5365dc14", "597ae2f6-16a6-1027-98f4-d28b5365dcg4", "597ae2f6_16a6-1027-98f4-d28b5365dc14",
        "597ae2f-616a6-1027-98f4-d28b5365dc14", "{597ae2f6-16a6-1027-98f4-d28b5365dc1}", " 597ae2f6-16a6-1027-98f4-d28b5365dc1",
        "597ae2f6-16a6-1027-98f4-d28b5365dcé", "éééééééééééééééééé", "+97ae2f6-16a6-1027-98f4-d28b5365dc14",
        "--------------------------------------------", "0x597ae2f616a6102798f4d28b5365dc", "王伟王伟王伟王伟王伟王伟",
    ])
    func otherIdentifiers(_ text: String) {
        let bytes = EntryUUID.bytes(of: text)
        #expect(Array(bytes.prefix(text.utf8.count)) == Array(text.utf8), "its UTF-8")
        #expect(EntryUUID.text(of: bytes) == text, "written back as it was")
    }

    @Test("an identifier that is no UUID but happens to be 16 bytes is not taken for one", arguments: [
        "uid=ab,dc=ex,o=x", "0123456789abcdef", "ABCDEFGHIJKLMNOP", "王伟王伟王a", "abc:def:ghi:jklm",
    ])
    func sixteenByteIdentifiers(_ text: String) {
        #expect(text.utf8.count == 16)
        let bytes = EntryUUID.bytes(of: text)
        #expect(EntryUUID.text(of: bytes) == text)
        let uuid = EntryUUID.text(of: Array(text.utf8))
        #expect(EntryUUID.bytes(of: uuid) != bytes, "kept apart from \(uuid), the UUID of the same 16 bytes")
    }

    @Test("different identifiers are different bytes: the index tells people apart by them")
    func distinct() {
        let texts = ["597ae2f6-16a6-1027-98f4-d28b5365dc14", "597ae2f6-16a6-1027-98f4-d28b5365dc15",
                     "597ae2f616a6102798f4d28b5365dc14", "uid=ab,dc=ex,o=x", "uid=ab,dc=ex,o=y", "", "a",
                     EntryUUID.text(of: Array("uid=ab,dc=ex,o=x".utf8))]
        let bytes = texts.map(EntryUUID.bytes(of:))
        #expect(Set(bytes).count == texts.count)
    }
}
