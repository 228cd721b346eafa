import Foundation
import LDAPKit

/// People from a table: ldapbook's CSV (columns named by field, `dn` first) and JSON
/// (``Person/writeJSON(to:registry:uid:members:)``), and the CSV of Google Contacts and
/// Outlook, each row or object a person to import.
///
/// A person with a DN (ldapbook's own exports) is that entry, as an LDIF record is; one
/// without is identified by its card UID (JSON's `uid`) or its email addresses, as a card is.
public enum TabularImport {
    /// One person of a table: where it is, and the person or why it cannot be one.
    public struct Row: Sendable {
        /// The 1-based line (CSV) or position in the array (JSON).
        public var position: Int
        /// The person, or why the row cannot be imported.
        public var record: Result<ImportRecord, AddressBookError>
    }

    // MARK: CSV

    /// The rows of a CSV file (RFC 4180: quoted cells may hold commas, quotes and line
    /// breaks), each with the line it starts on.
    public static func csvRows(_ text: String) -> [(line: Int, cells: [String])] {
        var rows: [(line: Int, cells: [String])] = []
        var cells: [String] = [], cell = "", quoted = false, afterQuote = false
        var line = 1, rowLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func endRow() {
            cells.append(cell)
            if !(cells.count == 1 && cells[0].isEmpty) { rows.append((rowLine, cells)) }
            cells = []
            cell = ""
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" {
                        cell.unicodeScalars.append("\"")
                    } else {
                        quoted = false
                        afterQuote = true
                        pending = next
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    cell.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where cell.isEmpty && !afterQuote:
                quoted = true
            case ",":
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                endRow()
                line += 1
                rowLine = line
                afterQuote = false
            case "\n":
                endRow()
                line += 1
                rowLine = line
                afterQuote = false
            default:
                cell.unicodeScalars.append(scalar)
            }
        }
        if !cell.isEmpty || !cells.isEmpty { endRow() }
        return rows
    }

    /// The people of a CSV file with a header row: ldapbook's columns (field names, `dn`),
    /// or Google Contacts' or Outlook's.
    public static func people(csv text: String, registry: FieldRegistry) -> [Row] {
        var rows = csvRows(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        guard !rows.isEmpty else { return [] }
        let header = rows.removeFirst().cells.map { $0.trimmingCharacters(in: .whitespaces) }
        // Google's and Outlook's headers are words with capitals ("First Name"); ldapbook's
        // are field names. Their columns no field holds are left out, and said to be.
        let isStandard = header.contains { Self.standardTitles.contains($0.lowercased()) && $0.contains(" ") }
        return rows.map { row in
            var fields: [(name: String, values: [String])] = []
            var dn: String?
            var skipped: [SkippedAttribute] = []
            for (index, title) in header.enumerated() where index < row.cells.count {
                let cell = unneutralized(row.cells[index])
                guard !cell.trimmingWhitespace().isEmpty else { continue }
                if title.lowercased() == "dn" && !isStandard {
                    dn = cell
                } else if isStandard {
                    if let (field, type) = standardColumn(title, header: header, cells: row.cells) {
                        fields.append((field == "phone" ? telephoneField(type) : field, [cell]))
                    } else if !Self.isTypeColumn(title) {
                        skipped.append(SkippedAttribute(title, .noField))
                    }
                } else {
                    // ldapbook's own columns: several values joined by "; ".
                    fields.append((title, cell.components(separatedBy: "; ")))
                }
            }
            return Row(position: row.line, record: Result { () throws(AddressBookError) -> ImportRecord in
                var made = try record(dn: dn, uid: nil, fields: fields, registry: registry)
                made.skipped += skipped
                return made
            })
        }
    }

    /// A cell as ldapbook's export neutralised it: `'=…` (and `'+`, `'-`, `'@`, tab, CR) back
    /// to the text it was.
    static func unneutralized(_ cell: String) -> String {
        guard cell.hasPrefix("'"), let second = cell.unicodeScalars.dropFirst().first,
              "=+-@\t\r".unicodeScalars.contains(second) else { return cell }
        return String(cell.dropFirst())
    }

    /// Headers only Google's and Outlook's CSV have (lowercased).
    static let standardTitles: Set<String> = [
        "first name", "given name", "last name", "family name", "e-mail address", "e-mail 1 - value",
        "organization name", "organization 1 - name", "mobile phone", "business phone", "job title",
    ]

    /// Whether a Google column gives the type of the one beside it (`Phone 1 - Label`).
    static func isTypeColumn(_ title: String) -> Bool {
        let lower = title.lowercased()
        return lower.hasSuffix(" - type") || lower.hasSuffix(" - label")
    }

    /// The field of a Google Contacts or Outlook column, with the type of a numbered phone
    /// column (`Phone 1 - Value` and its `Phone 1 - Type` or `- Label`); `nil` for another.
    static func standardColumn(_ title: String, header: [String], cells: [String]) -> (String, String?)? {
        let lower = title.lowercased()
        let fixed: [String: String] = [
            "first name": "given-name", "given name": "given-name", "last name": "surname", "family name": "surname",
            "nickname": "nickname", "notes": "note", "birthday": "birthday", "anniversary": "anniversary",
            "organization name": "organization", "organization 1 - name": "organization", "company": "organization",
            "organization title": "title", "organization 1 - title": "title", "job title": "title",
            "organization department": "department", "organization 1 - department": "department", "department": "department",
            "e-mail address": "email", "e-mail 2 address": "email", "e-mail 3 address": "email",
            "mobile phone": "mobile", "home phone": "home-phone", "home phone 2": "home-phone",
            "business phone": "phone", "business phone 2": "phone", "primary phone": "phone", "company main phone": "phone",
            "business fax": "fax", "home fax": "fax", "other fax": "fax", "pager": "pager", "web page": "url",
        ]
        if let field = fixed[lower] { return (field, nil) }
        // Google's numbered columns: "E-mail 1 - Value", "Phone 2 - Value", "Website 1 - Value".
        let parts = lower.components(separatedBy: " - ")
        guard parts.count == 2, parts[1] == "value" else { return nil }
        let kind = parts[0].split(separator: " ").first.map(String.init) ?? ""
        switch kind {
        case "e-mail", "email": return ("email", nil)
        case "website": return ("url", nil)
        case "phone":
            let typeColumn = header.firstIndex { ["\(parts[0]) - type", "\(parts[0]) - label"].contains($0.lowercased()) }
            return ("phone", typeColumn.flatMap { $0 < cells.count ? cells[$0] : nil })
        default: return nil
        }
    }

    /// The telephone field a Google phone type names (`Mobile`, `Home`, `Work Fax`…).
    static func telephoneField(_ type: String?) -> String {
        let lower = (type ?? "").lowercased()
        if lower.contains("fax") { return "fax" }
        if lower.contains("mobile") || lower.contains("cell") { return "mobile" }
        if lower.contains("pager") { return "pager" }
        if lower.contains("home") { return "home-phone" }
        return "phone"
    }

    // MARK: JSON

    /// The people of ldapbook's JSON: an array of people (`export`), one person (`show`),
    /// or `find`'s result (its `matches`).
    ///
    /// - Throws: ``AddressBookError`` when the text is not such JSON.
    public static func people(json data: Data, registry: FieldRegistry) throws(AddressBookError) -> [Row] {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw AddressBookError(.invalidValue, "not JSON: \(error.localizedDescription)")
        }
        let objects: [Any]
        if let array = document as? [Any] {
            objects = array
        } else if let object = document as? [String: Any] {
            objects = (object["matches"] as? [Any]) ?? [object]
        } else {
            throw AddressBookError(.invalidValue, "not ldapbook's JSON: an array of people, or one person")
        }
        return objects.enumerated().map { index, element in
            Row(position: index + 1, record: Result { () throws(AddressBookError) -> ImportRecord in
                guard let object = element as? [String: Any], let fields = object["fields"] as? [String: Any] else {
                    throw AddressBookError(.invalidValue, "a person is an object with \"fields\"")
                }
                var named: [(name: String, values: [String])] = []
                for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                    guard let values = value as? [String] else {
                        throw AddressBookError(.invalidValue, "\(name): the values are not an array of strings")
                    }
                    named.append((name, values))
                }
                return try record(dn: object["dn"] as? String, uid: object["uid"] as? String, fields: named, registry: registry)
            })
        }
    }

    // MARK: Records

    /// The record of a person given by field names and values: an entry at `dn` when
    /// there is one, as LDIF's, else a new person identified by `uid` or email.
    static func record(dn: String?, uid: String?, fields: [(name: String, values: [String])],
                       registry: FieldRegistry) throws(AddressBookError) -> ImportRecord {
        var resolved: [(field: Field, values: [LDAPValue])] = []
        var skipped: [SkippedAttribute] = []
        for (name, texts) in fields {
            let field = try registry.field(named: name)
            // A person without a DN is a new one: nothing that identifies or refers to an
            // entry (uid, manager) is written from a file for them. (An entry's own DN decides
            // these as LDIF's does, below.)
            if dn == nil, let restriction = field.restriction {
                skipped.append(SkippedAttribute(field.name, .restricted(restriction)))
                continue
            }
            let values = try texts.map { text throws(AddressBookError) -> LDAPValue in
                guard field.kind.isBinary else { return LDAPValue(text) }
                guard let bytes = Data(base64Encoded: text) else {
                    throw AddressBookError(.invalidValue, "\(field.name): a binary value is base64, and this is not")
                }
                return LDAPValue(bytes: [UInt8](bytes))
            }
            if let index = resolved.firstIndex(where: { $0.field == field }) {
                resolved[index].values += values
            } else {
                resolved.append((field, values))
            }
        }
        func texts(_ attribute: String) -> [String] {
            resolved.filter { $0.field.attribute.equalsIgnoringCase(attribute) }.flatMap { $0.values.compactMap(\.string) }
        }
        if let dn {
            let name: DistinguishedName
            do {
                name = try DistinguishedName(parsing: dn)
            } catch {
                throw AddressBookError(.invalidValue, "dn: \(error.message)")
            }
            var entry = LDAPEntry(dn: name)
            entry["objectClass"] = [LDAPValue("inetOrgPerson")]
                + (resolved.contains { $0.field.needsLDAPBookClass } ? [LDAPValue(LDAPBookSchemaName.objectClass)] : [])
            for (field, values) in resolved {
                entry[field.attribute] = entry[field.attribute] + values.map(field.stored)
            }
            var record = try ImportRecord(ldif: entry, registry: registry)
            if let uid { record.cardUID = uid }
            return record
        }
        guard let surname = texts("sn").first(where: { !$0.trimmingWhitespace().isEmpty }) else {
            throw AddressBookError(.invalidName, "no surname: a person needs one")
        }
        var person = NewPerson(givenName: texts("givenName").first, surname: surname)
        person.rules = .stored
        person.values = resolved.filter { !["sn", "givenname", "cn"].contains($0.field.attribute.lowercased()) }
        if !texts("cn").isEmpty { person.commonNames = texts("cn") }
        var record = ImportRecord(person: person, cardUID: uid)
        record.skipped = skipped
        return record
    }
}
