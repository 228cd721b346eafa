import LDAPKit

/// The properties of ``LDAPFilter`` checked on one input.
///
/// - The input, as a value of any bytes, survives rendering and parsing in
///   every kind of item that takes a value (equality, substrings, ordering,
///   approximate, extensible), and ``LDAPFilter/escape(_:)-(LDAPValue)``
///   gives the same text as rendering.
/// - The input, as filter text, parses or throws; a filter it parses to
///   validates, and rendering it and parsing that gives the same filter.
enum FilterChecks {
    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        try checkValue(LDAPValue(bytes: input))
        try checkParsing(String(decoding: input, as: UTF8.self))
    }

    /// Every filter built around `value` reads back equal.
    private static func checkValue(_ value: LDAPValue) throws(PropertyViolation) {
        var filters: [LDAPFilter] = [
            .equal("cn", value),
            .greaterOrEqual("createTimestamp", value),
            .lessOrEqual("2.5.4.3", value),
            .approximate("sn;lang-de", value),
            .extensibleMatch(attribute: "cn", matchingRule: "caseExactMatch", value: value, dnAttributes: true),
            .extensibleMatch(attribute: nil, matchingRule: "2.5.13.5", value: value, dnAttributes: false),
            .prefix("cn", value),
            .contains("cn", value),
            .suffix("cn", value),
        ]
        if !value.isEmpty {
            filters.append(.substrings("cn", initial: value, any: [value, value], final: value))
        }
        for filter in filters {
            try roundTrip(filter, from: "the value \(shown(value.bytes))")
        }
        try roundTrip(.not(.or([.and(filters)])), from: "the value \(shown(value.bytes))")
        let escaped = LDAPFilter.escape(value)
        try PropertyViolation.require(
            LDAPFilter.equal("cn", value).rendered == "(cn=\(escaped))",
            "escape(\(shown(value.bytes))) is \(shown(escaped)), but the rendered filter is "
                + shown(LDAPFilter.equal("cn", value).rendered)
        )
        try PropertyViolation.require(
            escaped.utf8.allSatisfy { ![0, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*")].contains($0) },
            "escape(\(shown(value.bytes))) is \(shown(escaped)), which holds NUL, '(', ')' or '*'"
        )
    }

    /// Parsing `text` throws or gives a filter that validates and reads back equal.
    private static func checkParsing(_ text: String) throws(PropertyViolation) {
        let filter: LDAPFilter
        do {
            filter = try LDAPFilter(parsing: text)
        } catch {
            try PropertyViolation.require(
                error.code == .filterError,
                "parsing \(shown(text)) threw \(error), not a filterError"
            )
            return
        }
        do {
            try filter.validate()
        } catch {
            throw PropertyViolation("\(shown(text)) parsed to \(shown(filter.rendered)), which does not validate: \(error)")
        }
        try roundTrip(filter, from: "the text \(shown(text))")
    }

    /// Rendering `filter` and parsing the text gives `filter` again, and
    /// rendering that gives the same text.
    private static func roundTrip(_ filter: LDAPFilter, from origin: @autoclosure () -> String) throws(PropertyViolation) {
        let rendered = filter.rendered
        let parsed: LDAPFilter
        do {
            parsed = try LDAPFilter(parsing: rendered)
        } catch {
            throw PropertyViolation("the filter from \(origin()) renders as \(shown(rendered)), which does not parse: \(error)")
        }
        try PropertyViolation.require(
            parsed == filter,
            "the filter from \(origin()) renders as \(shown(rendered)), which parses to a different filter, "
                + "rendered \(shown(parsed.rendered))"
        )
        try PropertyViolation.require(
            parsed.rendered == rendered,
            "the filter from \(origin()) renders as \(shown(rendered)), and read back as \(shown(parsed.rendered))"
        )
    }
}
