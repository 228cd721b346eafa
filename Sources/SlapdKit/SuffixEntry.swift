/// The LDIF of the entry at the top of the database, derived from the suffix's first RDN.
enum SuffixEntry {
    /// Returns the suffix entry as LDIF, or throws when no standard object class fits the
    /// suffix's naming attribute.
    static func ldif(for suffix: String) throws(SlapdError) -> String {
        guard let name = DistinguishedName(suffix), let leading = name.relativeNames.first, leading.count == 1 else {
            throw SlapdError(.invalidConfiguration, "The suffix \"\(suffix)\" is not a distinguished name with a single-valued first component.")
        }
        let rdn = leading[0]
        let objectClasses: [String]
        var attributes: [(String, String)] = [(rdn.type, rdn.value)]
        switch rdn.type.lowercased() {
        case "dc":
            objectClasses = ["dcObject", "organization"]
            attributes.append(("o", rdn.value))
        case "o":
            objectClasses = ["organization"]
        case "ou":
            objectClasses = ["organizationalUnit"]
        case "c":
            objectClasses = ["country"]
        case "l":
            objectClasses = ["locality"]
        case "cn":
            objectClasses = ["organizationalRole"]
        default:
            throw SlapdError(
                .invalidConfiguration,
                "No standard object class is named by \"\(rdn.type)=\", so the suffix entry of \"\(suffix)\" cannot be created; set createsSuffixEntry to false and load it yourself."
            )
        }
        var lines = [LDIFLine.attribute("dn", suffix)]
        lines += objectClasses.map { LDIFLine.attribute("objectClass", $0) }
        lines += attributes.map { LDIFLine.attribute($0.0, $0.1) }
        return lines.joined(separator: "\n") + "\n"
    }
}
