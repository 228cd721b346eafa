extension LDAPFilter {
    /// The filter encoded as the RFC 4511 `Filter` CHOICE, as carried by a
    /// search request or an assertion control.
    var ber: [UInt8] {
        var writer = BERWriter()
        encode(into: &writer)
        return writer.bytes
    }

    /// Appends the filter's encoding to `writer`.
    ///
    /// Empty substring pieces are left out, since they constrain nothing
    /// and RFC 4511 forbids them; a substrings filter with no pieces left
    /// matches every value, so it is encoded as a presence filter.
    func encode(into writer: inout BERWriter) {
        switch self {
        case .and(let filters):
            writer.writeConstructed(FilterTag.and) { set in
                for filter in filters { filter.encode(into: &set) }
            }
        case .or(let filters):
            writer.writeConstructed(FilterTag.or) { set in
                for filter in filters { filter.encode(into: &set) }
            }
        case .not(let filter):
            writer.writeConstructed(FilterTag.not) { filter.encode(into: &$0) }
        case .equal(let attribute, let value):
            writer.writeAssertion(FilterTag.equalityMatch, attribute, value)
        case .substrings(let attribute, let initial, let any, let final):
            var pieces: [(tag: BERTag, value: LDAPValue)] = []
            if let initial { pieces.append((SubstringTag.initial, initial)) }
            pieces += any.map { (SubstringTag.any, $0) }
            if let final { pieces.append((SubstringTag.final, final)) }
            pieces.removeAll { $0.value.isEmpty }
            guard !pieces.isEmpty else {
                LDAPFilter.present(attribute).encode(into: &writer)
                return
            }
            writer.writeConstructed(FilterTag.substrings) { filter in
                filter.writeOctetString(attribute)
                filter.writeSequence { substrings in
                    for (tag, value) in pieces {
                        substrings.writeOctetString(value.bytes, tag: tag)
                    }
                }
            }
        case .greaterOrEqual(let attribute, let value):
            writer.writeAssertion(FilterTag.greaterOrEqual, attribute, value)
        case .lessOrEqual(let attribute, let value):
            writer.writeAssertion(FilterTag.lessOrEqual, attribute, value)
        case .present(let attribute):
            writer.writeOctetString(attribute, tag: FilterTag.present)
        case .approximate(let attribute, let value):
            writer.writeAssertion(FilterTag.approxMatch, attribute, value)
        case .extensibleMatch(let attribute, let matchingRule, let value, let dnAttributes):
            writer.writeConstructed(FilterTag.extensibleMatch) { assertion in
                if let matchingRule {
                    assertion.writeOctetString(matchingRule, tag: MatchingRuleAssertionTag.matchingRule)
                }
                if let attribute {
                    assertion.writeOctetString(attribute, tag: MatchingRuleAssertionTag.type)
                }
                assertion.writeOctetString(value.bytes, tag: MatchingRuleAssertionTag.matchValue)
                if dnAttributes {
                    assertion.writeBoolean(true, tag: MatchingRuleAssertionTag.dnAttributes)
                }
            }
        }
    }
}

/// The tags of the `Filter` CHOICE alternatives (RFC 4511 section 4.5.1).
private enum FilterTag {
    static let and = BERTag.contextSpecific(0, constructed: true)
    static let or = BERTag.contextSpecific(1, constructed: true)
    static let not = BERTag.contextSpecific(2, constructed: true)
    static let equalityMatch = BERTag.contextSpecific(3, constructed: true)
    static let substrings = BERTag.contextSpecific(4, constructed: true)
    static let greaterOrEqual = BERTag.contextSpecific(5, constructed: true)
    static let lessOrEqual = BERTag.contextSpecific(6, constructed: true)
    static let present = BERTag.contextSpecific(7)
    static let approxMatch = BERTag.contextSpecific(8, constructed: true)
    static let extensibleMatch = BERTag.contextSpecific(9, constructed: true)
}

/// The tags of the pieces of a `SubstringFilter`.
private enum SubstringTag {
    static let initial = BERTag.contextSpecific(0)
    static let any = BERTag.contextSpecific(1)
    static let final = BERTag.contextSpecific(2)
}

/// The tags of the fields of a `MatchingRuleAssertion`.
private enum MatchingRuleAssertionTag {
    static let matchingRule = BERTag.contextSpecific(1)
    static let type = BERTag.contextSpecific(2)
    static let matchValue = BERTag.contextSpecific(3)
    static let dnAttributes = BERTag.contextSpecific(4)
}

extension BERWriter {
    /// Writes an `AttributeValueAssertion` (attribute description and value) tagged `tag`.
    fileprivate mutating func writeAssertion(_ tag: BERTag, _ attribute: String, _ value: LDAPValue) {
        writeConstructed(tag) { assertion in
            assertion.writeOctetString(attribute)
            assertion.writeOctetString(value.bytes)
        }
    }
}
