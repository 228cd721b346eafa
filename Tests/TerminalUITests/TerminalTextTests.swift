@testable import TerminalUI
import Testing

@Suite("Text from the directory is made safe and fit for the terminal")
struct TerminalTextTests {
    @Test("escape sequences become visible text", arguments: [
        ("\u{1B}]0;owned\u{7}", "^[]0;owned^G"),
        ("\u{1B}[2J", "^[[2J"),
        ("\u{1B}[31mred\u{1B}[0m", "^[[31mred^[[0m"),
        ("Ada\rEve", "Ada^MEve"),
        ("line\nbreak", "line^Jbreak"),
        ("tab\there", "tab^Ihere"),
        ("nul\u{0}", "nul^@"),
        ("del\u{7F}", "del^?"),
        ("\u{1F}", "^_"),
    ])
    func controlCharacters(_ hostile: String, _ shown: String) {
        #expect(TerminalText.sanitized(hostile) == shown)
    }

    @Test("C1 controls, bidirectional overrides and line separators become U+FFFD", arguments: [
        ("\u{9B}2J", "\u{FFFD}2J"),
        ("\u{9D}0;owned\u{9C}", "\u{FFFD}0;owned\u{FFFD}"),
        ("\u{85}next", "\u{FFFD}next"),
        ("abc\u{202E}fed", "abc\u{FFFD}fed"),
        ("\u{2066}isolate\u{2069}", "\u{FFFD}isolate\u{FFFD}"),
        ("one\u{2028}two\u{2029}", "one\u{FFFD}two\u{FFFD}"),
    ])
    func otherControls(_ hostile: String, _ shown: String) {
        #expect(TerminalText.sanitized(hostile) == shown)
    }

    @Test("ordinary text passes unchanged", arguments: [
        "Ada Lovelace", "Zoë Ångström", "山田太郎", "😀 smile", "e\u{301}", "", "a\u{200D}b",
    ])
    func ordinaryText(_ text: String) {
        #expect(TerminalText.sanitized(text) == text)
    }

    @Test("CR LF, one grapheme cluster in Swift, is still made visible")
    func carriageReturnLineFeed() {
        #expect(TerminalText.sanitized("a\r\nb") == "a^M^Jb")
    }

    @Test("no ESC, C0 or C1 control survives sanitising any scalar")
    func nothingEscapes() {
        let everyScalar = (0...0x3000).compactMap(Unicode.Scalar.init).map(String.init).joined()
        let clean = TerminalText.sanitized(everyScalar)
        #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("display width counts wide characters as two columns and combining marks as none", arguments: [
        ("Ada", 3), ("山田", 4), ("ｱｲ", 2), ("ＡＢ", 4), ("e\u{301}", 1), ("한국어", 6), ("\u{1100}\u{1161}\u{11A8}", 2),
        ("😀", 2), ("👨‍👩‍👧", 2), ("🇬🇧", 2), ("a\u{200B}b", 2), ("\u{1B}[2J", 5), ("", 0), ("…", 1), ("＋", 2),
    ])
    func displayWidth(_ text: String, _ columns: Int) {
        #expect(TerminalText.displayWidth(text) == columns)
    }

    @Test("truncation cuts by columns and ends with an ellipsis")
    func truncation() {
        #expect(TerminalText.truncated("Ada Lovelace", toWidth: 20) == "Ada Lovelace")
        #expect(TerminalText.truncated("Ada Lovelace", toWidth: 12) == "Ada Lovelace")
        #expect(TerminalText.truncated("Ada Lovelace", toWidth: 11) == "Ada Lovela…")
        #expect(TerminalText.truncated("山田太郎", toWidth: 5) == "山田…")
        #expect(TerminalText.truncated("山田太郎", toWidth: 6) == "山田…")
        #expect(TerminalText.truncated("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(TerminalText.truncated("abc", toWidth: 0) == "")
        #expect(TerminalText.truncated("abc", toWidth: 1) == "…")
    }

    @Test("truncation never cuts an escape's replacement into a control sequence")
    func truncationAfterSanitising() {
        let shown = TerminalText.truncated("\u{1B}[2J\u{1B}[2J", toWidth: 4)
        #expect(shown == "^[[…")
        #expect(!shown.unicodeScalars.contains("\u{1B}"))
    }

    @Test("truncated text never exceeds the width", arguments: 1...12)
    func truncatedWidth(_ width: Int) {
        for text in ["Ada Lovelace", "山田太郎さん", "😀😀😀😀😀😀", "a\u{1B}b\u{9B}c", "e\u{301}山a😀"] {
            #expect(TerminalText.displayWidth(TerminalText.truncated(text, toWidth: width)) <= width)
        }
    }

    @Test("wrapping breaks at spaces, and inside words longer than the width")
    func wrapping() {
        #expect(TerminalText.wrapped("Send email to Ada Lovelace?", toWidth: 12) == ["Send email", "to Ada", "Lovelace?"])
        #expect(TerminalText.wrapped("short", toWidth: 12) == ["short"])
        #expect(TerminalText.wrapped("abcdefghij", toWidth: 4) == ["abcd", "efgh", "ij"])
        #expect(TerminalText.wrapped("山田太郎", toWidth: 5) == ["山田", "太郎"])
        #expect(TerminalText.wrapped("a\u{1B}b", toWidth: 3) == ["a^[", "b"])
    }
}
