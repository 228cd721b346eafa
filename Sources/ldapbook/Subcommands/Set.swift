import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit

/// `ldapbook set NAME|DN FIELD=VALUE...`: add (or replace, or remove) values.
enum SetValues {
    static let spec = CommandSpec(
        "set",
        abstract: "Add values to a person's fields (or replace or remove them).",
        discussion: """
            FIELD=VALUE adds VALUE to FIELD, keeping the values already there; FIELD=@FILE reads the \
            value from FILE (a photo, say). --replace FIELD makes the FIELD=VALUE values given the \
            field's only ones (it needs at least one), and fails without writing if someone changed \
            the field meanwhile. --remove FIELD=VALUE removes one value; --clear FIELD removes every \
            value the field has, with the same check. All changes are one atomic modify, validated \
            before anything is sent; --dry-run prints them as LDIF instead. Secrets such as \
            userPassword are never set (use ldappasswd); uid and object classes are not fields.
            """,
        options: PersonArgument.options + [
            OptionSpec(["--replace"], .repeatedValue("FIELD"), help: "replace FIELD's values with the ones given", completion: .program(arguments: ["--timeout", "1", "fields", "--format", "names"], fallback: Fields.builtInNames)),
            OptionSpec(["--remove"], .repeatedValue("FIELD=VALUE"), help: "remove one value"),
            OptionSpec(["--clear"], .repeatedValue("FIELD"), help: "remove every value of FIELD", completion: .program(arguments: ["--timeout", "1", "fields", "--format", "names"], fallback: Fields.builtInNames)),
            OptionSpec(["--dry-run"], help: "print the change as LDIF; write nothing"),
        ],
        positionals: [
            PositionalSpec("NAME", help: "a name that matches one person, or a DN"),
            PositionalSpec("FIELD=VALUE", help: "a value to add (or, with --replace FIELD, to set)", isRepeating: true, isOptional: true),
        ],
        examples: [
            .init(summary: "Add a second email", commandLine: "ldapbook set uid=ada,ou=people,dc=example,dc=com email=ada@work.example"),
            .init(summary: "Store a photo", commandLine: "ldapbook set 'ada lovelace' photo=@face.jpg"),
            .init(summary: "Change the phone", commandLine: "ldapbook set grace --replace phone phone='+1 555 0100'"),
            .init(summary: "Remove every fax number", commandLine: "ldapbook set grace --clear fax"),
        ])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let book = try await Directory.addressBook(parsed)
        var assignments: [(Field, LDAPValue)] = []
        for argument in parsed.positionals("FIELD=VALUE") {
            assignments.append(try await FieldAssignment.parse(argument, book: book))
        }
        var removals: [(Field, LDAPValue)] = []
        for argument in parsed.values("--remove") {
            removals.append(try await FieldAssignment.parse(argument, book: book))
        }
        var replaced: [Field] = []
        for name in parsed.values("--replace") {
            let field = try await book.field(typed: name, nearMiss: Suggestion.closest)
            // Replacing with nothing would delete every value: that is --clear, said explicitly.
            guard assignments.contains(where: { $0.0 == field }) else {
                throw CommandFailure(.usage, "--replace \(field.name) needs the new values as \(field.name)=VALUE; "
                    + "to remove every value, use --clear \(field.name)")
            }
            replaced.append(field)
        }
        var cleared: [Field] = []
        for name in parsed.values("--clear") {
            let field = try await book.field(typed: name, nearMiss: Suggestion.closest)
            guard !assignments.contains(where: { $0.0 == field }) else {
                throw CommandFailure(.usage, "--clear \(field.name) removes every value, and \(field.name)=VALUE adds one; "
                    + "to make it the only one, use --replace \(field.name)")
            }
            cleared.append(field)
        }
        guard !assignments.isEmpty || !removals.isEmpty || !cleared.isEmpty else {
            throw CommandFailure(.usage, "nothing to set: give FIELD=VALUE, --replace, --remove or --clear")
        }
        var change = PersonChange()
        for (field, values) in FieldAssignment.grouped(assignments) {
            if replaced.contains(field) {
                change.replacing.append((field, values))
            } else {
                change.adding.append((field, values))
            }
        }
        for field in cleared where !change.replacing.contains(where: { $0.field == field }) {
            change.replacing.append((field, []))
        }
        change.removing = FieldAssignment.grouped(removals)
        let fields = (change.adding + change.replacing + change.removing).map(\.field)
        for (field, values) in change.adding + change.replacing {
            try field.validate(values)
        }

        let name = parsed.positional("NAME") ?? ""
        let person = try await PersonArgument.resolve([name],
                                                     book: book, fields: fields, parsed: parsed)
        let modifications = try book.modifications(for: change, of: person)
        if parsed.flag("--dry-run") {
            StandardStream.output.write(LDIFWriter.write(.modify(person.dn, modifications)))
            return .success
        }
        guard !modifications.isEmpty else {
            Diagnostics.say("\(person.displayName) already has these values")
            return .success
        }
        try await book.update(person, with: change)
        Diagnostics.say("updated \(person.dn)")
        return .success
    }
}
