import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit

/// `ldapbook export [NAME...]`: people as vCard, LDIF, JSON or CSV, streamed.
enum Export {
    static let spec = CommandSpec(
        "export",
        abstract: "Export people (all, or those NAME matches) as vCard, LDIF, JSON or CSV.",
        discussion: """
            Entries stream from the directory page by page and are written as they arrive, so any \
            directory exports in bounded memory. vCards are version 4.0 (--vcard-version 3.0 for \
            older readers); each card's UID is the card UID the person was imported with, else the \
            entry's entryUUID (urn:uuid:...), which a later import maps back to the same person. \
            JSON gives the same UID as "uid". LDIF is what ldapsearch -LLL prints, which ldapadd, \
            slapadd and ldapbook import take back. CSV has a column for every field the people \
            have, which is known once everyone is read: the rows wait in a temporary file in \
            $TMPDIR (else /tmp), readable by you alone and removed at once, and are written at the \
            end. Secrets (userPassword and other password and key attributes) are never exported.
            """,
        options: [
            OptionSpec(["--format"], .value("vcard|ldif|json|csv"), help: "output format (default vcard)"),
            OptionSpec(["--vcard-version"], .value("4.0|3.0"), help: "vCard version (default 4.0)"),
        ],
        positionals: [PositionalSpec("NAME", help: "only the people every word of NAME matches, as find matches names", isRepeating: true, isOptional: true)],
        examples: [.init(summary: "Everyone, for khard", commandLine: "ldapbook export --format vcard > contacts.vcf")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let format = try parsed.choice("--format", from: ["vcard", "ldif", "json", "csv"]) ?? "vcard"
        let version: VCardVersion = (try parsed.choice("--vcard-version", from: ["4.0", "3.0"])) == "3.0" ? .v3 : .v4
        let book = try await Directory.addressBook(parsed)
        // The people are read and written on the connection's own thread, as they arrive.
        return try await withTaskExecutorPreference(book.connection.executor) {
            let registry = try await book.fieldRegistry()
            var filter = LDAPFilter.equal("objectClass", "inetOrgPerson")
            let words = parsed.positionals("NAME")
            // With NAME, the server narrows by the name matcher's filter, and the matcher keeps
            // the people whose names match every word.
            let matcher = words.isEmpty ? nil : try await book.nameMatcher(try NameQuery(words.joined(separator: " ")))
            if let matcher { filter = .and([filter, matcher.filter]) }
            var output = DataOutput.Buffer()
            // No "version: 1" line in LDIF: slapadd (OpenLDAP 2.5) refuses one, and ldapadd and
            // ldapbook import read LDIF without it, as ldapsearch -LLL writes it.
            if format == "json" { output.bytes.append(UInt8(ascii: "[")) }
            var records = LDIFExport(registry: registry)
            var cards = VCardExport(registry: registry, version: version)
            var people = PersonJSON(registry: registry)
            // CSV's columns are known once everyone is read: the rows wait in a temporary file.
            var table = CSVExport(registry: registry)
            let rows = format == "csv" ? try RecordSpool() : nil
            var row: [UInt8] = []
            var count = 0
            for try await found in book.connection.search(filter: filter, attributes: ["*", "entryUUID"]) {
                if let matcher, matcher.score(Person(entry: found)).matchedWords < matcher.query.tokens.count { continue }
                switch format {
                case "ldif":
                    records.append(found, to: &output.bytes)
                case "json":
                    // The identity a vCard export gives the person, for tools that keep contacts by it.
                    output.bytes += count == 0 ? Array("\n".utf8) : Array(",\n".utf8)
                    var json = JSONWriter(appendingTo: &output.bytes)
                    people.write(Person(entry: found), to: &json, uid: VCardIdentity.exportedUID(of: found, version: .v4)?.value)
                    json.end(into: &output.bytes)
                case "csv":
                    row.removeAll(keepingCapacity: true)
                    table.appendRow(Person(entry: found), to: &row)
                    try rows?.append(row)
                default:
                    cards.append(Person(entry: found), to: &output.bytes)
                }
                output.endRecord()
                count += 1
            }
            if format == "json" { output.bytes += count == 0 ? Array("]\n".utf8) : Array("\n]\n".utf8) }
            if let rows {
                output.bytes += table.header()
                let positions = table.positions()
                try rows.forEach { row in
                    CSVExport.appendLine(row: row, positions: positions, to: &output.bytes)
                    output.endRecord()
                }
            }
            output.flush()
            guard count > 0 else {
                let who = words.isEmpty ? "no people in the directory" : "no one named \(words.joined(separator: " "))"
                Diagnostics.say("\(who): nothing exported")
                return .nothingDone
            }
            return .success
        }
    }
}

extension Array {
    /// Maps with an async throwing closure, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
