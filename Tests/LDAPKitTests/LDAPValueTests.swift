@testable import LDAPKit
import Testing

/// A value read from the server is a slice of its entry's buffer; it must behave
/// exactly like a value made from its own bytes.
@Suite("LDAPValue: bytes, shared or not")
struct LDAPValueTests {
    /// Two values cut from one buffer, as an entry's are.
    private func sharedValues() -> (LDAPValue, LDAPValue) {
        let buffer = Array("inetOrgPersonAda".utf8)
        return (LDAPValue(sharing: buffer, range: 0..<13), LDAPValue(sharing: buffer, range: 13..<buffer.count))
    }

    @Test("a slice of a shared buffer equals, and hashes as, a value of the same bytes")
    func sharedEqualsOwn() {
        let (objectClass, name) = sharedValues()
        #expect(objectClass == LDAPValue("inetOrgPerson"))
        #expect(name == LDAPValue(bytes: Array("Ada".utf8)))
        #expect(Set([objectClass, name, LDAPValue("Ada"), LDAPValue("inetOrgPerson")]).count == 2)
        #expect(name != LDAPValue("Ad"))
    }

    @Test("bytes, string, count and the buffer pointer all see only the value's own bytes, counted from 0")
    func readsOnlyItsBytes() {
        let (_, name) = sharedValues()
        #expect(name.bytes == Array("Ada".utf8))
        #expect(name.string == "Ada")
        #expect(name.lossyString == "Ada")
        #expect(name.count == 3)
        #expect(!name.isEmpty)
        name.withUnsafeBufferPointer { bytes in
            #expect(bytes.count == 3)
            #expect(bytes[0] == UInt8(ascii: "A"))
            #expect(Array(bytes) == Array("Ada".utf8))
        }
    }

    @Test("starts(with:) and droppingFirst(_:) split a value without copying what stays")
    func prefixes() {
        let stored = LDAPValue("badge=A-17")
        #expect(stored.starts(with: "badge=".utf8))
        #expect(!stored.starts(with: "badges=".utf8))
        #expect(!LDAPValue("bad").starts(with: "badge=".utf8))
        let value = stored.droppingFirst(6)
        #expect(value == LDAPValue("A-17"))
        #expect(value.bytes == Array("A-17".utf8))
        #expect(value.withUnsafeBufferPointer { $0.first } == UInt8(ascii: "A"))
        #expect(stored.droppingFirst(stored.count).isEmpty)
        #expect(stored.droppingFirst(stored.count + 5).isEmpty)
        #expect(stored.droppingFirst(0) == stored)
        let (_, shared) = sharedValues()
        #expect(shared.droppingFirst(1) == LDAPValue("da"))
        #expect(shared.droppingFirst(1).droppingFirst(1).bytes == [UInt8(ascii: "a")])
    }

    @Test("setting bytes replaces the value, and leaves the values it shared a buffer with alone")
    func settingBytes() {
        var (objectClass, name) = sharedValues()
        objectClass.bytes = Array("person".utf8)
        #expect(objectClass == LDAPValue("person"))
        #expect(name == LDAPValue("Ada"))
        name.bytes.append(UInt8(ascii: "m"))
        #expect(name.string == "Adam")
    }

    @Test("bytes that are not UTF-8 stay bytes")
    func binary() {
        let buffer: [UInt8] = [0x41, 0xFF, 0xD8, 0xFF, 0x00]
        let value = LDAPValue(sharing: buffer, range: 1..<buffer.count)
        #expect(value.string == nil)
        #expect(value.bytes == [0xFF, 0xD8, 0xFF, 0x00])
        #expect(value.description == "<4 bytes>")
    }

    @Test("isUTF8 is whether string reads the bytes: ASCII, other UTF-8, and bytes that are not", arguments: [
        [UInt8](), Array("Ada".utf8), Array("Zoë Ångström 山田".utf8), [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80],
        [0x41, 0xF4, 0x90, 0x80, 0x80], Array("ok".utf8) + [0x80],
    ])
    func isUTF8(_ bytes: [UInt8]) {
        #expect(LDAPValue(bytes: bytes).isUTF8 == (LDAPValue(bytes: bytes).string != nil))
        let shared = LDAPValue(sharing: [0xFF] + bytes + [0xFF], range: 1..<(bytes.count + 1))
        #expect(shared.isUTF8 == (LDAPValue(bytes: bytes).string != nil))
    }

    /// ASCII is checked eight bytes at a time: random text of every length, with a byte that
    /// is not ASCII (in or out of a sequence) at any place, read from any offset.
    @Test("isUTF8 agrees with String(validating:) on random text, at every length and offset")
    func isUTF8Random() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x41], [0x7A], [0x20], [0x00], [0x7F], Array("é".utf8), Array("山".utf8), Array("😀".utf8),
                                 [0x80], [0xC3], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x98]]
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...40, using: &generator)
            while bytes.count < length {
                // Mostly ASCII, as values are.
                let piece = Int.random(in: 0..<10, using: &generator) < 8
                    ? pieces[Int.random(in: 0..<5, using: &generator)] : pieces.randomElement(using: &generator)!
                bytes += piece
            }
            let offset = Int.random(in: 0...9, using: &generator)
            let shared = LDAPValue(sharing: Array(repeating: 0x61, count: offset) + bytes + [0xFF], range: offset..<(offset + bytes.count))
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(shared.isUTF8 == expected, "\(bytes) at offset \(offset)")
        }
    }
}
