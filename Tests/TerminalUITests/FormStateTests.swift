@testable import TerminalUI
import Testing

@Suite("The form edits fields, moves between them and submits only valid values")
struct FormStateTests {
    private static let needsAt: @Sendable (String) -> String? = { $0.contains("@") ? nil : "must contain @" }

    private func form(_ values: [String] = ["Ada", ""]) -> FormState {
        var state = FormState(title: "New entry", fields: [
            FormField(label: "Name", value: values[0]),
            FormField(label: "Email", value: values[1], help: "name@example.com", validate: Self.needsAt),
        ])
        state.fit(to: TerminalSize(columns: 60, rows: 24))
        return state
    }

    private func type(_ text: String) -> [Key] {
        text.map(Key.character)
    }

    /// Applies `keys` and returns the outcome the last one produced, if any.
    private func press(_ keys: [Key], on state: inout FormState) -> FormState.Outcome? {
        var outcome: FormState.Outcome?
        for key in keys {
            outcome = state.handle(key)
        }
        return outcome
    }

    @Test("prefilled values are edited at the end, and Enter on the last field submits")
    func submit() {
        var state = form()
        let outcome = press(type(" Lovelace") + [.tab] + type("ada@example.com") + [.enter], on: &state)
        #expect(outcome == .submitted(["Ada Lovelace", "ada@example.com"]))
    }

    @Test("Enter on a field other than the last moves to the next")
    func enterMovesOn() {
        var state = form(["Ada", "ada@example.com"])
        #expect(press([.enter], on: &state) == nil)
        #expect(state.focus == 1)
        #expect(press([.enter], on: &state) == .submitted(["Ada", "ada@example.com"]))
    }

    @Test("Tab and Shift-Tab wrap around; arrows stop at the ends")
    func focusMoves() {
        var state = form()
        _ = press([.tab, .tab], on: &state)
        #expect(state.focus == 0)
        _ = press([.backTab], on: &state)
        #expect(state.focus == 1)
        _ = press([.down, .down], on: &state)
        #expect(state.focus == 1)
        _ = press([.up, .up], on: &state)
        #expect(state.focus == 0)
    }

    @Test("an invalid field blocks submitting, shows its message and takes the focus")
    func validationBlocksSubmit() {
        var state = form(["Ada", "ada"])
        #expect(press([.tab, .enter], on: &state) == nil)
        #expect(state.focus == 1)
        #expect(state.shownViolation(at: 1) == "must contain @")
        #expect(state.notice != nil)
        let lines = state.frame().lines.map(\.plainText)
        #expect(lines.contains { $0.contains("! must contain @") })
        #expect(press(type("@example.com") + [.enter], on: &state) == .submitted(["Ada", "ada@example.com"]))
    }

    @Test("a message appears once the field is left, and goes when the value is fixed")
    func messageTiming() {
        var state = form()
        _ = press([.tab] + type("ada"), on: &state)
        #expect(state.shownViolation(at: 1) == nil)
        _ = press([.backTab], on: &state)
        #expect(state.shownViolation(at: 1) == "must contain @")
        _ = press([.tab] + type("@x"), on: &state)
        #expect(state.shownViolation(at: 1) == nil)
    }

    @Test("Esc and Ctrl-C cancel")
    func cancelling() {
        var state = form()
        #expect(press([.escape], on: &state) == .cancelled)
        state = form()
        #expect(press([.control("c")], on: &state) == .cancelled)
    }

    @Test("the help of the focused field is shown under it")
    func help() {
        var state = form()
        #expect(!state.frame().lines.map(\.plainText).contains { $0.contains("name@example.com") })
        _ = press([.tab], on: &state)
        #expect(state.frame().lines.map(\.plainText).contains { $0.contains("name@example.com") })
    }

    @Test("the cursor stands at the edit point of the focused field")
    func cursorPosition() {
        var state = form(["Ada", "x"])
        // "> Email: " and "  Name:  " put values at column 9.
        #expect(state.frame().cursor == Frame.Position(line: 1, column: 12))
        _ = press([.control("a"), .right], on: &state)
        #expect(state.frame().cursor == Frame.Position(line: 1, column: 10))
        _ = press([.tab], on: &state)
        #expect(state.frame().cursor == Frame.Position(line: 2, column: 10))
    }

    @Test("a long value scrolls so that the cursor stays in view")
    func horizontalScrolling() {
        var state = FormState(title: "Note", fields: [FormField(label: "Note", value: String(repeating: "x", count: 100))])
        state.fit(to: TerminalSize(columns: 30, rows: 24))
        var frame = state.frame()
        #expect(frame.lines[1].width <= 29)
        #expect(frame.cursor!.column <= 29)
        _ = press([.home], on: &state)
        frame = state.frame()
        #expect(frame.cursor == Frame.Position(line: 1, column: 8))
        #expect(frame.lines[1].width <= 29)
    }

    @Test("prefilled values from the directory are shown sanitised, and kept as they are")
    func hostileValue() {
        var state = FormState(title: "Edit", fields: [FormField(label: "Name\u{1B}[2J", value: "Ada\u{1B}]0;x\u{7}")])
        state.fit(to: TerminalSize(columns: 80, rows: 24))
        let rendered = state.frame().lines.map { $0.rendered(width: 79, usesColor: false) }.joined()
        #expect(rendered.contains("Ada^[]0;x^G"))
        #expect(!rendered.contains("\u{1B}]"))
        #expect(!rendered.contains("\u{1B}[2J"))
        #expect(press([.enter], on: &state) == .submitted(["Ada\u{1B}]0;x\u{7}"]))
    }
}

@Suite("A line of text is edited like a shell's command line")
struct LineEditorTests {
    @Test("characters go in at the cursor; the cursor moves left and right within the text")
    func insertAndMove() {
        var editor = LineEditor("Ada")
        editor.moveLeft()
        editor.insert("x")
        #expect(editor.text == "Adxa")
        editor.moveToStart()
        editor.moveLeft()
        #expect(editor.cursor == 0)
        editor.insert(">")
        editor.moveToEnd()
        editor.moveRight()
        #expect(editor.cursor == 5)
        #expect(editor.text == ">Adxa")
    }

    @Test("Backspace and Delete remove one character on either side")
    func deleting() {
        var editor = LineEditor("Ada")
        editor.deleteForward()
        #expect(editor.text == "Ada")
        editor.deleteBackward()
        #expect(editor.text == "Ad")
        editor.moveToStart()
        editor.deleteBackward()
        editor.deleteForward()
        #expect(editor.text == "d")
        #expect(editor.cursor == 0)
    }

    @Test("Ctrl-U, Ctrl-K and Ctrl-W delete to the start, to the end and a word")
    func killing() {
        var editor = LineEditor("Ada King Lovelace")
        #expect(editor.handle(.control("w")) == true)
        #expect(editor.text == "Ada King ")
        #expect(editor.handle(.control("w")) == true)
        #expect(editor.text == "Ada ")
        editor = LineEditor("Ada Lovelace")
        for _ in 0..<8 { editor.moveLeft() }
        #expect(editor.handle(.control("k")) == true)
        #expect(editor.text == "Ada ")
        editor = LineEditor("Ada Lovelace")
        for _ in 0..<8 { editor.moveLeft() }
        #expect(editor.handle(.control("u")) == true)
        #expect(editor.text == "Lovelace")
        #expect(editor.cursor == 0)
    }

    @Test("editing keys map to the operations; others are left to the form")
    func keyMapping() {
        var editor = LineEditor("ab")
        #expect(editor.handle(.control("a")) == true)
        #expect(editor.cursor == 0)
        #expect(editor.handle(.control("e")) == true)
        #expect(editor.cursor == 2)
        #expect(editor.handle(.home) == true)
        #expect(editor.handle(.delete) == true)
        #expect(editor.text == "b")
        #expect(editor.handle(.enter) == false)
        #expect(editor.handle(.tab) == false)
        #expect(editor.handle(.up) == false)
    }

    @Test("a combining mark joins the character before it")
    func combiningMark() {
        var editor = LineEditor("Zoe")
        editor.insert("\u{308}")
        #expect(editor.text == "Zoë")
        #expect(editor.characters.count == 3)
        #expect(editor.cursor == 3)
        editor.deleteBackward()
        #expect(editor.text == "Zo")
    }
}

@Suite("A yes-or-no question takes one key")
struct ConfirmStateTests {
    @Test("y and n answer, in either case; Enter gives the default", arguments: [
        (Key.character("y"), false, ConfirmState.Outcome.answered(true)),
        (.character("Y"), false, .answered(true)),
        (.character("n"), true, .answered(false)),
        (.character("N"), true, .answered(false)),
        (.enter, false, .answered(false)),
        (.enter, true, .answered(true)),
        (.escape, true, .cancelled),
        (.control("c"), true, .cancelled),
    ])
    func answers(_ key: Key, _ defaultAnswer: Bool, _ outcome: ConfirmState.Outcome) {
        var state = ConfirmState(question: "Send?", defaultAnswer: defaultAnswer)
        #expect(state.handle(key) == outcome)
    }

    @Test("other keys are ignored")
    func otherKeys() {
        var state = ConfirmState(question: "Send?", defaultAnswer: false)
        #expect(state.handle(.character("x")) == nil)
        #expect(state.handle(.down) == nil)
        #expect(state.answer == nil)
    }

    @Test("the question shows the default in capitals, then the answer")
    func frame() {
        var state = ConfirmState(question: "Send email to Ada?", defaultAnswer: false)
        state.fit(to: TerminalSize(columns: 80, rows: 24))
        #expect(state.frame().lines.map(\.plainText) == ["Send email to Ada? [y/N] "])
        #expect(state.frame().cursor == Frame.Position(line: 0, column: 25))
        _ = state.handle(.character("y"))
        #expect(state.frame().lines.map(\.plainText) == ["Send email to Ada? [y/N] yes"])
        #expect(state.frame().cursor == nil)
    }

    @Test("a long question wraps instead of losing its end")
    func wrapping() {
        var state = ConfirmState(question: "Send email to Ada Lovelace at ada@example.com?", defaultAnswer: true)
        state.fit(to: TerminalSize(columns: 25, rows: 24))
        let lines = state.frame().lines.map(\.plainText)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 24 })
        #expect(lines.joined(separator: " ").hasPrefix("Send email to Ada Lovelace at ada@example.com?"))
        #expect(lines.last!.hasSuffix("[Y/n] "))
    }
}
