import Foundation
@testable import TerminalUI
import Testing

/// Prompts driven through a pseudo-terminal, as a person would: keys typed on the master side,
/// frames read back from it. Serialized, because prompts take turns on the terminal and signal
/// handlers are process-wide.
@Suite("On a terminal, prompts are driven by keys and leave the terminal as they found it", .serialized)
struct TTYPrompterTests {
    static let people = [
        PickerItem(title: "Ada Lovelace", detail: "ada@example.com"),
        PickerItem(title: "Charles Babbage", detail: "charles@example.com"),
        PickerItem(title: "Grace Hopper", detail: "grace@navy.example"),
        PickerItem(title: "Alan Turing", detail: "alan@example.ac.uk"),
    ]

    static let needsAt: @Sendable (String) -> String? = { $0.contains("@") ? nil : "must contain @" }

    /// Runs `body` with a prompter on a fresh pseudo-terminal; afterwards checks that the
    /// terminal has its settings from before and shows the cursor.
    func onTerminal<Value>(columns: Int = 80, rows: Int = 24,
                           _ body: (PseudoTerminal, TTYPrompter) async throws -> Value) async throws -> Value {
        let terminal = try PseudoTerminal(columns: columns, rows: rows)
        defer { terminal.close() }
        let before = terminal.settings
        let prompter = TTYPrompter(fileDescriptor: terminal.slave, environment: ["TERM": "xterm-256color"])
        let value = try await body(terminal, prompter)
        #expect(sameSettings(terminal.settings, before), "the terminal's settings are restored")
        let output = try await terminal.drainedOutput()
        let lastShown = try #require(output.ranges(of: ControlSequence.showCursor).last)
        if let lastHidden = output.ranges(of: ControlSequence.hideCursor).last {
            #expect(lastHidden.lowerBound < lastShown.lowerBound, "the cursor is shown at the end")
        }
        return value
    }

    /// Starts a pick of `items`, waits for it to be drawn, types `keys`, and returns the choice.
    func pick(_ keys: String, items: [PickerItem] = people, extraAction: String? = nil, moreAvailable: Bool = false,
              columns: Int = 80, rows: Int = 24) async throws -> (PickerChoice, String) {
        try await onTerminal(columns: columns, rows: rows) { terminal, prompter in
            async let choice = prompter.pick(title: "Which person?", items: items, extraAction: extraAction,
                                             moreAvailable: moreAvailable, filter: substringFilter(items))
            try await terminal.waitForOutput("Which person?")
            #expect(isRaw(terminal.settings), "the terminal is in raw mode while the picker is shown")
            terminal.type(keys)
            return (try await choice, try await terminal.drainedOutput())
        }
    }

    @Test("down, down, Enter chooses the third item")
    func arrowKeys() async throws {
        let (choice, output) = try await pick("\u{1B}[B\u{1B}[B\r")
        #expect(choice == .item(2))
        #expect(output.contains("Ada Lovelace"))
        #expect(output.contains(ControlSequence.hideCursor))
    }

    @Test("j, k and arrows in application mode move too")
    func otherMovementKeys() async throws {
        #expect(try await pick("j\u{1B}OBk\r").0 == .item(1))
    }

    @Test("Page Down on a small terminal moves by a window")
    func paging() async throws {
        let many = (1...20).map { PickerItem(title: "Person \($0)") }
        let (choice, output) = try await pick("\u{1B}[6~\r", items: many, rows: 8)
        #expect(choice == .item(4))
        #expect(output.contains("↓ 16 more"))
        #expect(output.contains("↑ 1 more"))
    }

    @Test("typing filters, and Enter chooses the first match by its original index")
    func filtering() async throws {
        let (choice, output) = try await pick("Tur\r")
        #expect(choice == .item(3))
        #expect(output.contains("filter: "))
        #expect(output.contains("1 of 4"))
    }

    @Test("digits choose the numbered row: 5 then Enter is row 5 of 30, never a filter")
    func digitsChoose() async throws {
        let many = (1...30).map { PickerItem(title: "Person \($0)", detail: "p\($0)@example.com") }
        let (choice, output) = try await pick("5\r", items: many)
        #expect(choice == .item(4))
        #expect(output.contains("number: "))
        #expect(try await pick("26\r", items: many).0 == .item(25))
    }

    @Test("/ starts the filter, where q is a letter; Esc then cancels")
    func slashFilterThenCancel() async throws {
        let items = [PickerItem(title: "Qiu Ying"), PickerItem(title: "Ada Lovelace")]
        #expect(try await pick("/qiu\r", items: items).0 == .item(0))
        #expect(try await pick("/qiu\u{1B}", items: items).0 == .cancelled)
    }

    @Test("a lone Esc, q and Ctrl-C cancel", arguments: ["\u{1B}", "q", "\u{3}"])
    func cancelling(_ key: String) async throws {
        #expect(try await pick(key).0 == .cancelled)
    }

    @Test("the extra action follows the items and survives any filter")
    func extraAction() async throws {
        let (choice, output) = try await pick("\u{1B}[F\r", extraAction: "add new entry", moreAvailable: true)
        #expect(choice == .extra)
        #expect(output.contains("＋ add new entry"))
        #expect(output.contains("… show more"))
        #expect(try await pick("Nobody\r", extraAction: "add new entry").0 == .extra)
    }

    @Test("escape sequences in directory data reach the screen only as visible text")
    func hostileData() async throws {
        let hostile = [PickerItem(title: "\u{1B}]0;owned\u{7}", detail: "\u{1B}[2J\u{9B}31m")]
        let (choice, output) = try await pick("\r", items: hostile)
        #expect(choice == .item(0))
        #expect(output.contains("^[]0;owned^G"))
        #expect(output.contains("^[[2J\u{FFFD}31m"))
        #expect(!output.contains("\u{1B}]"))
        #expect(!output.contains("\u{1B}[2J"))
        #expect(!output.unicodeScalars.contains("\u{9B}"))
    }

    @Test("y and n answer a question; Enter gives the default", arguments: [
        ("y", false, true), ("n", true, false), ("\r", true, true), ("\r", false, false),
    ])
    func confirm(_ key: String, _ defaultAnswer: Bool, _ answer: Bool) async throws {
        let (value, output) = try await onTerminal { terminal, prompter in
            async let value = prompter.confirm("Send email to Ada?", defaultAnswer: defaultAnswer)
            try await terminal.waitForOutput("Send email to Ada?")
            terminal.type(key)
            return (try await value, try await terminal.drainedOutput())
        }
        #expect(value == answer)
        #expect(output.contains(defaultAnswer ? "[Y/n]" : "[y/N]"))
        #expect(output.contains(answer ? "yes" : "no"))
    }

    @Test("Esc cancels a question, which throws")
    func confirmCancelled() async throws {
        try await onTerminal { terminal, prompter in
            let answer = Task { try await prompter.confirm("Send?", defaultAnswer: true) }
            try await terminal.waitForOutput("Send?")
            terminal.type("\u{1B}")
            await #expect(throws: PromptError.cancelled) { try await answer.value }
        }
    }

    @Test("a form is edited, blocked while invalid, and submitted")
    func form() async throws {
        let values = try await onTerminal { terminal, prompter in
            async let values = prompter.form(title: "New entry", fields: [
                FormField(label: "Name", value: "Ada"),
                FormField(label: "Email", help: "name@example.com", validate: Self.needsAt),
            ])
            try await terminal.waitForOutput("New entry")
            #expect(isRaw(terminal.settings))
            let mark = terminal.outputCount
            terminal.type(" Lovelace\tada\r")
            try await terminal.waitForOutput("must contain @", after: mark)
            terminal.type("@example.com\r")
            return try await values
        }
        #expect(values == ["Ada Lovelace", "ada@example.com"])
    }

    @Test("editing keys move and delete within a field")
    func formEditing() async throws {
        let values = try await onTerminal { terminal, prompter in
            async let values = prompter.form(title: "Name", fields: [FormField(label: "Name", value: "Ada Lovelace")])
            try await terminal.waitForOutput("Name")
            // Home, Delete, type "E"; Ctrl-E, Backspace ×4, type "ord"; Ctrl-A, →, →, →, Ctrl-K, " King".
            terminal.type("\u{1B}[H\u{1B}[3~E\u{5}\u{7F}\u{7F}\u{7F}\u{7F}ord\u{1}\u{1B}[C\u{1B}[C\u{1B}[C\u{B} King\r")
            return try await values
        }
        #expect(values == ["Eda King"])
    }

    @Test("Esc cancels a form")
    func formCancelled() async throws {
        let values = try await onTerminal { terminal, prompter in
            async let values = prompter.form(title: "New entry", fields: [FormField(label: "Name")])
            try await terminal.waitForOutput("New entry")
            terminal.type("Ada\u{1B}")
            return try await values
        }
        #expect(values == nil)
    }

    @Test("a message is one sanitised line")
    func message() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let prompter = TTYPrompter(fileDescriptor: terminal.slave, environment: [:])
        await prompter.message("Saved \u{1B}[31mAda")
        try await terminal.waitForOutput("Saved ^[[31mAda\r\n")
        #expect(!terminal.output.contains("\u{1B}"))
    }

    @Test("cancelling the task ends the picker and restores the terminal")
    func taskCancellation() async throws {
        try await onTerminal { terminal, prompter in
            let choice = Task {
                try await prompter.pick(title: "Which person?", items: Self.people, extraAction: nil, moreAvailable: false)
            }
            try await terminal.waitForOutput("Which person?")
            choice.cancel()
            await #expect(throws: CancellationError.self) { try await choice.value }
        }
    }

    @Test("prompts take turns: the second is drawn once the first is answered")
    func promptsTakeTurns() async throws {
        try await onTerminal { terminal, prompter in
            async let first = prompter.confirm("First?", defaultAnswer: false)
            try await terminal.waitForOutput("First?")
            async let second = prompter.confirm("Second?", defaultAnswer: false)
            try await Task.sleep(for: .milliseconds(50))
            #expect(!terminal.output.contains("Second?"))
            terminal.type("y")
            #expect(try await first)
            try await terminal.waitForOutput("Second?")
            terminal.type("n")
            #expect(try await second == false)
        }
    }
}
