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
        abstract: "Import people from vCard (2.1, 3.0, 4.0), LDIF, CSV or JSON files.",
        discussion: """
            Who is who is decided by identifiers, never by a name alone. An LDIF record's DN is \\
            the person: the entry is created there, uid and all, or given what it lacks when it \\
            exists. A card's UID is the person (ldapbook's export writes the entry's entryUUID as \\
            urn:uuid:..., and a person created from a card keeps its UID). Otherwise a shared \\
            email address is the same person. Someone with the same first and last name is only \\
            the same person when they hold every value the card gives already, or with \\
            --merge-by-name; otherwise the person is added and reported as a possible duplicate. \\
            Existing people only gain what they lack; nothing is replaced or removed. Only \\
            address-book fields are written: never passwords or other secrets, uid or object \\
            classes onto an existing entry, operational attributes, or references to other \\
            entries (manager, seeAlso, secretary) unless --write-reference names them; what is \\
            left out is reported per person. A card or record that cannot be imported is \\
            reported with its file and line and skipped; the rest go on. A directory that stops \\
            answering, is busy, or refuses access stops the import with a summary of what was \\
            done; importing the same files again finishes the job without duplicates. \\
            --dry-run prints each write the import would make, and writes nothing.
            """,
        options: [
            OptionSpec(["--dry-run"], help: "print the writes the import would make; write nothing"),
            OptionSpec(["--allow-file-urls"], help: "read LDIF values given as file:///PATH (such as jpegPhoto:< file:///photos/ada.jpg)"),
            OptionSpec(["--merge-by-name"], help: "take a person with no identifier in common with anyone to be the one namesake there is (personal address books)"),
            OptionSpec(["--write-reference"], .repeatedValue("ATTRIBUTE"), help: "also write this reference attribute (manager, seeAlso, secretary) from the files"),
        ],
        positionals: [PositionalSpec("FILE", help: "a .vcf, .ldif, .csv or .json file (- for standard input)", isRepeating: true,
                                     completion: .files)],
        examples: [
            .init(summary: "Import a phone's export", commandLine: "ldapbook import contacts.vcf"),
            .init(summary: "See what an LDIF file would change", commandLine: "ldapbook import --dry-run people.ldif"),
        ])

    /// One card or record read from a file.
    enum Item {
        /// A person to import, and where their card or record is.
        case record(ImportRecord, source: String)
        /// Why a card or record cannot be imported, naming the file and the line.
        case rejected(String)
        /// An LDIF entry that is not a person (an `organizationalUnit`, a group), which an
        /// address book does not import: where it is, and its classes.
        case notPerson(String)
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
        let references = Set(parsed.values("--write-reference"))
        for name in references {
            let field = try registry.field(named: name)
            guard field.restriction == .reference else {
                throw CommandFailure(.usage, "--write-reference \(name): \(field.name) is not a reference to another entry")
            }
        }
        var rejected: [String] = []
        var notPeople: [String] = []
        var records: [ImportRecord] = []
        var sources: [String] = []
        for (path, bytes) in files {
            for item in items(in: bytes, path: path, registry: registry, references: references,
                              allowFileURLs: parsed.flag("--allow-file-urls")) {
                switch item {
                case .rejected(let reason): rejected.append(reason)
                case .notPerson(let what): notPeople.append(what)
                case .record(let record, let source):
                    records.append(record)
                    sources.append(source)
                }
            }
        }
        let options = ImportOptions(dryRun: parsed.flag("--dry-run"), mergesByName: parsed.flag("--merge-by-name"))
        var report: (@Sendable (Int) -> Void)?
        if isatty(STDERR_FILENO) != 0 && !records.isEmpty {
            let total = records.count
            report = { done in
                if done == total || done % 100 == 0 { StandardStream.error.write("\rimporting: \(done)/\(total)") }
            }
        }
        let result = await book.importPeople(records, options: options, progress: report)
        if report != nil { StandardStream.error.write("\n") }
        return ImportReport(result: result, sources: sources, rejectedBeforehand: rejected, notPeople: notPeople,
                            dryRun: options.dryRun).print()
    }

    /// The people of one file's bytes, vCard or LDIF, and the cards or records rejected
    /// before any write, each reason starting with `path`.
    static func items(in bytes: [UInt8], path: String, registry: FieldRegistry, references: Set<String>,
                      allowFileURLs: Bool = false) -> [Item] {
        switch format(of: bytes, path: path) {
        case .ldif:
            return ldifItems(bytes, path: path, registry: registry, references: references, allowFileURLs: allowFileURLs)
        case .csv, .json:
            return tableItems(bytes, path: path, registry: registry)
        case .vcard:
            break
        }
        return VCardParser.cards(in: bytes).map { card -> Item in
            switch card {
            case .failure(let error): return .rejected("\(path): \(error)")
            case .success(let card):
                do {
                    let record = try card.importRecord(registry: registry, writableReferences: references)
                    return .record(record, source: source(path, line: card.line, record.person))
                } catch {
                    return .rejected("\(path): \(ImportReport.message(error))")
                }
            }
        }
    }

    /// `FILE: line N: NAME`, for messages about one person.
    static func source(_ path: String, line: Int?, _ person: NewPerson) -> String {
        "\(path): " + (line.map { "line \($0): " } ?? "") + Diagnostics.quoting(person.commonName)
    }

    enum Format { case vcard, ldif, csv, json }

    /// A file's format: by its extension, else by its start (`{` or `[` JSON, `BEGIN:VCARD`
    /// vCard, `dn:` or `version:` LDIF, anything else CSV).
    static func format(of bytes: [UInt8], path: String) -> Format {
        let lower = path.lowercased()
        if lower.hasSuffix(".ldif") || lower.hasSuffix(".ldi") { return .ldif }
        if lower.hasSuffix(".vcf") || lower.hasSuffix(".vcard") { return .vcard }
        if lower.hasSuffix(".csv") { return .csv }
        if lower.hasSuffix(".json") { return .json }
        let start = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        let first = start.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if first.hasPrefix("{") || first.hasPrefix("[") { return .json }
        if start.contains("begin:vcard") { return .vcard }
        if first.hasPrefix("dn:") || first.hasPrefix("version:") || first.hasPrefix("#") { return .ldif }
        return .csv
    }

    /// The people of a CSV or JSON file (``TabularImport``).
    static func tableItems(_ bytes: [UInt8], path: String, registry: FieldRegistry) -> [Item] {
        let rows: [TabularImport.Row]
        if format(of: bytes, path: path) == .json {
            do {
                rows = try TabularImport.people(json: Data(bytes), registry: registry)
            } catch {
                return [.rejected("\(path): \(error.message)")]
            }
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return [.rejected("\(path): a CSV file is read as UTF-8, and this is not")]
            }
            rows = TabularImport.people(csv: text, registry: registry)
        }
        let place = path.lowercased().hasSuffix(".json") || format(of: bytes, path: path) == .json ? "person" : "line"
        return rows.map { row in
            switch row.record {
            case .success(let record): .record(record, source: source(path, line: nil, record.person) + " (\(place) \(row.position))")
            case .failure(let error): .rejected("\(path): \(place) \(row.position): \(ImportReport.message(error))")
            }
        }
    }

    /// The people of an LDIF file: each entry (or add record), identified by its DN.
    ///
    /// A file that does not end with a line break was cut off (a transfer or a copy that
    /// stopped): its last record may lack values, or hold half of one (`sn: Tw`), so it is
    /// refused, naming its line, and nothing of it is written.
    static func ldifItems(_ bytes: [UInt8], path: String, registry: FieldRegistry, references: Set<String>,
                          allowFileURLs: Bool) -> [Item] {
        var results: [Item] = []
        var stream = LDIFReader(bytes: bytes, allowFileURLs: allowFileURLs).stream()
        let cutOff = !bytes.isEmpty && bytes.last != UInt8(ascii: "\n")
        var lastLine = 1
        while true {
            let record: LDIFRecord
            do {
                guard let next = try stream.next() else { break }
                record = next
            } catch {
                lastLine = stream.recordLine
                let hint = !allowFileURLs && error.message.contains("given by URL") ? " (--allow-file-urls reads them)" : ""
                results.append(.rejected("\(path): \(error.description)\(hint)"))
                continue
            }
            let line = stream.recordLine
            lastLine = line
            let entry: LDAPEntry
            switch record {
            case .content(let content), .add(let content, _): entry = content
            default:
                results.append(.rejected("\(path): line \(line): \(record.dn): only entries are imported, not changes"))
                continue
            }
            // A dump of a whole directory holds its containers and groups too: they are no people.
            let classes = entry.strings("objectClass")
            if !classes.contains(where: { ["person", "organizationalperson", "inetorgperson"].contains($0.lowercased()) }) {
                results.append(.notPerson("\(path): line \(line): \(entry.dn) (objectClass: \(classes.joined(separator: ", ")))"))
                continue
            }
            do {
                let imported = try ImportRecord(ldif: entry, registry: registry, writableReferences: references)
                results.append(.record(imported, source: source(path, line: line, imported.person)))
            } catch {
                results.append(.rejected("\(path): line \(line): \(entry.dn): \(ImportReport.message(error))"))
            }
        }
        if cutOff, let last = results.indices.last {
            results[last] = .rejected("\(path): line \(lastLine): the file ends in the middle of a line, so this record "
                + "may be cut off; nothing of it is imported (if the record is whole, end the file with a line break)")
        }
        return results
    }
}
