import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

/// `ldapbook photo NAME...`: the photo retriever.
enum Photo {
    static let spec = CommandSpec(
        "photo",
        abstract: "Write the photo of the person NAME means.",
        discussion: """
            Finds the person NAME means, matching names as find does: the one person whom every \
            word of NAME matches by their names, or else the one person of those every word \
            matches who has a photo (jpegPhoto); when several have one, asks which (or takes \
            --pick N; under --no-input, exits 3 with the choices). Says whose photo it is on \
            standard error, and writes the JPEG bytes to FILE, or to standard output when that is \
            not a terminal. Exits 1 with "no photo found" otherwise.
            """,
        options: [OptionSpec(["--output", "-o"], .value("FILE"), help: "write the photo to FILE")] + PersonArgument.options,
        positionals: [PositionalSpec("NAME", help: "the person's name, or a DN", isRepeating: true)],
        examples: [.init(summary: "Ada's photo", commandLine: "ldapbook photo ada -o ada.jpg")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let words = parsed.positionals("NAME")
        let name = words.joined(separator: " ")
        let output = parsed.value("--output")
        if output == nil && isatty(STDOUT_FILENO) != 0 {
            throw CommandFailure(.usage, "standard output is a terminal: use -o FILE, or redirect it")
        }
        let book = try await Directory.addressBook(parsed)
        let photo = try await book.field(named: "photo")
        let person: Person
        if words.count == 1, name.contains("="), let dn = try? DistinguishedName(parsing: name), !dn.isRoot {
            guard let found = try await book.person(at: dn) else { throw CommandFailure(.nothingDone, "no entry \(dn)") }
            person = found
        } else {
            let candidates = try await book.photoCandidates(of: try NameQuery(name), field: photo)
            switch candidates.count {
            case 0: throw CommandFailure(.nothingDone, "no photo found for \(name)")
            case 1: person = candidates[0]
            default: person = try await PersonArgument.choose(among: candidates, named: name, parsed: parsed,
                                                              what: "people with a photo")
            }
        }
        guard let bytes = try await book.photo(of: person, field: photo) else {
            throw CommandFailure(.nothingDone, "no photo found for \(name): \(person.displayName) has none")
        }
        Diagnostics.say("the photo of \(person.displayName) (\(person.dn))")
        if let output {
            try UserFile.write(bytes, to: output)
        } else {
            StandardStream.output.write(bytes)
        }
        return .success
    }
}
