import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import TerminalUI

/// `ldapbook show NAME|DN`: one person, every field.
enum Show {
    static let spec = CommandSpec(
        "show",
        abstract: "Show one person with every field.",
        discussion: "NAME must match one person (or use --pick, or give the DN). A photo is shown by its size; JSON, as export writes it, holds it in base64.",
        options: PersonArgument.options + [
            OptionSpec(["--format"], .value("text|json|vcard|ldif"), help: "output format (default text)"),
        ],
        positionals: [PositionalSpec("NAME", help: "a name that matches one person, or a DN", isRepeating: true)],
        examples: [.init(summary: "Everything about Ada", commandLine: "ldapbook show ada lovelace")])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let format = try parsed.choice("--format", from: ["text", "json", "vcard", "ldif"]) ?? "text"
        let book = try await Directory.addressBook(parsed)
        let registry = try await book.fieldRegistry()
        let summary = try await PersonArgument.resolve(parsed.positionals("NAME"), book: book, fields: [], parsed: parsed)
        // Secrets (passwords, keys) are never printed, in any format. entryUUID is read for
        // the vCard's UID only.
        guard let withUUID = try await book.connection.read(summary.dn, attributes: ["*", "entryUUID"])?
            .removingSecrets(registry) else {
            throw CommandFailure(.nothingDone, "\(summary.dn) is gone")
        }
        var entry = withUUID
        entry["entryUUID"] = []
        let person = Person(entry: entry)
        let fields = person.fieldValues(registry: registry)
        let text: String
        if format == "vcard" {
            var card: [UInt8] = []
            var export = VCardExport(registry: registry)
            export.append(Person(entry: withUUID), to: &card)
            text = String(decoding: card, as: UTF8.self)
        } else if format == "ldif" {
            text = String(decoding: LDIFWriter.write(entry), as: UTF8.self)
        } else if format == "json" {
            var json = JSONWriter()
            person.writeJSON(to: &json, registry: registry, uid: VCardIdentity.exportedUID(of: withUUID, version: .v4)?.value)
            text = String(decoding: json.bytes, as: UTF8.self) + "\n"
        } else {
            var lines = [TerminalText.sanitized(person.displayName), "  dn: " + TerminalText.sanitized(person.dn.string)]
            let width = fields.map(\.field.name.count).max() ?? 0
            for (field, fieldValues) in fields {
                let label = field.name + ":" + String(repeating: " ", count: width - field.name.count)
                for value in fieldValues {
                    let shown = field.kind.isBinary || value.string == nil
                        ? "\(value.count) bytes" + (field.kind == .photo ? " (JPEG)" : "")
                        : value.lossyString
                    lines.append("  \(label) \(TerminalText.sanitized(shown))")
                }
            }
            text = lines.joined(separator: "\n") + "\n"
        }
        DataOutput.write(text)
        return .success
    }
}
