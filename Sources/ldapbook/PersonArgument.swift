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
        // The best few, not everyone: from the local index, only they are read (`show jo` read
        // the 12,000 people `jo` may mean at 100,000 entries, 0.4 s). Whether one alone
        // matches every word is known all the same.
        let ranking = try await book.rank(field: nil, name: try NameQuery(text), limit: choiceLimit)
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
            chosen = try await choose(among: ranking.nameOnly.map(\.person), named: text, parsed: parsed,
                                      more: !ranking.holdsEveryNameMatch)
        }
        // As the server has them now: the person a stale index named is checked there.
        return try await book.confirmed(chosen, fields: fields)
    }
}

extension PersonArgument {
    /// The most people a name's choices list: the best of them, in rank order. More is seldom
    /// read by anyone, and reading them all from the index costs what a keystroke should not.
    static let choiceLimit = 100

    /// The one of `people` meant by `text`: `--pick N`, or asked on the terminal; under
    /// `--no-input`, exit 3 with the choices listed. `more` says that more people than
    /// `people` (the best of them) match.
    static func choose(among people: [Person], named text: String, parsed: ParsedCommandLine, what: String = "people",
                       more: Bool = false) async throws -> Person
    {
        let items = people.map { person in
            PickerItem(title: person.displayName, detail: (person.details + [person.dn.string]).joined(separator: ", "))
        }
        let count = more ? "more than \(items.count) \(what) match" : items.count == 1 ? "1 person matches" : "\(items.count) \(what) match"
        if let pick = try parsed.integer("--pick") {
            guard items.indices.contains(pick - 1) else {
                let listed = more ? " (the best \(items.count) are listed: type more of the name)" : ""
                throw CommandFailure(.usage, "--pick \(pick): \(count)\(listed)")
            }
            return people[pick - 1]
        }
        if parsed.flag("--no-input") {
            var listing = items.enumerated().map { "  \($0.offset + 1)) \($0.element.title) — \($0.element.detail ?? "")" }
            if more { listing.append("  (the best \(items.count) are listed: type more of the name)") }
            throw CommandFailure(.inputNeeded, "input needed: \(count) \"\(text)\" (use --pick N or a DN)", details: listing)
        }
        guard case .item(let index) = try await TerminalUI.makePrompter().pick(
            title: more ? "Which \"\(text)\"? (the best \(items.count): type more of the name)" : "Which \"\(text)\"?",
            items: items, extraAction: nil, moreAvailable: false,
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
