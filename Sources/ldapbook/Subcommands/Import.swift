import CommandLineKit
import Foundation
import TerminalUI
import LDAPBook
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

/// `ldapbook import FILE...`: vCards and LDIF into the directory.
enum Import {
    static let spec = CommandSpec(
        "import",
        abstract: "Import people from vCard (3.0, 4.0) or LDIF files.",
        discussion: """
            A person already in the directory (same email, or same first and last name) gets the \
            values they lack; anyone else is added. A card or record that cannot be imported is \
            reported on standard error with its file and line, and skipped; the rest go on. Each person is one atomic write. \
            When the server supports transactions (RFC 5805; OpenLDAP 2.5 and later), new people are \
            added up to 100 at a time in one transaction, which the server writes to disk once \
            instead of once per person; when the server refuses one of them, none of that \
            transaction is made and its people are added one by one, each with its own outcome. \
            Interrupting an import keeps what was committed. \
            --dry-run reports what would change and writes nothing. A summary ends the run.
            """,
        options: [OptionSpec(["--dry-run"], help: "report what would change; write nothing")],
        positionals: [PositionalSpec("FILE", help: "a .vcf or .ldif file (- for standard input)", isRepeating: true)],
        examples: [.init(summary: "Import a phone's export", commandLine: "ldapbook import contacts.vcf")])

    /// One card or record read from a file.
    enum Item {
        /// A person to import, and the line their card or record starts on.
        case person(NewPerson, line: Int?)
        /// Why a card or record cannot be imported, naming the file and the line.
        case rejected(String)
    }

    /// How many people are imported at once: enough to hide the round trips of each.
    static let window = 16

    struct Tally {
        var added = 0, updated = 0, unchanged = 0
        var rejected: [String] = []
    }

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        // Every file is read before anything is written (or even connected to), so a file that
        // cannot be read stops the import with the directory as it was.
        var files: [(path: String, bytes: [UInt8])] = []
        for path in parsed.positionals("FILE") {
            let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try UserFile.read(path)
            files.append((path, [UInt8](data)))
        }
        let book = try await Directory.addressBook(parsed)
        let registry = try await book.fieldRegistry()
        let dryRun = parsed.flag("--dry-run")
        var tally = Tally()
        let progress = isatty(STDERR_FILENO) != 0
        for (path, bytes) in files {
            var people: [(person: NewPerson, source: String)] = []
            for item in items(in: bytes, path: path, registry: registry) {
                switch item {
                case .rejected(let reason):
                    tally.rejected.append(reason)
                case .person(let newPerson, let line):
                    people.append((newPerson, "\(path): " + (line.map { "line \($0): " } ?? "") + Diagnostics.quoting(newPerson.commonName)))
                }
            }
            let total = people.count
            var report: (@Sendable (Int) -> Void)?
            if progress {
                let label = path
                report = { done in
                    if done == total || done % 100 == 0 {
                        StandardStream.error.write("\r\(TerminalText.sanitized(label)): \(done)/\(total)")
                    }
                }
            }
            let results = try await book.importPeople(people.map(\.person), dryRun: dryRun, window: Self.window,
                                                      progress: report)
            for ((_, source), result) in zip(people, results) {
                switch result {
                case .success(.added): tally.added += 1
                case .success(.updated): tally.updated += 1
                case .success(.unchanged): tally.unchanged += 1
                case .failure(let error as AddressBookError): tally.rejected.append("\(source): \(error.message)")
                case .failure(let error as LDAPError): tally.rejected.append("\(source): \(error.description)")
                case .failure(let error): tally.rejected.append("\(source): \(error)")
                }
            }
            if progress && total > 0 { StandardStream.error.write("\n") }
        }
        let verb = dryRun ? "would be " : ""
        let summary = "\(verb)added \(tally.added), \(verb)updated \(tally.updated), unchanged \(tally.unchanged), rejected \(tally.rejected.count)\n"
        for reason in tally.rejected { Diagnostics.say("rejected: \(reason)") }
        StandardStream.output.write(summary)
        return tally.rejected.isEmpty ? .success : .invalidValue
    }

    /// The people of one file's bytes, vCard or LDIF, and the cards or records rejected
    /// before any write, each reason starting with `path`.
    static func items(in bytes: [UInt8], path: String, registry: FieldRegistry) -> [Item] {
        if isLDIF(bytes, path: path) {
            return ldifPeople(bytes, registry: registry).map { item in
                if case .rejected(let reason) = item { return .rejected("\(path): \(reason)") }
                return item
            }
        }
        return VCardParser.cards(in: bytes).map { card -> Item in
            switch card {
            case .failure(let error): return .rejected("\(path): \(error)")
            case .success(let card):
                do {
                    return .person(try card.newPerson(registry: registry), line: card.line)
                } catch {
                    return .rejected("\(path): \((error as? AddressBookError)?.message ?? "\(error)")")
                }
            }
        }
    }

    static func isLDIF(_ bytes: [UInt8], path: String) -> Bool {
        let lower = path.lowercased()
        if lower.hasSuffix(".ldif") || lower.hasSuffix(".ldi") { return true }
        if lower.hasSuffix(".vcf") || lower.hasSuffix(".vcard") { return false }
        let start = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        return !start.contains("begin:vcard")
    }

    /// The people of an LDIF file: each entry (or add record) as a new person.
    static func ldifPeople(_ bytes: [UInt8], registry: FieldRegistry) -> [Item] {
        var results: [Item] = []
        var stream = LDIFReader(bytes: bytes).stream()
        while true {
            let record: LDIFRecord
            do {
                guard let next = try stream.next() else { break }
                record = next
            } catch {
                results.append(.rejected(error.description))
                continue
            }
            let line = stream.recordLine
            let entry: LDAPEntry
            switch record {
            case .content(let content), .add(let content, _): entry = content
            default:
                results.append(.rejected("line \(line): \(record.dn): only entries are imported, not changes"))
                continue
            }
            let person = Person(entry: entry)
            // Names are text: one that is not UTF-8 is refused, never dropped or repaired.
            if let name = ["sn", "givenName", "cn"].first(where: { entry[$0].contains { $0.string == nil } }) {
                results.append(.rejected("line \(line): \(entry.dn): \(name) is not valid UTF-8"))
                continue
            }
            guard let surname = person.surnames.first else {
                results.append(.rejected("line \(line): \(entry.dn): no surname (sn)"))
                continue
            }
            let values = person.fieldValues(registry: registry).filter { field, _ in
                !["cn", "sn", "givenName", "uid"].contains(where: { $0.lowercased() == field.attribute.lowercased() })
            }
            results.append(.person(NewPerson(givenName: person.givenNames.first, surname: surname, values: values), line: line))
        }
        return results
    }
}
