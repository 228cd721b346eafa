import CommandLineKit
import LDAPBook
import LDAPKit
import TerminalUI

/// `ldapbook reach FIELD NAME...`: the spec's flow on the command line.
enum Reach {
    static let spec = CommandSpec(
        "reach",
        abstract: "Find a person's field value, asking only what is needed, and act on it.",
        discussion: """
            Finds the people NAME matches (as find matches names) and whose FIELD is set, \
            and resolves to one value: confirms a single match, lets you pick among several, lets \
            you fill in a missing value or name (written back to the directory), or creates the \
            entry. Then it runs the action: by default it prints the value on standard output, so \
            mutt "$(ldapbook reach email ada)" works; questions go to the terminal, never to \
            standard output. Every question has a command-line answer (--yes, --pick, --new, \
            --value, --given, --surname); with --no-input, a question without one ends with exit 3.
            """,
        options: [
            OptionSpec(["--action"], .value("print|open"), help: "print the value (default), or open it with xdg-open (mailto:, tel:, URL)"),
            OptionSpec(["--yes"], help: "confirm without asking"),
            OptionSpec(["--pick"], .repeatedValue("N|DN|VALUE"), help: "answer the next list: the Nth entry as numbered there, the entry with this DN, or this value; repeat for each list, in order"),
            OptionSpec(["--new"], help: "add a new entry, whoever matches"),
            OptionSpec(["--value"], .value("V"), help: "the value meant: given to a new entry or to someone without one, added (after the confirmation) to someone with others"),
            OptionSpec(["--given"], .value("G"), help: "the first name of a new entry (default: from NAME), or one to add to someone found by FIELD alone"),
            OptionSpec(["--surname"], .value("S"), help: "the last name of a new entry (default: from NAME), or one to add to someone found by FIELD alone"),
            OptionSpec(["--no-input"], help: "never ask; exit 3 when a step has no answer"),
            OptionSpec(["--no-history"], help: "neither use nor add to the memory of whom you meant (see ldapbook history)"),
            OptionSpec(["--exec"], .remainder("CMD [ARGS...]"), help: "run CMD with {} replaced by the value (no shell); must come last"),
        ],
        positionals: [
            PositionalSpec("FIELD", help: "email, phone, any attribute of the directory, or a custom field",
                           completion: .program(arguments: ["--timeout", "1", "fields", "--format", "names"], fallback: Fields.builtInNames)),
            PositionalSpec("NAME", help: "the person's name: first and/or last name, or \"Last, First\"", isRepeating: true),
        ],
        examples: [
            .init(summary: "Write to Ada", commandLine: "mutt \"$(ldapbook reach email ada lovelace)\""),
            .init(summary: "Call Alan's mobile", commandLine: "ldapbook reach mobile turing --action open"),
            .init(summary: "Scripted", commandLine: "ldapbook reach email grace --pick 1 --yes --no-input"),
        ])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let fieldName = parsed.positionals("FIELD").first ?? ""
        let name = parsed.positionals("NAME").joined(separator: " ")
        let action: ReachAction
        if let command = parsed.remainder("--exec") {
            guard parsed.value("--action") == nil else {
                throw CommandFailure(.usage, "--action and --exec cannot be combined")
            }
            action = .exec(command)
        } else {
            switch parsed.value("--action") ?? "print" {
            case "print": action = .print
            case "open": action = .open
            case let other: throw CommandFailure(.usage, "--action: \"\(other)\" is not an action (print or open)")
            }
        }
        var answers = ReachAnswers()
        answers.yes = parsed.flag("--yes")
        answers.noInput = parsed.flag("--no-input")
        answers.givenName = parsed.value("--given")
        answers.surname = parsed.value("--surname")
        answers.picks = parsed.values("--pick")
        for pick in answers.picks {
            if let number = Int(pick), number < 1 { throw CommandFailure(.usage, "--pick: N counts from 1") }
        }
        var options = ReachOptions(newEntry: parsed.flag("--new"), value: parsed.value("--value").map { LDAPValue($0) })
        if options.newEntry && !answers.picks.isEmpty {
            throw CommandFailure(.usage, "--pick and --new cannot be combined: --new adds a new entry, with no list to pick from")
        }
        if options.value?.isEmpty == true { throw CommandFailure(.usage, "--value: the value is empty") }

        let book = try await Directory.addressBook(parsed)
        let field = try await book.field(typed: fieldName, nearMiss: Suggestion.closest)
        let query = try NameQuery(name)
        let history = parsed.flag("--no-history") ? nil : ReachHistory()
        options.remembered = history?.chosen(field: field.name, query: query) ?? []
        let presenter = CommandLinePresenter(answers: answers, action: action,
                                             prompter: answers.noInput ? nil : TerminalUI.makePrompter())
        let outcome = try await book.reach(field: field.name, name: name, options: options, presenter: presenter) { person, value in
            try action.run(person: person, value: value, field: field)
        }
        switch outcome {
        case .reached(let person, _):
            if var remembered = history {
                remembered.remember(field: field.name, query: query, dn: person.dn.string)
                do {
                    try remembered.save()
                } catch {
                    Diagnostics.say("note: whom you meant is not remembered: \(error)")
                }
            }
            return .success
        case .declined, .cancelled: return .nothingDone
        }
    }
}
