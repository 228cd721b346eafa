/// How values that other address books write differently become ldapbook's.
extension VCardImport {
    /// Whether an address or label is a home one (and not also a work one).
    static func isHome(_ property: VCardProperty) -> Bool {
        property.hasType("home") && !property.hasType("work")
    }

    /// A `TEL` value as a telephone number: the number of a `tel:` URI,
    /// with its extension written `ext. <n>`.
    static func telephoneNumber(_ property: VCardProperty) -> String {
        var text = property.textValue.trimmingWhitespace()
        guard text.lowercased().hasPrefix("tel:") else { return text }
        text = String(text.dropFirst(4))
        let parts = text.split(separator: ";")
        var number = String(parts.first ?? "")
        if let ext = parts.dropFirst().first(where: { $0.lowercased().hasPrefix("ext=") }) {
            number += " ext. " + ext.dropFirst(4)
        }
        return number
    }

    /// The relation Apple's `X-ABLABEL` gives a related name in the same
    /// group: `_$!<Spouse>!$_` is `spouse`.
    static func appleRelation(of property: VCardProperty, in card: VCard) -> String {
        guard let group = property.group,
              let label = card.properties(inGroup: group).first(where: { $0.name == "X-ABLABEL" })?.textValue
        else { return "contact" }
        var relation = label.trimmingWhitespace()
        if relation.hasPrefix("_$!<") && relation.hasSuffix(">!$_") {
            relation = String(relation.dropFirst(4).dropLast(4))
        }
        relation = relation.lowercased().filter { $0 != "=" }
        return relation.isEmpty ? "contact" : relation
    }
}
