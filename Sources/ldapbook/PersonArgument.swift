import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import TerminalUI

/// The person a command names: a DN, or a name that must match exactly one
/// person (or be narrowed with `--pick` or on the terminal).
enum PersonArgument {
    /// The options that choose among several people.
    static let options = [
        OptionSpec(["--pick"], .value("N"), help: "when several people match, take the Nth as listed"),
        OptionSpec(["--no-input"], help: "never ask; exit 3 when several people match and --pick is missing"),
    ]

    /// Resolves `words` to a person, with `fields` read.
    static func resolve(_ words: [String], book: AddressBook, fields: [Field], parsed: ParsedCommandLine)
        async throws -> Person
    {
        let text = words.joined(separator: " ")
        if words.count == 1, text.contains("="), let dn = try? DistinguishedName(parsing: text), !dn.isRoot {
            guard let person = try await book.person(at: dn, fields: fields) else {
                throw CommandFailure(.nothingDone, "no entry \(dn)")
            }
            return person
        }
        let ranking = try await book.rank(field: nil, name: try NameQuery(text))
        let chosen: Person
        if let only = ranking.uniqueFullMatch {
            // Only one person matches every word: that is the person meant.
            chosen = only.person
        } else if ranking.nameOnly.count == 1, ranking.nameOnly[0].score.approximateWords == 0 {
            chosen = ranking.nameOnly[0].person
        } else if ranking.nameOnly.isEmpty {
            throw CommandFailure(.nothingDone, "no one named \(text)")
        } else {
            // Several people, or one found only by a nickname or through a typo: a guess is asked.
            chosen = try await choose(among: ranking.nameOnly.map(\.person), named: text, parsed: parsed)
        }
        // As the server has them now: the person a stale index named is checked there.
        return try await book.confirmed(chosen, fields: fields)
    }
}

extension PersonArgument {
    /// The one of `people` meant by `text`: `--pick N`, or asked on the terminal; under
    /// `--no-input`, exit 3 with the choices listed.
    static func choose(among people: [Person], named text: String, parsed: ParsedCommandLine, what: String = "people")
        async throws -> Person
    {
        let items = people.map { person in
            PickerItem(title: person.displayName, detail: (person.details + [person.dn.string]).joined(separator: ", "))
        }
        if let pick = try parsed.integer("--pick") {
            guard items.indices.contains(pick - 1) else {
                throw CommandFailure(.usage, "--pick \(pick): \(items.count) \(what) match")
            }
            return people[pick - 1]
        }
        if parsed.flag("--no-input") {
            let listing = items.enumerated().map { "  \($0.offset + 1)) \($0.element.title) — \($0.element.detail ?? "")" }
            let count = items.count == 1 ? "1 person matches" : "\(items.count) \(what) match"
            throw CommandFailure(.inputNeeded, "input needed: \(count) \"\(text)\" (use --pick N or a DN)", details: listing)
        }
        guard case .item(let index) = try await TerminalUI.makePrompter().pick(
            title: "Which \"\(text)\"?", items: items, extraAction: nil, moreAvailable: false,
            filter: CommandLinePresenter.filter(items, people: people)) else {
            throw CommandFailure(.nothingDone, "cancelled")
        }
        return people[index]
    }
}

/// `FIELD=VALUE` arguments, with `@FILE` reading a value's bytes from a file.
enum FieldAssignment {
    /// Splits and resolves `FIELD=VALUE`.
    static func parse(_ argument: String, book: AddressBook) async throws -> (Field, LDAPValue) {
        guard let equals = argument.firstIndex(of: "=") else {
            throw CommandFailure(.usage, "\"\(Diagnostics.quoting(argument))\" is not FIELD=VALUE")
        }
        let field = try await book.field(typed: String(argument[..<equals]), nearMiss: Suggestion.closest)
        let text = String(argument[argument.index(after: equals)...])
        if text.hasPrefix("@") && text.count > 1 {
            let path = ConnectionOptions.expandingTilde(String(text.dropFirst()))
            let value: LDAPValue
            do {
                value = LDAPValue(bytes: [UInt8](try UserFile.read(path)))
            } catch let failure as CommandFailure {
                throw CommandFailure(failure.exitCode, "\(field.name): \(failure.message)")
            }
            // Checked here, while the file is known, so the message can name it.
            do {
                try field.validate([value])
            } catch {
                throw AddressBookError(error.code, "\(path): \(error.message)")
            }
            return (field, value)
        }
        return (field, LDAPValue(text))
    }

    /// Groups assignments by field, keeping the order fields first appear in.
    static func grouped(_ assignments: [(Field, LDAPValue)]) -> [(field: Field, values: [LDAPValue])] {
        var groups: [(field: Field, values: [LDAPValue])] = []
        for (field, value) in assignments {
            if let index = groups.firstIndex(where: { $0.field == field }) {
                groups[index].values.append(value)
            } else {
                groups.append((field, [value]))
            }
        }
        return groups
    }
}
