import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit

/// `ldapbook add --given G --surname S [FIELD=VALUE]...`: a new person.
enum Add {
    static let spec = CommandSpec(
        "add",
        abstract: "Add a new person.",
        discussion: """
            Creates an inetOrgPerson under the people base (ou=people under the base, created when \
            missing), named by a readable unique uid. Values are validated before anything is sent; \
            --dry-run prints the entry as an LDIF change record instead. When someone of the same \
            name exists already, a note on standard error names them: the new person is a \
            different one all the same.
            """,
        options: [
            OptionSpec(["--given"], .value("G"), help: "first name"),
            OptionSpec(["--surname"], .value("S"), help: "last name (required)"),
            OptionSpec(["--dry-run"], help: "print the new entry as LDIF; write nothing"),
        ],
        positionals: [PositionalSpec("FIELD=VALUE", help: "a field value; FIELD=@FILE reads it from a file", isRepeating: true, isOptional: true)],
        examples: [.init(summary: "Add Grace", commandLine: "ldapbook add --given Grace --surname Hopper email=grace@example.com phone='+1 555 0100'")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        guard let surname = parsed.value("--surname") else {
            throw CommandFailure(.usage, "add needs --surname (inetOrgPerson requires sn)")
        }
        let book = try await Directory.addressBook(parsed)
        var assignments: [(Field, LDAPValue)] = []
        for argument in parsed.positionals("FIELD=VALUE") {
            assignments.append(try await FieldAssignment.parse(argument, book: book))
        }
        let newPerson = NewPerson(givenName: parsed.value("--given"), surname: surname,
                                  values: FieldAssignment.grouped(assignments))
        // Two people may share a name: say so, so that nobody adds someone twice by mistake.
        let namesakes = try await book.namesakes(givenName: newPerson.givenName, surname: newPerson.surname)
        if !namesakes.isEmpty { Diagnostics.say(NamesakeNote.text(namesakes, name: newPerson.commonName)) }
        if parsed.flag("--dry-run") {
            let entry = try await book.entry(for: newPerson)
            StandardStream.output.write(LDIFWriter.write(.add(entry)))
            return .success
        }
        let person = try await book.add(newPerson)
        StandardStream.output.write("\(person.dn)\n")
        return .success
    }
}
