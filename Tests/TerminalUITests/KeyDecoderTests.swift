@testable import TerminalUI
import Testing

@Suite("Bytes from a terminal in raw mode decode to keys")
struct KeyDecoderTests {
    /// Every key `bytes` decode to, as if no more bytes followed.
    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        decoder.feed(bytes)
        var keys: [Key] = []
        while let key = decoder.next() {
            keys.append(key)
        }
        return keys + decoder.finishPending()
    }

    private func keys(_ text: String) -> [Key] {
        keys(Array(text.utf8))
    }

    @Test("arrow keys in normal and application cursor mode", arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[1;5A", .up), ("\u{1B}[1;2B", .down),
    ])
    func arrows(_ bytes: String, _ key: Key) {
        #expect(keys(bytes) == [key])
    }

    @Test("Home, End, Page Up, Page Down, Delete and Shift-Tab in their common encodings", arguments: [
        ("\u{1B}[H", Key.home), ("\u{1B}OH", .home), ("\u{1B}[1~", .home), ("\u{1B}[7~", .home),
        ("\u{1B}[F", .end), ("\u{1B}OF", .end), ("\u{1B}[4~", .end), ("\u{1B}[8~", .end),
        ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[3~", .delete), ("\u{1B}[3;5~", .delete),
        ("\u{1B}[Z", .backTab),
    ])
    func editingKeys(_ bytes: String, _ key: Key) {
        #expect(keys(bytes) == [key])
    }

    @Test("Enter, Tab, Backspace and control keys", arguments: [
        ([0x0D], Key.enter), ([0x0A], .enter), ([0x09], .tab), ([0x7F], .backspace), ([0x08], .backspace),
        ([0x03], .control("c")), ([0x01], .control("a")), ([0x05], .control("e")), ([0x15], .control("u")),
        ([0x0B], .control("k")), ([0x17], .control("w")), ([0x1A], .control("z")), ([0x00], .unrecognized),
        ([0x1C], .unrecognized),
    ] as [([UInt8], Key)])
    func controlKeys(_ bytes: [UInt8], _ key: Key) {
        #expect(keys(bytes) == [key])
    }

    @Test("a lone ESC waits for more bytes, and is Escape when none come")
    func loneEscape() {
        var decoder = KeyDecoder()
        decoder.feed([0x1B])
        #expect(decoder.next() == nil)
        #expect(decoder.isAwaitingMore)
        #expect(decoder.finishPending() == [.escape])
        #expect(!decoder.isAwaitingMore)
    }

    @Test("an escape sequence split across reads is one key")
    func splitSequence() {
        var decoder = KeyDecoder()
        decoder.feed([0x1B])
        #expect(decoder.next() == nil)
        decoder.feed(Array("[".utf8))
        #expect(decoder.next() == nil)
        decoder.feed(Array("B".utf8))
        #expect(decoder.next() == .down)
        #expect(decoder.next() == nil)
        #expect(!decoder.isAwaitingMore)
    }

    @Test("ESC ESC is Escape followed by whatever the second starts")
    func doubleEscape() {
        #expect(keys("\u{1B}\u{1B}") == [.escape, .escape])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
    }

    @Test("Alt with a key and unknown sequences are unrecognized, whole")
    func unrecognized() {
        #expect(keys("\u{1B}x") == [.unrecognized])
        #expect(keys("\u{1B}[15~a") == [.unrecognized, .character("a")])
        #expect(keys("\u{1B}[200~") == [.unrecognized])
        #expect(keys("\u{1B}[?1;2c") == [.unrecognized])
    }

    @Test("an incomplete sequence at the end of the input is unrecognized")
    func incompleteSequence() {
        #expect(keys("\u{1B}[1;") == [.unrecognized])
        #expect(keys("\u{1B}O") == [.unrecognized])
    }

    @Test("several keys in one read")
    func severalKeys() {
        #expect(keys("\u{1B}[B\u{1B}[Bj\r") == [.down, .down, .character("j"), .enter])
        #expect(keys("ab\u{7F}\u{1B}[3~") == [.character("a"), .character("b"), .backspace, .delete])
    }

    @Test("UTF-8 characters of two, three and four bytes", arguments: ["é", "ß", "山", "€", "😀", "𝄞"])
    func utf8(_ text: String) {
        #expect(keys(text) == [.character(Character(text))])
    }

    @Test("a UTF-8 character split across reads waits for its last byte")
    func splitUTF8() {
        let bytes = Array("山".utf8)
        var decoder = KeyDecoder()
        decoder.feed(bytes[..<2])
        #expect(decoder.next() == nil)
        #expect(decoder.isAwaitingMore)
        decoder.feed(bytes[2...])
        #expect(decoder.next() == .character("山"))
    }

    @Test("invalid UTF-8 and C1 controls are unrecognized, never characters")
    func invalidUTF8() {
        #expect(keys([0xFF, 0x61]) == [.unrecognized, .character("a")])
        #expect(keys([0xE5, 0x61]) == [.unrecognized, .character("a")])
        #expect(keys([0xC0, 0x80]) == [.unrecognized, .unrecognized])
        #expect(keys([0xC2, 0x9B]) == [.unrecognized])
        #expect(keys([0xED, 0xA0, 0x80]) == [.unrecognized])
        #expect(keys([0xE5, 0xB1]) == [.unrecognized])
    }
}
