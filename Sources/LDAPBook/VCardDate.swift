/// Dates between ldapbook's form (`YYYY-MM-DD`, or `--MM-DD` without a
/// year) and vCard's `BDAY` and `ANNIVERSARY` values.
enum VCardDate {
    /// The date a `BDAY` or `ANNIVERSARY` holds, in ldapbook's form, when it
    /// is a date that form can hold; otherwise the text as it is, for the
    /// field's validation to report.
    ///
    /// Reads `19531015`, `1953-10-15`, `--1015` and `--10-15`, drops a time
    /// of day (`19531015T231000Z`), and honours Apple's
    /// `X-APPLE-OMIT-YEAR=1604` for birthdays without a year.
    static func ldapValue(of property: VCardProperty) -> String {
        // A value written as text is what the directory held, not a date to convert.
        if property.parameterValue("VALUE")?.lowercased() == "text" { return property.textValue }
        let text = property.textValue.trimmingWhitespace()
        let date = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        let digits = date.filter { $0 != "-" }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return text }
        var result: String
        if date.hasPrefix("--") && digits.count == 4 {
            result = "--" + digits.prefix(2) + "-" + digits.suffix(2)
        } else if !date.hasPrefix("-") && digits.count == 8 && (date.count == 8 || date.count == 10) {
            result = digits.prefix(4) + "-" + digits.dropFirst(4).prefix(2) + "-" + digits.suffix(2)
        } else {
            return text
        }
        if let omitted = property.parameterValue("X-APPLE-OMIT-YEAR"), result.hasPrefix(omitted + "-") {
            result = "--" + result.dropFirst(omitted.count + 1)
        }
        return result
    }

    /// The year vCard 3.0 cards give a date without one, with
    /// `X-APPLE-OMIT-YEAR` naming it: a leap year, so `--02-29` fits.
    static let omittedYear = "1604"

    /// `stored` (ldapbook's form) as `version` writes a date: ISO 8601
    /// basic format in vCard 4.0 (`19531015`, `--1015`), extended in 3.0
    /// (`1953-10-15`). A value that is not a date is written as text
    /// (`VALUE=text` in 4.0).
    ///
    /// vCard 3.0's dates have a year (RFC 2425 section 5.8.4), so a date
    /// without one is written as Apple Contacts writes it:
    /// `BDAY;X-APPLE-OMIT-YEAR=1604:1604-10-15`. Apple Contacts and
    /// ldapbook read it back without the year; Evolution and khard show
    /// day and month (and the year 1604), where `--10-15` left Evolution
    /// with no date at all.
    static func property(named name: String, stored: String, version: VCardVersion) -> VCardProperty {
        guard FieldKind.isDate(stored) else {
            return VCardProperty(name: name, parameters: [VCardParameter("VALUE", "text")], text: stored)
        }
        switch version {
        case .v3 where stored.hasPrefix("--"):
            return VCardProperty(name: name, parameters: [VCardParameter("X-APPLE-OMIT-YEAR", omittedYear)],
                                 value: omittedYear + stored.dropFirst())
        case .v3: return VCardProperty(name: name, value: stored)
        case .v4: return VCardProperty(name: name, value: stored.hasPrefix("--") ? "--" + stored.filter { $0 != "-" }
                                                                          : stored.filter { $0 != "-" })
        }
    }
}
