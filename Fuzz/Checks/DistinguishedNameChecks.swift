import LDAPKit

/// The properties of ``DistinguishedName`` checked on one input.
///
/// - The input, as an attribute value of any bytes, survives rendering and
///   parsing in a single-valued RDN, a multi-valued RDN and a DN of several
///   RDNs, and ``DistinguishedName/escape(_:)-(LDAPValue)`` gives the same
///   text as rendering.
/// - The input, as DN text, parses or throws; a DN it parses to renders to
///   text that parses to an equal DN (with the same hash) and renders the
///   same again, and is a
///   descendant of its parent. The same holds for the input as RDN text.
enum DistinguishedNameChecks {
    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        try checkValue(LDAPValue(bytes: input))
        let text = String(decoding: input, as: UTF8.self)
        try checkParsing(text)
        try checkRDNParsing(text)
    }

    /// Every name built around `value` reads back equal.
    private static func checkValue(_ value: LDAPValue) throws(PropertyViolation) {
        let single = RelativeDistinguishedName(type: "cn", value: value)
        let multiple = RelativeDistinguishedName(attributes: [
            AttributeTypeAndValue(type: "uid", value: value),
            AttributeTypeAndValue(type: "2.5.4.3", value: value),
        ])
        let origin = "the value \(shown(value.bytes))"
        try roundTrip(single, from: origin)
        try roundTrip(multiple, from: origin)
        let base = DistinguishedName(rdns: [
            RelativeDistinguishedName(type: "ou", value: value),
            RelativeDistinguishedName(type: "dc", value: "example"),
        ])
        try roundTrip(base.child(single), from: origin)
        try roundTrip(base.child(multiple), from: origin)
        try roundTrip(base.child("cn", value), from: origin)

        let escaped = DistinguishedName.escape(value)
        try PropertyViolation.require(
            single.string == "cn=\(escaped)",
            "escape(\(shown(value.bytes))) is \(shown(escaped)), but the RDN renders as \(shown(single.string))"
        )
    }

    /// Parsing `text` as a DN throws or gives a DN that reads back equal.
    private static func checkParsing(_ text: String) throws(PropertyViolation) {
        let dn: DistinguishedName
        do {
            dn = try DistinguishedName(parsing: text)
        } catch {
            try PropertyViolation.require(
                error.code == .invalidDNSyntax,
                "parsing the DN \(shown(text)) threw \(error), not invalidDNSyntax"
            )
            return
        }
        try roundTrip(dn, from: "the text \(shown(text))")
        try PropertyViolation.require(dn.isEquivalent(to: dn), "\(shown(text)) is not equivalent to itself")
        if let parent = dn.parent {
            try PropertyViolation.require(
                dn.isDescendant(of: parent) && !parent.isDescendant(of: dn),
                "\(shown(text)) is not a descendant of its parent \(shown(parent.string))"
            )
            try PropertyViolation.require(
                parent.child(dn.rdns[0]) == dn,
                "\(shown(text)) is not the child of its parent named by its RDN"
            )
        }
    }

    /// Parsing `text` as one RDN throws or gives an RDN that reads back equal.
    private static func checkRDNParsing(_ text: String) throws(PropertyViolation) {
        let rdn: RelativeDistinguishedName
        do {
            rdn = try RelativeDistinguishedName(parsing: text)
        } catch {
            try PropertyViolation.require(
                error.code == .invalidDNSyntax,
                "parsing the RDN \(shown(text)) threw \(error), not invalidDNSyntax"
            )
            return
        }
        try roundTrip(rdn, from: "the text \(shown(text))")
        try PropertyViolation.require(
            (try? DistinguishedName(parsing: text)) == DistinguishedName(rdns: [rdn]),
            "\(shown(text)) parses as one RDN but not as the DN of that RDN"
        )
    }

    /// Rendering `dn` and parsing the text gives `dn` again, and rendering
    /// that gives the same text.
    private static func roundTrip(_ dn: DistinguishedName, from origin: @autoclosure () -> String) throws(PropertyViolation) {
        let rendered = dn.string
        let parsed: DistinguishedName
        do {
            parsed = try DistinguishedName(parsing: rendered)
        } catch {
            throw PropertyViolation("the DN from \(origin()) renders as \(shown(rendered)), which does not parse: \(error)")
        }
        try PropertyViolation.require(
            parsed == dn && parsed.hashValue == dn.hashValue,
            "the DN from \(origin()) renders as \(shown(rendered)), which parses to a different DN "
                + "(or an equal one with another hash), rendered \(shown(parsed.string))"
        )
        try PropertyViolation.require(
            parsed.string == rendered,
            "the DN from \(origin()) renders as \(shown(rendered)), and read back as \(shown(parsed.string))"
        )
    }

    /// Rendering `rdn` and parsing the text gives `rdn` again.
    private static func roundTrip(_ rdn: RelativeDistinguishedName, from origin: @autoclosure () -> String) throws(PropertyViolation) {
        let rendered = rdn.string
        let parsed: RelativeDistinguishedName
        do {
            parsed = try RelativeDistinguishedName(parsing: rendered)
        } catch {
            throw PropertyViolation("the RDN from \(origin()) renders as \(shown(rendered)), which does not parse: \(error)")
        }
        try PropertyViolation.require(
            parsed == rdn && parsed.hashValue == rdn.hashValue && parsed.string == rendered,
            "the RDN from \(origin()) renders as \(shown(rendered)), which reads back as \(shown(parsed.string))"
        )
    }
}
