import CommandLineKit
import Foundation
import LDAPBook
import TerminalUI

/// `ldapbook history list|forget|clear`: whom reach remembers the user meant.
enum History {
    static let spec = CommandSpec(
        "history",
        abstract: "List or forget whom reach remembers you meant.",
        discussion: """
            After reach resolves, it remembers the field, the name you typed and the person it \
            ended on, in $XDG_STATE_HOME/ldapbook/history (readable by you only). Next time, that \
            person comes first among people who match as well (find --field F --explain says so); \
            a confirmation is never skipped. reach --no-history neither reads nor writes it. \
            ACTION is list, forget NAME (every choice for that name), or clear.
            """,
        positionals: [
            PositionalSpec("ACTION", help: "list, forget or clear", completion: .choices(["list", "forget", "clear"])),
            PositionalSpec("NAME", help: "with forget: the name whose choices to forget", isRepeating: true, isOptional: true),
        ],
        examples: [.init(summary: "Forget whom \"ada\" meant", commandLine: "ldapbook history forget ada")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        var history = ReachHistory()
        let name = parsed.positionals("NAME").joined(separator: " ")
        switch parsed.positional("ACTION") ?? "" {
        case "list":
            guard name.isEmpty else { throw CommandFailure(.usage, "history list takes no NAME") }
            let lines = history.choices.map { "\($0.field)\t\($0.name)\t\($0.dn)\t\($0.times)" }
            StandardStream.output.write(lines.map { TerminalText.sanitized($0) + "\n" }.joined())
        case "forget":
            guard !name.isEmpty else { throw CommandFailure(.usage, "history forget needs the NAME to forget (history clear forgets all)") }
            let forgotten = history.forget(try NameQuery(name))
            try history.save()
            StandardStream.output.write("forgot \(forgotten) choice\(forgotten == 1 ? "" : "s")\n")
        case "clear":
            guard name.isEmpty else { throw CommandFailure(.usage, "history clear takes no NAME; forget NAME forgets one") }
            let forgotten = history.forget(nil)
            try history.save()
            StandardStream.output.write("forgot \(forgotten) choice\(forgotten == 1 ? "" : "s")\n")
        case let other:
            throw CommandFailure(.usage, "history: \"\(Diagnostics.quoting(other))\" is not an action (list, forget or clear)")
        }
        return .success
    }
}
