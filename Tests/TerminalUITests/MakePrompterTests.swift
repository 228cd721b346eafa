import Foundation
import TerminalUI
import Testing

@Suite("The process's prompter depends on its controlling terminal")
struct MakePrompterTests {
    /// Whether this process has a controlling terminal it can open.
    private var hasControllingTerminal: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    @Test("a terminal that moves the cursor gets the raw-mode prompter, anything else lines")
    func choice() {
        let prompter = TerminalUI.makePrompter(environment: ["TERM": "xterm"])
        #expect((prompter is TTYPrompter) == hasControllingTerminal)
        #expect((prompter is LinePrompter) == !hasControllingTerminal)
    }

    @Test("TERM=dumb gets numbered lines even on a terminal")
    func dumbTerminal() {
        #expect(TerminalUI.makePrompter(environment: ["TERM": "dumb"]) is LinePrompter)
    }

    @Test("opening something that is not a terminal fails with the reason")
    func notATerminal() {
        #expect(throws: PromptError.terminalFailure(call: "isatty", errno: ENOTTY)) {
            _ = try TTYPrompter(openingTerminalAt: "/dev/null")
        }
        #expect(throws: PromptError.terminalFailure(call: "open", errno: ENOENT)) {
            _ = try TTYPrompter(openingTerminalAt: "/nonexistent/tty")
        }
    }
}
