import Foundation
import TerminalUI
import Testing

@Suite("Without a terminal, questions are numbered lines and answers are read as lines")
struct LinePrompterTests {
    private let people = [
        PickerItem(title: "Ada Lovelace", detail: "ada@example.com"),
        PickerItem(title: "Charles Babbage", detail: "charles@example.com"),
        PickerItem(title: "Grace Hopper"),
    ]

    private static let needsAt: @Sendable (String) -> String? = { $0.contains("@") ? nil : "must contain @" }

    /// Runs `body` with a prompter whose input is `input` followed by its end, and returns the
    /// result and everything the prompter wrote.
    private func converse<Value>(_ input: String, attempts: Int = 3,
                                 _ body: (LinePrompter) async throws -> Value) async throws -> (Value, String) {
        let answers = Pipe()
        let questions = Pipe()
        answers.fileHandleForWriting.write(Data(input.utf8))
        try answers.fileHandleForWriting.close()
        let prompter = LinePrompter(input: answers.fileHandleForReading.fileDescriptor,
                                    output: questions.fileHandleForWriting.fileDescriptor, attempts: attempts)
        let value = try await body(prompter)
        try questions.fileHandleForWriting.close()
        let written = String(decoding: questions.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (value, written)
    }

    private func pick(_ input: String, extra: String? = "add new entry",
                      more: Bool = false) async throws -> (PickerChoice, String) {
        try await converse(input) { prompter in
            try await prompter.pick(title: "Which person?", items: people, extraAction: extra, moreAvailable: more)
        }
    }

    @Test("items are listed numbered from 1, the extra action as a)")
    func listing() async throws {
        let (choice, written) = try await pick("2\n")
        #expect(choice == .item(1))
        #expect(written.hasPrefix("""
            Which person?
              1) Ada Lovelace — ada@example.com
              2) Charles Babbage — charles@example.com
              3) Grace Hopper
              a) add new entry
            Choose 1-3 or a (Enter or q to cancel): 
            """))
    }

    @Test("a chooses the extra action; an empty line, q and the end of input cancel")
    func extraAndCancel() async throws {
        #expect(try await pick("a\n").0 == .extra)
        #expect(try await pick("A\n").0 == .extra)
        #expect(try await pick("\n").0 == .cancelled)
        #expect(try await pick("q\n").0 == .cancelled)
        #expect(try await pick("").0 == .cancelled)
    }

    @Test("an answer without a final newline still counts; spaces around it do not matter")
    func lastLine() async throws {
        #expect(try await pick("3").0 == .item(2))
        #expect(try await pick("  1 \r\n").0 == .item(0))
    }

    @Test("an invalid answer is asked again")
    func invalidThenValid() async throws {
        let (choice, written) = try await pick("7\nx\n1\n")
        #expect(choice == .item(0))
        #expect(written.contains("Not a choice: 7."))
        #expect(written.contains("Not a choice: x."))
    }

    @Test("too many invalid answers cancel")
    func tooManyInvalid() async throws {
        #expect(try await pick("0\n4\n-1\n1\n").0 == .cancelled)
    }

    @Test("a is no answer without an extra action")
    func noExtraAction() async throws {
        let (choice, written) = try await pick("a\n2\n", extra: nil)
        #expect(choice == .item(1))
        #expect(written.contains("Choose 1-3 (Enter or q to cancel)"))
        #expect(!written.contains("a)"))
    }

    @Test("more results are offered as m, and chosen with it")
    func moreResults() async throws {
        let (choice, written) = try await pick("m\n", more: true)
        #expect(choice == .more)
        #expect(written.contains("  m) show more"))
    }

    @Test("text that is no choice filters the list through the caller's matcher, numbered as before")
    func textFilters() async throws {
        let people = [PickerItem(title: "Ada Lovelace"), PickerItem(title: "Grace Hopper")]
        let (choice, written) = try await converse("gra\n2\n") { prompter in
            try await prompter.pick(title: "Who?", items: people, extraAction: "add new entry", extraActionFirst: true,
                                    moreAvailable: false, filter: substringFilter(people))
        }
        #expect(choice == .item(1))
        #expect(written.contains("  2) Grace Hopper\n"))
        #expect(written.range(of: "a) add new entry")!.lowerBound < written.range(of: "1) Ada Lovelace")!.lowerBound, "add new entry first")
    }

    @Test("nothing to choose cancels without asking")
    func nothingToChoose() async throws {
        let (choice, written) = try await converse("1\n") { prompter in
            try await prompter.pick(title: "Which?", items: [], extraAction: nil, moreAvailable: false)
        }
        #expect(choice == .cancelled)
        #expect(written.isEmpty)
    }

    @Test("each question reads its own line and no more")
    func oneLineEach() async throws {
        let (choices, _) = try await converse("2\n3\n") { prompter in
            [try await prompter.pick(title: "First", items: people, extraAction: nil, moreAvailable: false),
             try await prompter.pick(title: "Second", items: people, extraAction: nil, moreAvailable: false)]
        }
        #expect(choices == [.item(1), .item(2)])
    }

    @Test("directory text is written sanitised")
    func hostileItems() async throws {
        let (_, written) = try await converse("1\n") { prompter in
            try await prompter.pick(title: "Who\u{1B}[2J?", items: [PickerItem(title: "\u{1B}]0;owned\u{7}", detail: "\u{9B}31m")],
                                    extraAction: nil, moreAvailable: false)
        }
        #expect(written.contains("1) ^[]0;owned^G — \u{FFFD}31m"))
        #expect(written.contains("Who^[[2J?"))
        #expect(!written.unicodeScalars.contains("\u{1B}"))
        #expect(!written.unicodeScalars.contains("\u{9B}"))
    }

    @Test("confirm reads y, yes, n or no in any case, and Enter gives the default", arguments: [
        ("y\n", false, true), ("YES\n", false, true), ("n\n", true, false), ("No\n", true, false),
        ("\n", true, true), ("\n", false, false), ("maybe\ny\n", false, true),
    ])
    func confirm(_ input: String, _ defaultAnswer: Bool, _ answer: Bool) async throws {
        let (value, written) = try await converse(input) { prompter in
            try await prompter.confirm("Send email to Ada?", defaultAnswer: defaultAnswer)
        }
        #expect(value == answer)
        #expect(written.hasPrefix(defaultAnswer ? "Send email to Ada? [Y/n]: " : "Send email to Ada? [y/N]: "))
    }

    @Test("confirm throws when the input ends or the answers stay invalid")
    func confirmCancelled() async throws {
        await #expect(throws: PromptError.cancelled) {
            _ = try await converse("") { try await $0.confirm("Send?", defaultAnswer: true) }
        }
        await #expect(throws: PromptError.cancelled) {
            _ = try await converse("a\nb\nc\ny\n") { try await $0.confirm("Send?", defaultAnswer: true) }
        }
    }

    @Test("a form asks each field; an empty line keeps the current value")
    func form() async throws {
        let (values, written) = try await converse("\nada@example.com\n") { prompter in
            try await prompter.form(title: "New entry", fields: [
                FormField(label: "Name", value: "Ada"),
                FormField(label: "Email", help: "name@example.com", validate: Self.needsAt),
            ])
        }
        #expect(values == ["Ada", "ada@example.com"])
        #expect(written == "New entry\nName [Ada]: Email (name@example.com) []: ")
    }

    @Test("a value the field rejects is asked again with the field's message")
    func formValidation() async throws {
        let (values, written) = try await converse("ada\nada@example.com\n") { prompter in
            try await prompter.form(title: "Email", fields: [FormField(label: "Email", validate: Self.needsAt)])
        }
        #expect(values == ["ada@example.com"])
        #expect(written.contains("  Email: must contain @\n"))
    }

    @Test("a form is cancelled when the input ends or a value stays invalid")
    func formCancelled() async throws {
        let fields = [FormField(label: "Name", value: "Ada"), FormField(label: "Email", validate: Self.needsAt)]
        #expect(try await converse("Ada Lovelace\n") { try await $0.form(title: "Entry", fields: fields) }.0 == nil)
        #expect(try await converse("\nx\ny\nz\n") { try await $0.form(title: "Entry", fields: fields) }.0 == nil)
        #expect(try await converse("\n\n") { try await $0.form(title: "Entry", fields: fields) }.0 == nil)
    }

    @Test("a message is one sanitised line")
    func message() async throws {
        let (_, written) = try await converse("") { await $0.message("Saved \u{1B}[31mAda\nLovelace") }
        #expect(written == "Saved ^[[31mAda^JLovelace\n")
    }

    @Test("cancelling the task ends a question that waits for input")
    func taskCancellation() async throws {
        let answers = Pipe()
        let questions = Pipe()
        let prompter = LinePrompter(input: answers.fileHandleForReading.fileDescriptor,
                                    output: questions.fileHandleForWriting.fileDescriptor)
        let question = Task {
            try await prompter.confirm("Send?", defaultAnswer: false)
        }
        _ = questions.fileHandleForReading.availableData
        question.cancel()
        await #expect(throws: CancellationError.self) { try await question.value }
        try answers.fileHandleForWriting.close()
    }
}
