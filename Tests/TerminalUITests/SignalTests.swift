import Foundation
@testable import TerminalUI
import Testing

extension TTYPrompterTests {
    @Test("a hangup from outside restores the terminal before the signal goes on; the picker ends cancelled")
    func hangup() async throws {
        try await onTerminal { terminal, prompter in
            let before = terminal.settings
            let previous = SignalRecorder.install(for: SIGHUP, watching: terminal.slave)
            defer { SignalRecorder.restore(previous, for: SIGHUP) }
            async let choice = prompter.pick(title: "Which person?", items: Self.people, extraAction: nil,
                                             moreAvailable: false)
            try await terminal.waitForOutput("Which person?")
            #expect(isRaw(terminal.settings))
            kill(getpid(), SIGHUP)
            #expect(try await choice == .cancelled)
            #expect(SignalRecorder.calls.load(ordering: .acquiring) == 1)
            #expect(SignalRecorder.localFlags.load(ordering: .acquiring) == before.c_lflag,
                    "the handler found at the start saw the terminal restored")
        }
    }

    @Test("a suspension restores the terminal; on return raw mode and the picker come back")
    func suspension() async throws {
        let choice = try await onTerminal { terminal, prompter in
            let before = terminal.settings
            let previous = SignalRecorder.install(for: SIGTSTP, watching: terminal.slave)
            defer { SignalRecorder.restore(previous, for: SIGTSTP) }
            async let choice = prompter.pick(title: "Which person?", items: Self.people, extraAction: nil,
                                             moreAvailable: false)
            try await terminal.waitForOutput("Which person?")
            let mark = terminal.outputCount
            kill(getpid(), SIGTSTP)
            try await SignalRecorder.waitForCalls(1)
            #expect(SignalRecorder.localFlags.load(ordering: .acquiring) == before.c_lflag,
                    "the terminal was restored while suspended")
            let redrawn = try await terminal.waitForOutput("Which person?", after: mark)
            #expect(redrawn.hasPrefix(ControlSequence.showCursor), "the cursor was shown while suspended")
            #expect(isRaw(terminal.settings))
            terminal.type("j\r")
            return try await choice
        }
        #expect(choice == .item(1))
    }

    @Test("SIGCONT after a stop the prompt could not see re-enters raw mode and redraws")
    func continuation() async throws {
        let choice = try await onTerminal { terminal, prompter in
            async let choice = prompter.pick(title: "Which person?", items: Self.people, extraAction: nil,
                                             moreAvailable: false)
            try await terminal.waitForOutput("Which person?")
            let mark = terminal.outputCount
            kill(getpid(), SIGCONT)
            try await terminal.waitForOutput("Which person?", after: mark)
            terminal.type("\r")
            return try await choice
        }
        #expect(choice == .item(0))
    }

    @Test("a window that shrinks is drawn again to fit")
    func resize() async throws {
        let many = (1...20).map { PickerItem(title: "Person \($0)") }
        let choice = try await onTerminal { terminal, prompter in
            async let choice = prompter.pick(title: "Which person?", items: many, extraAction: nil, moreAvailable: false)
            try await terminal.waitForOutput("Person 20")
            let mark = terminal.outputCount
            terminal.resize(columns: 80, rows: 8)
            kill(getpid(), SIGWINCH)
            try await terminal.waitForOutput("↓ 16 more", after: mark)
            terminal.type("\u{1B}[6~\r")
            return try await choice
        }
        #expect(choice == .item(4))
    }

    @Test("no prompt's handlers stay installed once it has ended")
    func handlersRemoved() async throws {
        var before = sigaction()
        sigaction(SIGTSTP, nil, &before)
        _ = try await pick("\r")
        var after = sigaction()
        sigaction(SIGTSTP, nil, &after)
        #expect(unsafeBitCast(after.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(before.__sigaction_handler.sa_handler, to: Int.self))
    }
}
