import Foundation

/// A schema LDIF file (one `cn=name,cn=schema,cn=config` entry, as shipped in
/// `/etc/ldap/schema`) renamed to its position among the loaded schemas.
enum SchemaEntry {
    /// Reads the schema file at `url` and returns its entry named `cn={position}name`.
    static func ldif(contentsOf url: URL, position: Int) throws(SlapdError) -> String {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SlapdError(.invalidConfiguration, "Cannot read the schema file \(url.path): \(error.localizedDescription)")
        }
        return try ldif(text, position: position, source: url.path)
    }

    /// Returns the single entry of the schema LDIF `text` with its DN rewritten to
    /// `cn={position}name,cn=schema,cn=config` and its `cn` value to `{position}name`.
    /// Comments are dropped; `source` names the text in error messages.
    static func ldif(_ text: String, position: Int, source: String) throws(SlapdError) -> String {
        let entries = LDIFRecords.entries(in: text)
        guard entries.count == 1, let entry = entries.first, let dnLine = entry.first, dnLine.key == "dn" else {
            throw SlapdError(.invalidConfiguration, "The schema file \(source) must hold exactly one entry, starting with a dn: line.")
        }
        guard let leading = DistinguishedName(dnLine.value)?.relativeNames.first, leading.count == 1,
              let rdn = leading.first, rdn.type.lowercased() == "cn"
        else {
            throw SlapdError(.invalidConfiguration, "The schema file \(source) names its entry \"\(dnLine.value)\", expected cn=<name>,cn=schema,cn=config.")
        }
        let name = withoutOrderingPrefix(rdn.value)
        let orderedName = "{\(position)}\(name)"

        var lines = [LDIFLine.attribute("dn", "cn=\(orderedName),cn=schema,cn=config")]
        for line in entry.dropFirst() {
            switch line.key {
            case "changetype":
                continue
            case "cn" where withoutOrderingPrefix(line.value) == name:
                lines.append(LDIFLine.attribute("cn", orderedName))
            default:
                lines.append(contentsOf: line.physicalLines)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name` without a leading `{N}` ordering prefix.
    private static func withoutOrderingPrefix(_ name: String) -> String {
        guard name.hasPrefix("{"), let closing = name.firstIndex(of: "}"),
              name[name.index(after: name.startIndex)..<closing].allSatisfy(\.isNumber)
        else {
            return name
        }
        return String(name[name.index(after: closing)...])
    }
}
