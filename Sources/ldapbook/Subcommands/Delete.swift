import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import TerminalUI

/// `ldapbook delete NAME|DN`: one person's entry, after a confirmation.
enum Delete {
    static let spec = CommandSpec(
        "delete",
        abstract: "Delete a person, after confirming.",
        discussion: """
            NAME must match one person (or use --pick, or give the DN). The person is shown and \
            the deletion confirmed on the terminal; --yes deletes without asking, and without a \
            terminal (or with --no-input) nothing is deleted unless --yes is given. An entry with \
            entries below it is refused: ldapbook deletes people, not subtrees.
            """,
        options: PersonArgument.options + [OptionSpec(["--yes"], help: "delete without asking")],
        positionals: [PositionalSpec("NAME", help: "a name that matches one person, or a DN", isRepeating: true)],
        examples: [.init(summary: "Delete a person by DN, in a script",
                         commandLine: "ldapbook delete --yes uid=ada.lovelace,ou=people,dc=example,dc=com")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let book = try await Directory.addressBook(parsed)
        let person = try await PersonArgument.resolve(parsed.positionals("NAME"), book: book, fields: [], parsed: parsed)
        let who = "\(person.displayName) (\(person.dn))"
        if !parsed.flag("--yes") {
            guard !parsed.flag("--no-input"), isatty(STDIN_FILENO) != 0 else {
                throw CommandFailure(.inputNeeded, "input needed: delete \(who)? (answer with --yes)")
            }
            guard try await TerminalUI.makePrompter().confirm("Delete \(who)?", defaultAnswer: false) else {
                throw CommandFailure(.nothingDone, "nothing deleted")
            }
        }
        do {
            try await book.delete(person)
        } catch let error as LDAPError where error.code == .notAllowedOnNonLeaf {
            throw CommandFailure(.invalidValue, "\(person.dn) has entries below it: ldapbook deletes people, not subtrees")
        }
        StandardStream.output.write("deleted \(TerminalText.sanitized(person.dn.string))\n")
        return .success
    }
}
