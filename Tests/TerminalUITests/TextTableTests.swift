@testable import TerminalUI
import Testing

@Suite("Aligned tables")
struct TextTableTests {
    @Test("columns as wide as their widest cell, two spaces between, the last one not padded; wide and hostile text measured sanitised")
    func layout() {
        var table = TextTable(columns: 3)
        for cell in ["#", "NAME", "DN", "1", "Ada Lovelace", "uid=ada", "2", "山田 太郎", "uid=yamada", "3", "Mal\u{1B}[31mlory", "uid=m"] {
            table.append(cell)
        }
        var output: [UInt8] = []
        table.write(rows: 0..<table.rows, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == [
            "#  NAME           DN",
            "1  Ada Lovelace   uid=ada",
            "2  山田 太郎      uid=yamada",
            "3  Mal^[[31mlory  uid=m",
        ].map { $0 + "\n" }.joined())
        #expect(table.widths == [1, 13, 10])
    }

    @Test("written in pieces of rows, and in parts to the widths of all of them, it is the same table")
    func pieces() {
        let cells = (0..<40).map { "cell \(String(repeating: "x", count: $0 % 7))" }
        var whole = TextTable(columns: 4)
        for cell in cells { whole.append(cell) }
        var once: [UInt8] = []
        whole.write(rows: 0..<whole.rows, to: &once)
        var inPieces: [UInt8] = []
        for start in stride(from: 0, to: whole.rows, by: 3) { whole.write(rows: start..<start + 3, to: &inPieces) }
        #expect(inPieces == once)

        var first = TextTable(columns: 4), second = TextTable(columns: 4)
        for cell in cells.prefix(16) { first.append(cell) }
        for cell in cells.dropFirst(16) { second.append(cell) }
        let widths = zip(first.widths, second.widths).map(max)
        var inParts: [UInt8] = []
        first.write(rows: 0..<first.rows, widths: widths, to: &inParts)
        second.write(rows: 0..<second.rows, widths: widths, to: &inParts)
        #expect(inParts == once)
    }

    @Test("a cell of bytes that are not UTF-8 shows U+FFFD")
    func invalidBytes() {
        var table = TextTable(columns: 1)
        [0x41, 0xFF, 0x42].withUnsafeBufferPointer { table.append(utf8: $0) }
        var output: [UInt8] = []
        table.write(rows: 0..<1, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "A\u{FFFD}B\n")
        #expect(table.widths == [3])
    }

    @Test("printable ASCII is measured by its bytes, as the character by character count has it", arguments: [
        "", "Ada Lovelace", "uid=ada,ou=people", "~!@#$%^&*()_+", "tab\there", "Zoë", "山田", "e\u{301}",
    ])
    func asciiWidths(_ text: String) {
        #expect(TerminalText.displayWidth(text) == DisplayWidth.of(TerminalText.sanitized(text)))
    }

    @Test("names in the common scripts are measured scalar by scalar as character by character", arguments: [
        "Zoë Ångström", "Ze\u{301}nobia", "Łukasz Żółć", "Ðorđe", "山田 太郎", "ひらがな カタカナ", "김민준", "ʔaʔa", "Ǆ ǈ",
    ])
    func commonScripts(_ name: String) throws {
        let fast = try #require(DisplayWidth.ofCommonScripts(name))
        #expect(fast == DisplayWidth.of(TerminalText.sanitized(name)))
        #expect(TerminalText.sanitized(name) == name)
    }

    @Test("other text is left to the character by character count", arguments: ["😀", "🇫🇷", "a\u{200D}b", "नमस्ते", "\u{1B}[2J", "\u{9B}"])
    func otherScripts(_ text: String) {
        #expect(DisplayWidth.ofCommonScripts(text) == nil)
    }

    @Test("rows written one by one, in an order of their own, read as the table written in that order")
    func rowsInAnotherOrder() {
        let rows = [["NAME", "DN"], ["Zoë Ångström", "uid=zoe"], ["Ada", "uid=ada,ou=people"], ["山田", "uid=yamada"]]
        var added = TextTable(columns: 2)
        for row in rows { for cell in row { added.append(cell) } }
        let order = [0, 3, 1, 2]
        var inOrder = TextTable(columns: 2)
        for index in order { for cell in rows[index] { inOrder.append(cell) } }
        // The widths of the rows shown, which here are all of them.
        let widths = (0..<2).map { column in order.map { added.width(ofRow: $0, column: column) }.max() ?? 0 }
        #expect(widths == inOrder.widths)
        var oneByOne: [UInt8] = [], whole: [UInt8] = []
        for row in order { added.write(row: row, widths: widths, to: &oneByOne) }
        inOrder.write(rows: 0..<4, to: &whole)
        #expect(String(decoding: oneByOne, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
    }
}

