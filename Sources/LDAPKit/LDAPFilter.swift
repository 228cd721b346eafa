/// A search filter (RFC 4511 section 4.5.1), built from values rather than
/// from text, so that user input can never change a filter's structure.
/// ``rendered`` gives the RFC 4515 string form with every value escaped.
///
/// Attribute names are meant to come from code and values from users:
/// values may hold any bytes and are always escaped, while attribute names
/// are written as they are and checked by ``validate()``.
///
/// ```swift
/// let filter: LDAPFilter = .equal("objectClass", "person") && .prefix("cn", LDAPValue(query))
/// filter.rendered  // "(&(objectClass=person)(cn=Ada*))"
/// ```
public indirect enum LDAPFilter: Sendable, Hashable {
    /// All of the filters match (`(&...)`); an empty list is absolute true.
    case and([LDAPFilter])
    /// Any of the filters matches (`(|...)`); an empty list is absolute false.
    case or([LDAPFilter])
    /// The filter does not match (`(!...)`).
    case not(LDAPFilter)
    /// The attribute has a value equal to the given one (`(attr=value)`).
    case equal(String, LDAPValue)
    /// The attribute has a value matching the pieces (`(attr=initial*any*final)`).
    case substrings(String, initial: LDAPValue?, any: [LDAPValue], final: LDAPValue?)
    /// The attribute has a value greater than or equal to the given one (`(attr>=value)`).
    case greaterOrEqual(String, LDAPValue)
    /// The attribute has a value less than or equal to the given one (`(attr<=value)`).
    case lessOrEqual(String, LDAPValue)
    /// The attribute is present (`(attr=*)`).
    case present(String)
    /// The attribute has a value approximately equal to the given one (`(attr~=value)`).
    case approximate(String, LDAPValue)
    /// An extensible match (`(attr:dn:rule:=value)`).
    case extensibleMatch(attribute: String?, matchingRule: String?, value: LDAPValue, dnAttributes: Bool)
}

// MARK: - Building filters

extension LDAPFilter {
    /// Matches entries with a value of `attribute` that starts with `value`
    /// (`(attr=value*)`); with an empty `value`, entries that have the attribute.
    public static func prefix(_ attribute: String, _ value: LDAPValue) -> LDAPFilter {
        value.isEmpty ? .present(attribute) : .substrings(attribute, initial: value, any: [], final: nil)
    }

    /// Matches entries with a value of `attribute` that contains `value`
    /// (`(attr=*value*)`); with an empty `value`, entries that have the attribute.
    public static func contains(_ attribute: String, _ value: LDAPValue) -> LDAPFilter {
        value.isEmpty ? .present(attribute) : .substrings(attribute, initial: nil, any: [value], final: nil)
    }

    /// Matches entries with a value of `attribute` that ends with `value`
    /// (`(attr=*value)`); with an empty `value`, entries that have the attribute.
    public static func suffix(_ attribute: String, _ value: LDAPValue) -> LDAPFilter {
        value.isEmpty ? .present(attribute) : .substrings(attribute, initial: nil, any: [], final: value)
    }

    /// Matches entries that match every one of `filters` (`(&...)`).
    public static func all(_ filters: LDAPFilter...) -> LDAPFilter {
        .and(filters)
    }

    /// Matches entries that match at least one of `filters` (`(|...)`).
    public static func any(_ filters: LDAPFilter...) -> LDAPFilter {
        .or(filters)
    }

    /// Matches entries that match both filters. An `and` on either side is
    /// merged into the result rather than nested: `a && b && c` is
    /// `(&(a)(b)(c))`.
    public static func && (lhs: LDAPFilter, rhs: LDAPFilter) -> LDAPFilter {
        .and(lhs.conjuncts + rhs.conjuncts)
    }

    /// Matches entries that match either filter. An `or` on either side is
    /// merged into the result rather than nested: `a || b || c` is
    /// `(|(a)(b)(c))`.
    public static func || (lhs: LDAPFilter, rhs: LDAPFilter) -> LDAPFilter {
        .or(lhs.disjuncts + rhs.disjuncts)
    }

    /// Matches entries that `filter` does not match (`(!...)`).
    public static prefix func ! (filter: LDAPFilter) -> LDAPFilter {
        .not(filter)
    }

    /// The filters of an `and`, or the filter itself.
    private var conjuncts: [LDAPFilter] {
        if case .and(let filters) = self { filters } else { [self] }
    }

    /// The filters of an `or`, or the filter itself.
    private var disjuncts: [LDAPFilter] {
        if case .or(let filters) = self { filters } else { [self] }
    }
}

// MARK: - String representation

extension LDAPFilter: CustomStringConvertible {
    /// The RFC 4515 string form, such as `(&(objectClass=person)(cn=Ada*))`,
    /// with every value escaped by ``escape(_:)-(LDAPValue)``.
    ///
    /// An empty `and` is `(&)` and an empty `or` is `(|)` (RFC 4526). For
    /// every filter that passes ``validate()``, parsing the string with
    /// ``init(parsing:)`` gives back an equal filter.
    public var rendered: String {
        var output: [UInt8] = []
        render(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The RFC 4515 string form; the same as ``rendered``.
    public var description: String { rendered }

    /// Appends the string form to `output` as UTF-8.
    private func render(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "("))
        switch self {
        case .and(let filters):
            output.append(UInt8(ascii: "&"))
            for filter in filters { filter.render(into: &output) }
        case .or(let filters):
            output.append(UInt8(ascii: "|"))
            for filter in filters { filter.render(into: &output) }
        case .not(let filter):
            output.append(UInt8(ascii: "!"))
            filter.render(into: &output)
        case .equal(let attribute, let value):
            output.append(contentsOf: attribute.utf8)
            output.append(UInt8(ascii: "="))
            Self.appendEscaped(value.bytes, to: &output)
        case .substrings(let attribute, let initial, let any, let final):
            output.append(contentsOf: attribute.utf8)
            output.append(UInt8(ascii: "="))
            if let initial { Self.appendEscaped(initial.bytes, to: &output) }
            output.append(UInt8(ascii: "*"))
            for piece in any {
                Self.appendEscaped(piece.bytes, to: &output)
                output.append(UInt8(ascii: "*"))
            }
            if let final { Self.appendEscaped(final.bytes, to: &output) }
        case .greaterOrEqual(let attribute, let value):
            output.append(contentsOf: attribute.utf8)
            output.append(contentsOf: ">=".utf8)
            Self.appendEscaped(value.bytes, to: &output)
        case .lessOrEqual(let attribute, let value):
            output.append(contentsOf: attribute.utf8)
            output.append(contentsOf: "<=".utf8)
            Self.appendEscaped(value.bytes, to: &output)
        case .present(let attribute):
            output.append(contentsOf: attribute.utf8)
            output.append(contentsOf: "=*".utf8)
        case .approximate(let attribute, let value):
            output.append(contentsOf: attribute.utf8)
            output.append(contentsOf: "~=".utf8)
            Self.appendEscaped(value.bytes, to: &output)
        case .extensibleMatch(let attribute, let matchingRule, let value, let dnAttributes):
            if let attribute { output.append(contentsOf: attribute.utf8) }
            if dnAttributes { output.append(contentsOf: ":dn".utf8) }
            if let matchingRule {
                output.append(UInt8(ascii: ":"))
                output.append(contentsOf: matchingRule.utf8)
            }
            output.append(contentsOf: ":=".utf8)
            Self.appendEscaped(value.bytes, to: &output)
        }
        output.append(UInt8(ascii: ")"))
    }

    /// The RFC 4515 escaped form of an assertion value, as it appears after
    /// the `=` of a filter item.
    ///
    /// `*`, `(`, `)`, `\` and NUL are written as `\2a`, `\28`, `\29`, `\5c`
    /// and `\00`, and each byte that is not part of valid UTF-8 as `\` and
    /// two lowercase hexadecimal digits; everything else is written as it
    /// is. For ASCII text this is python-ldap's `escape_filter_chars`.
    public static func escape(_ value: LDAPValue) -> String {
        var output: [UInt8] = []
        appendEscaped(value.bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The RFC 4515 escaped form of an assertion value given as text;
    /// see ``escape(_:)-(LDAPValue)``.
    public static func escape(_ value: String) -> String {
        escape(LDAPValue(value))
    }

    /// Appends the escaped form of `value` to `output`.
    private static func appendEscaped(_ value: [UInt8], to output: inout [UInt8]) {
        var index = 0
        while index < value.count {
            let byte = value[index]
            var length = 1
            switch byte {
            case 0x00, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "\\"):
                StringRepresentation.appendHexEscape(byte, to: &output)
            case 0x01...0x7F:
                output.append(byte)
            default:
                length = StringRepresentation.appendUTF8SequenceOrHexEscape(value, at: index, to: &output)
            }
            index += length
        }
    }
}

// MARK: - Validation

extension LDAPFilter {
    /// Checks the parts of the filter that are written without escaping.
    ///
    /// Every attribute must be an attribute description (a name such as
    /// `cn` or a numeric OID such as `2.5.4.3`, optionally followed by
    /// options such as `;lang-de`), and every matching rule a name or
    /// numeric OID other than `dn`. An extensible match needs an attribute,
    /// a matching rule or both. A substrings filter needs at least one
    /// piece, and no piece may be empty.
    ///
    /// Values need no checking: they are always escaped.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/filterError``
    ///   naming the first problem found.
    public func validate() throws(LDAPError) {
        switch self {
        case .and(let filters), .or(let filters):
            for filter in filters { try filter.validate() }
        case .not(let filter):
            try filter.validate()
        case .equal(let attribute, _), .greaterOrEqual(let attribute, _), .lessOrEqual(let attribute, _),
             .approximate(let attribute, _), .present(let attribute):
            try Self.validateAttribute(attribute)
        case .substrings(let attribute, let initial, let any, let final):
            try Self.validateAttribute(attribute)
            if initial == nil && any.isEmpty && final == nil {
                throw Self.invalid("the substrings filter on \(attribute) has no pieces")
            }
            if initial?.isEmpty == true || final?.isEmpty == true || any.contains(where: \.isEmpty) {
                throw Self.invalid("the substrings filter on \(attribute) has an empty piece")
            }
        case .extensibleMatch(let attribute, let matchingRule, _, _):
            if let attribute { try Self.validateAttribute(attribute) }
            if let matchingRule, !StringRepresentation.isOID(matchingRule.utf8) || matchingRule.lowercased() == "dn" {
                throw Self.invalid("\"\(matchingRule)\" is not a valid matching rule name or OID")
            }
            if attribute == nil && matchingRule == nil {
                throw Self.invalid("an extensible match needs an attribute or a matching rule")
            }
        }
    }

    private static func validateAttribute(_ attribute: String) throws(LDAPError) {
        guard StringRepresentation.isAttributeDescription(attribute) else {
            throw invalid("\"\(attribute)\" is not a valid attribute description")
        }
    }

    private static func invalid(_ problem: String) -> LDAPError {
        LDAPError(.filterError, message: "invalid filter: \(problem)")
    }
}
