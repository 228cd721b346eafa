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
        abstract: "Write the photo of the first person named NAME who has one.",
        discussion: """
            Finds the person NAME means, matching names as find does: the one person whom every \
            word of NAME matches by their names, or else the best match of every word who has a \
            photo (jpegPhoto). Writes the JPEG bytes to FILE, or to standard output when that is \
            not a terminal. Exits 1 with "no photo found" otherwise.
            """,
        options: [OptionSpec(["--output", "-o"], .value("FILE"), help: "write the photo to FILE")],
        positionals: [PositionalSpec("NAME", help: "the person's name", isRepeating: true)],
        examples: [.init(summary: "Ada's photo", commandLine: "ldapbook photo ada -o ada.jpg")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let name = parsed.positionals("NAME").joined(separator: " ")
        let output = parsed.value("--output")
        if output == nil && isatty(STDOUT_FILENO) != 0 {
            throw CommandFailure(.usage, "standard output is a terminal: use -o FILE, or redirect it")
        }
        let book = try await Directory.addressBook(parsed)
        let photo = try await book.field(named: "photo")
        guard let bytes = try await book.photo(of: try NameQuery(name), field: photo) else {
            throw CommandFailure(.nothingDone, "no photo found for \(name)")
        }
        if let output {
            try UserFile.write(bytes, to: output)
        } else {
            StandardStream.output.write(bytes)
        }
        return .success
    }
}
