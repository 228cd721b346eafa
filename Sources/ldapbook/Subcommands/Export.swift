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
            slapadd and ldapbook import take back. Secrets (userPassword and other password and \
            key attributes) are never exported.
            """,
        options: [
            OptionSpec(["--format"], .value("vcard|ldif|json|csv"), help: "output format (default vcard)"),
            OptionSpec(["--vcard-version"], .value("4.0|3.0"), help: "vCard version (default 4.0)"),
        ],
        positionals: [PositionalSpec("NAME", help: "only the people every word of NAME matches, as find matches names", isRepeating: true, isOptional: true)],
        examples: [.init(summary: "Everyone, for khard", commandLine: "ldapbook export --format vcard > contacts.vcf")])

    /// CSV's columns: the DN, then every text field the people exported have, headed by its
    /// name: built-in fields in their order, then the directory's other attributes and the
    /// custom fields, by name. They are learnt first, at little cost: a search for attribute
    /// names only, and one for the custom fields' values when anyone has one.
    static func csvColumns(book: AddressBook, registry: FieldRegistry, filter: LDAPFilter) async throws -> [Field] {
        var attributes: Set<String> = []
        for try await entry in book.connection.search(filter: filter, attributes: ["*"], typesOnly: true) {
            for attribute in entry.attributes { attributes.insert(attribute.name.lowercased()) }
        }
        var fields: [Field] = []
        func add(_ field: Field) {
            if !field.kind.isBinary, !fields.contains(field) { fields.append(field) }
        }
        for builtIn in BuiltInField.all where attributes.contains(builtIn.attribute.lowercased()) {
            if let field = try? registry.field(named: builtIn.name), field.restriction == nil { add(field) }
        }
        let customAttribute = LDAPBookSchemaName.customField.lowercased()
        for name in attributes.sorted() where name != customAttribute && name != "objectclass" {
            guard BuiltInField.all.allSatisfy({ $0.attribute.lowercased() != name }),
                  !registry.isSecret(name),
                  let field = try? registry.field(named: name), field.restriction == nil else { continue }
            add(field)
        }
        if attributes.contains(customAttribute) {
            var keys: Set<String> = []
            let withCustom = LDAPFilter.and([filter, .present(LDAPBookSchemaName.customField)])
            for try await entry in book.connection.search(filter: withCustom, attributes: [LDAPBookSchemaName.customField]) {
                for value in entry.strings(LDAPBookSchemaName.customField) {
                    if let equals = value.firstIndex(of: "="), equals != value.startIndex { keys.insert(String(value[..<equals])) }
                }
            }
            for key in keys.sorted() where key != VCardIdentity.fieldName {
                if let field = try? registry.field(named: key), field.origin == .custom { add(field) }
            }
        }
        return fields
    }

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let format = try parsed.choice("--format", from: ["vcard", "ldif", "json", "csv"]) ?? "vcard"
        let version: VCardVersion = (try parsed.choice("--vcard-version", from: ["4.0", "3.0"])) == "3.0" ? .v3 : .v4
        let book = try await Directory.addressBook(parsed)
        let registry = try await book.fieldRegistry()
        var filter = LDAPFilter.equal("objectClass", "inetOrgPerson")
        let words = parsed.positionals("NAME")
        // With NAME, the server narrows by the name matcher's filter, and the matcher keeps
        // the people whose names match every word.
        let matcher = words.isEmpty ? nil : try await book.nameMatcher(try NameQuery(words.joined(separator: " ")))
        if let matcher { filter = .and([filter, matcher.filter]) }
        var output = DataOutput.Buffer()
        var csvFields: [Field?] = []
        var csvTitles: [String] = []
        switch format {
        // No "version: 1" line: slapadd (OpenLDAP 2.5) refuses one, and ldapadd and
        // ldapbook import read LDIF without it, as ldapsearch -LLL writes it.
        case "ldif": break
        case "json": output.bytes.append(UInt8(ascii: "["))
        case "csv":
            let columns = try await csvColumns(book: book, registry: registry, filter: filter)
            csvTitles = ["dn"] + columns.map(\.name)
            csvFields = [nil] + columns
            output.bytes += Array((csvTitles.map { csv($0) }.joined(separator: ",") + "\r\n").utf8)
        default: break
        }
        var cards = VCardExport(registry: registry, version: version)
        var count = 0
        for try await found in book.connection.search(filter: filter, attributes: ["*", "entryUUID"]) {
            if let matcher, matcher.score(Person(entry: found)).matchedWords < matcher.query.tokens.count { continue }
            switch format {
            case "ldif":
                // User attributes only, as ldapsearch prints them: what ldapadd, slapadd and
                // ldapbook import take back; never secrets (passwords, keys). entryUUID is read
                // for the vCard and JSON UID only.
                LDIFWriter.append(found, to: &output.bytes) { !registry.isSecret($0.name) && !$0.isNamed("entryUUID") }
            case "json":
                // The identity a vCard export gives the person, for tools that keep contacts by it.
                output.bytes += count == 0 ? Array("\n".utf8) : Array(",\n".utf8)
                var json = JSONWriter(appendingTo: &output.bytes)
                Person(entry: found).writeJSON(to: &json, registry: registry, uid: VCardIdentity.exportedUID(of: found, version: .v4)?.value)
                json.end(into: &output.bytes)
            case "csv":
                let person = Person(entry: found)
                let cells = zip(csvTitles, csvFields).map { _, field -> String in
                    guard let field else { return csv(found.dn.string) }
                    return csv(person.values(of: field).map(\.lossyString).joined(separator: "; "))
                }
                output.bytes += Array((cells.joined(separator: ",") + "\r\n").utf8)
            default:
                cards.append(Person(entry: found), to: &output.bytes)
            }
            output.endRecord()
            count += 1
        }
        if format == "json" { output.bytes += count == 0 ? Array("]\n".utf8) : Array("\n]\n".utf8) }
        output.flush()
        guard count > 0 else {
            let who = words.isEmpty ? "no people in the directory" : "no one named \(words.joined(separator: " "))"
            Diagnostics.say("\(who): nothing exported")
            return .nothingDone
        }
        return .success
    }

    /// A CSV cell (RFC 4180), quoted when needed.
    /// A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A cell a
    /// spreadsheet would take for a formula (its first character `=`, `+`, `-`, `@`, a tab or a
    /// carriage return) gets a leading `'` and quotes, as OWASP recommends against CSV
    /// injection: `=HYPERLINK(…)` in a name stays text.
    static func csv(_ text: String) -> String {
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            return "\"'" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
