import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import TerminalUI

/// `ldapbook rename NAME|DN --given G --surname S`: a person's names, together.
enum Rename {
    static let spec = CommandSpec(
        "rename",
        abstract: "Give a person a new given name and/or surname.",
        discussion: """
            givenName, sn, the full name in cn and displayName (when it was the full name) change \
            together, in one modify that fails without writing if someone changed the names \
            meanwhile. An entry named by its full name (cn=Ada Lovelace,…) is renamed too (modify \
            DN). Confirmed on the terminal; --yes renames without asking. Prints the DN after.
            """,
        options: PersonArgument.options + [
            OptionSpec(["--given"], .value("G"), help: "the new given name (\"\" removes it)"),
            OptionSpec(["--surname"], .value("S"), help: "the new surname"),
            OptionSpec(["--yes"], help: "rename without asking"),
        ],
        positionals: [PositionalSpec("NAME", help: "a name that matches one person, or a DN", isRepeating: true)],
        examples: [.init(summary: "A new surname", commandLine: "ldapbook rename ada lovelace --surname King")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let given = parsed.value("--given"), surname = parsed.value("--surname")
        guard given != nil || surname != nil else {
            throw CommandFailure(.usage, "rename needs --given G, --surname S, or both")
        }
        if let surname, surname.trimmingCharacters(in: .whitespaces).isEmpty {
            throw CommandFailure(.usage, "--surname: a surname must not be empty")
        }
        let book = try await Directory.addressBook(parsed)
        let person = try await PersonArgument.resolve(parsed.positionals("NAME"), book: book, fields: [], parsed: parsed)
        let newName = [given ?? person.givenNames.first, surname ?? person.surnames.first]
            .compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        if !parsed.flag("--yes") {
            let question = "Rename \(person.displayName) (\(person.dn)) to \(newName)?"
            guard !parsed.flag("--no-input"), isatty(STDIN_FILENO) != 0 else {
                throw CommandFailure(.inputNeeded, "input needed: \(question) (answer with --yes)")
            }
            guard try await TerminalUI.makePrompter().confirm(question, defaultAnswer: false) else {
                throw CommandFailure(.nothingDone, "nothing renamed")
            }
        }
        let renamed = try await book.rename(person, givenName: given, surname: surname)
        StandardStream.output.write(TerminalText.sanitized(renamed.dn.string) + "\n")
        return .success
    }
}
