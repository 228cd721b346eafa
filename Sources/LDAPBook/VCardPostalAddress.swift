/// Postal addresses between LDAP's Postal Address syntax (RFC 4517: lines
/// separated by `$`, with `\24` for a `$` and `\5C` for a `\` inside a
/// line) and vCard's `ADR` and `LABEL`.
///
/// LDAP keeps an address as lines, vCard as seven components. ldapbook does
/// not guess which line is the city: it writes the whole address, line by
/// line as stored (empty lines and spaces included), into the street
/// component (and into `LABEL`), and reads such a card back into the same
/// lines. Other cards' components are read as lines in the usual order.
enum VCardPostalAddress {
    /// The lines of an LDAP Postal Address value, exactly as stored.
    static func lines(ofStored stored: String) -> [String] {
        stored.split(separator: "$", omittingEmptySubsequences: false).map { unescapeLine($0) }
    }

    /// `lines` as an LDAP Postal Address value.
    static func stored(lines: [String]) -> String {
        lines.map { $0.replacing("\\", with: "\\5C").replacing("$", with: "\\24") }.joined(separator: "$")
    }

    /// The lines of an `ADR` property: post office box, extended address,
    /// the street lines, `locality region postal-code`, country. A card
    /// with empty components but a `LABEL` parameter gives the label's lines.
    static func lines(of address: VCardProperty) -> [String] {
        let raw = address.components
        // Only the street component: an address ldapbook wrote, its lines as they were.
        if raw.count > 2, raw.enumerated().allSatisfy({ $0.offset == 2 || $0.element.allSatisfy(\.isEmpty) }),
           case let street = raw[2].joined(separator: ","), !street.trimmingWhitespace().isEmpty {
            return street.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        let components = raw.map { $0.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty } }
        func component(_ index: Int) -> [String] { index < components.count ? components[index] : [] }
        var lines = component(0) + component(1)
        lines += component(2).flatMap { $0.split(whereSeparator: \.isNewline).map(String.init) }
        let town = [3, 4, 5].map { component($0).joined(separator: ", ") }.filter { !$0.isEmpty }
        if !town.isEmpty { lines.append(town.joined(separator: " ")) }
        lines += component(6)
        lines = lines.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        if lines.isEmpty, let label = address.parameterValue("LABEL") {
            return splitLines(label)
        }
        return lines
    }

    /// The lines of a text that may span several lines (a `LABEL`).
    static func splitLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// The properties for an address of the given type (`work`, `home`):
    /// `ADR` with the lines in the street component, and the formatted
    /// label (a `LABEL` parameter in vCard 4.0, a `LABEL` property in 3.0).
    static func properties(lines: [String], type: String, version: VCardVersion) -> [VCardProperty] {
        let label = lines.joined(separator: "\n")
        let typeParameter = VCardParameter("TYPE", version.typeValue(type))
        switch version {
        case .v4:
            return [VCardProperty(name: "ADR", parameters: [typeParameter, VCardParameter("LABEL", label)],
                                  components: [[], [], [label], [], [], [], []])]
        case .v3:
            return [VCardProperty(name: "ADR", parameters: [typeParameter], components: [[], [], [label], [], [], [], []]),
                    VCardProperty(name: "LABEL", parameters: [typeParameter], text: label)]
        }
    }

    /// One line of a Postal Address value with its `\24` and `\5C` escapes (either case)
    /// undone.
    static func unescapeLine(_ line: Substring) -> String {
        var output = ""
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == "\\", let end = line.index(index, offsetBy: 3, limitedBy: line.endIndex) {
                switch line[line.index(after: index)..<end].uppercased() {
                case "24":
                    output.append("$")
                    index = end
                    continue
                case "5C":
                    output.append("\\")
                    index = end
                    continue
                default:
                    break
                }
            }
            output.append(line[index])
            index = line.index(after: index)
        }
        return output
    }
}
