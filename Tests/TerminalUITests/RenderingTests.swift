import Foundation
@testable import TerminalUI
import Testing

@Suite("Frames are drawn in place, cut to the terminal, styled only where colour is allowed")
struct RenderingTests {
    @Test("styled runs are wrapped in SGR sequences; colour only when it is used")
    func styles() {
        var line = StyledLine("Ada", .bold)
        line.append(" ")
        line.append("no", .error)
        #expect(line.rendered(width: 80, usesColor: true) == "\u{1B}[1mAda\u{1B}[0m \u{1B}[31mno\u{1B}[0m")
        #expect(line.rendered(width: 80, usesColor: false) == "\u{1B}[1mAda\u{1B}[0m \u{1B}[1mno\u{1B}[0m")
        #expect(StyledLine("x", [.dim, .reverse]).rendered(width: 80, usesColor: false) == "\u{1B}[2;7mx\u{1B}[0m")
    }

    @Test("a line is cut across runs to the width, ending with an ellipsis")
    func cutting() {
        var line = StyledLine("> ")
        line.append("Ada Lovelace")
        line.append("  ada@example.com", .dim)
        #expect(line.rendered(width: 80, usesColor: false) == "> Ada Lovelace\u{1B}[2m  ada@example.com\u{1B}[0m")
        #expect(line.rendered(width: 16, usesColor: false) == "> Ada Lovelace\u{1B}[2m …\u{1B}[0m")
        #expect(line.rendered(width: 14, usesColor: false) == "> Ada Lovelac…")
        #expect(line.rendered(width: 2, usesColor: false) == ">…")
    }

    @Test("text is sanitised when it enters a line")
    func sanitisedOnEntry() {
        var line = StyledLine("\u{1B}[2J")
        line.append("\u{9B}31m", .bold)
        #expect(line.plainText == "^[[2J\u{FFFD}31m")
        #expect(line.width == 9)
    }

    private func frame(_ texts: [String], cursor: Frame.Position? = nil) -> Frame {
        Frame(lines: texts.map { StyledLine($0) }, cursor: cursor)
    }

    @Test("the first frame is drawn below the cursor with the cursor hidden")
    func firstFrame() {
        var renderer = InlineRenderer(usesColor: false)
        let output = renderer.draw(frame(["one", "two"]), size: TerminalSize(columns: 80, rows: 24))
        #expect(output == "\u{1B}[?25l\r\u{1B}[Jone\r\ntwo")
    }

    @Test("the next frame returns to the first line and erases below")
    func redraw() {
        var renderer = InlineRenderer(usesColor: false)
        let size = TerminalSize(columns: 80, rows: 24)
        _ = renderer.draw(frame(["one", "two", "three"]), size: size)
        #expect(renderer.draw(frame(["four"]), size: size) == "\u{1B}[?25l\r\u{1B}[2A\u{1B}[Jfour")
        #expect(renderer.erase() == "\r\u{1B}[J")
    }

    @Test("a frame with a cursor places and shows it, and the next frame starts from that line")
    func cursor() {
        var renderer = InlineRenderer(usesColor: false)
        let size = TerminalSize(columns: 80, rows: 24)
        let output = renderer.draw(frame(["title", "> Name: Ada", "  Mail: x"], cursor: .init(line: 1, column: 11)), size: size)
        #expect(output.hasSuffix("  Mail: x\u{1B}[1A\r\u{1B}[11C\u{1B}[?25h"))
        #expect(renderer.draw(frame(["again"]), size: size).hasPrefix("\u{1B}[?25l\r\u{1B}[1A\u{1B}[J"))
    }

    @Test("a frame left behind moves below its last line")
    func leaveBehind() {
        var renderer = InlineRenderer(usesColor: false)
        _ = renderer.draw(frame(["question", "[y/N] "], cursor: .init(line: 0, column: 3)),
                          size: TerminalSize(columns: 80, rows: 24))
        #expect(renderer.leaveBehind() == "\u{1B}[1B\r\n")
    }

    @Test("after a suspension the next frame starts afresh where the cursor is")
    func forgetting() {
        var renderer = InlineRenderer(usesColor: false)
        let size = TerminalSize(columns: 80, rows: 24)
        _ = renderer.draw(frame(["one", "two"]), size: size)
        renderer.forgetFrame()
        #expect(renderer.draw(frame(["one"]), size: size) == "\u{1B}[?25l\r\u{1B}[Jone")
    }

    @Test("lines are cut one column short of the width")
    func width() {
        var renderer = InlineRenderer(usesColor: false)
        let output = renderer.draw(frame([String(repeating: "x", count: 30)]), size: TerminalSize(columns: 10, rows: 24))
        #expect(output.hasSuffix("\u{1B}[Jxxxxxxxx…"))
    }

    @Test("a frame taller than the terminal is cropped around the cursor")
    func cropping() {
        let tall = frame((0..<20).map { "line \($0)" }, cursor: .init(line: 15, column: 2))
        let (lines, cursor) = InlineRenderer.crop(tall, toHeight: 5)
        #expect(lines.map(\.plainText) == ["line 13", "line 14", "line 15", "line 16", "line 17"])
        #expect(cursor == Frame.Position(line: 2, column: 2))
        let top = InlineRenderer.crop(frame((0..<20).map { "line \($0)" }), toHeight: 3)
        #expect(top.lines.map(\.plainText) == ["line 0", "line 1", "line 2"])
        let bottom = InlineRenderer.crop(frame((0..<20).map { "line \($0)" }, cursor: .init(line: 19, column: 0)), toHeight: 4)
        #expect(bottom.lines.map(\.plainText) == ["line 16", "line 17", "line 18", "line 19"])
        #expect(bottom.cursor == Frame.Position(line: 3, column: 0))
    }
}

@Suite("Terminal capabilities come from the descriptor and the environment")
struct TerminalCapabilitiesTests {
    @Test("a pipe is no terminal: no cursor control, no colour, size from COLUMNS and LINES")
    func notATerminal() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let capabilities = TerminalCapabilities.detect(fileDescriptor: ends[1],
                                                       environment: ["TERM": "xterm", "COLUMNS": "132", "LINES": "50"])
        #expect(capabilities == TerminalCapabilities(isTTY: false, columns: 132, rows: 50,
                                                     supportsCursorControl: false, usesColor: false))
        #expect(TerminalCapabilities.detect(fileDescriptor: ends[1], environment: [:]).columns == 80)
    }

    @Test("colour follows TERM and NO_COLOR on a terminal; TERM=dumb moves no cursor")
    func terminal() throws {
        let terminal = try PseudoTerminal(columns: 100, rows: 30)
        defer { terminal.close() }
        let plain = TerminalCapabilities.detect(fileDescriptor: terminal.slave, environment: ["TERM": "xterm-256color"])
        #expect(plain == TerminalCapabilities(isTTY: true, columns: 100, rows: 30, supportsCursorControl: true, usesColor: true))
        #expect(!TerminalCapabilities.detect(fileDescriptor: terminal.slave,
                                             environment: ["TERM": "xterm", "NO_COLOR": "1"]).usesColor)
        #expect(TerminalCapabilities.detect(fileDescriptor: terminal.slave,
                                            environment: ["TERM": "xterm", "NO_COLOR": ""]).usesColor)
        let dumb = TerminalCapabilities.detect(fileDescriptor: terminal.slave, environment: ["TERM": "dumb"])
        #expect(!dumb.supportsCursorControl)
        #expect(!dumb.usesColor)
        #expect(!TerminalCapabilities.detect(fileDescriptor: terminal.slave, environment: [:]).usesColor)
    }
}
