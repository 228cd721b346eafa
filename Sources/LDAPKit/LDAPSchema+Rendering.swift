// The RFC 4512 section 4.1 text of each kind of definition, with the
// keywords in the grammar's order and the extensions sorted by name.

extension AttributeTypeDescription {
    /// The RFC 4512 text of the definition, such as
    /// `( 2.5.4.42 NAME ( 'givenName' 'gn' ) SUP name )`; parsing it with
    /// ``init(parsing:)`` gives back an equal value.
    public var definition: String {
        var writer = DefinitionWriter(oid: oid)
        writer.writeNames(names)
        writer.writeQuoted("DESC", description)
        writer.writeFlag("OBSOLETE", isObsolete)
        writer.writeWord("SUP", superior)
        writer.writeWord("EQUALITY", equality)
        writer.writeWord("ORDERING", ordering)
        writer.writeWord("SUBSTR", substring)
        writer.writeWord("SYNTAX", syntax.map { oid in syntaxLength.map { "\(oid){\($0)}" } ?? oid })
        writer.writeFlag("SINGLE-VALUE", isSingleValued)
        writer.writeFlag("COLLECTIVE", isCollective)
        writer.writeFlag("NO-USER-MODIFICATION", !isUserModifiable)
        writer.writeWord("USAGE", usage == .userApplications ? nil : usage.rawValue)
        writer.writeExtensions(extensions)
        return writer.finish()
    }
}

extension ObjectClassDescription {
    /// The RFC 4512 text of the definition, such as
    /// `( 2.5.6.6 NAME 'person' SUP top STRUCTURAL MUST ( sn $ cn ) )`;
    /// parsing it with ``init(parsing:)`` gives back an equal value.
    public var definition: String {
        var writer = DefinitionWriter(oid: oid)
        writer.writeNames(names)
        writer.writeQuoted("DESC", description)
        writer.writeFlag("OBSOLETE", isObsolete)
        writer.writeOIDs("SUP", superiors)
        writer.writeFlag(kind.rawValue, true)
        writer.writeOIDs("MUST", must)
        writer.writeOIDs("MAY", may)
        writer.writeExtensions(extensions)
        return writer.finish()
    }
}

extension SyntaxDescription {
    /// The RFC 4512 text of the definition, such as
    /// `( 1.3.6.1.4.1.1466.115.121.1.15 DESC 'Directory String' )`;
    /// parsing it with ``init(parsing:)`` gives back an equal value.
    public var definition: String {
        var writer = DefinitionWriter(oid: oid)
        writer.writeQuoted("DESC", description)
        writer.writeExtensions(extensions)
        return writer.finish()
    }
}

extension MatchingRuleDescription {
    /// The RFC 4512 text of the definition, such as
    /// `( 2.5.13.2 NAME 'caseIgnoreMatch' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )`;
    /// parsing it with ``init(parsing:)`` gives back an equal value.
    public var definition: String {
        var writer = DefinitionWriter(oid: oid)
        writer.writeNames(names)
        writer.writeQuoted("DESC", description)
        writer.writeFlag("OBSOLETE", isObsolete)
        writer.writeWord("SYNTAX", syntax)
        writer.writeExtensions(extensions)
        return writer.finish()
    }
}

/// Builds the text of a definition, one keyword at a time.
private struct DefinitionWriter {
    private var text: String

    init(oid: String) {
        text = "( " + oid
    }

    /// `NAME 'a'` or `NAME ( 'a' 'b' )`; nothing when there are no names.
    mutating func writeNames(_ names: [String]) {
        guard !names.isEmpty else { return }
        text += " NAME "
        writeQuotedList(names)
    }

    /// `keyword 'value'` with the value escaped; nothing when `nil`.
    mutating func writeQuoted(_ keyword: String, _ value: String?) {
        guard let value else { return }
        text += " \(keyword) "
        writeQuotedString(value)
    }

    /// `keyword` alone when `isPresent`.
    mutating func writeFlag(_ keyword: String, _ isPresent: Bool) {
        if isPresent { text += " \(keyword)" }
    }

    /// `keyword value`; nothing when `nil`.
    mutating func writeWord(_ keyword: String, _ value: String?) {
        if let value { text += " \(keyword) \(value)" }
    }

    /// `keyword oid` or `keyword ( oid $ oid )`; nothing when there are none.
    mutating func writeOIDs(_ keyword: String, _ oids: [String]) {
        switch oids.count {
        case 0: return
        case 1: text += " \(keyword) \(oids[0])"
        default: text += " \(keyword) ( \(oids.joined(separator: " $ ")) )"
        }
    }

    /// Each extension as `X-NAME 'value'` or `X-NAME ( 'a' 'b' )`, sorted by name.
    mutating func writeExtensions(_ extensions: [String: [String]]) {
        for (name, values) in extensions.sorted(by: { $0.key < $1.key }) {
            text += " \(name) "
            writeQuotedList(values)
        }
    }

    /// The closing ` )`, and the text.
    mutating func finish() -> String {
        text + " )"
    }

    private mutating func writeQuotedList(_ values: [String]) {
        if values.count == 1 {
            writeQuotedString(values[0])
            return
        }
        text += "("
        for value in values {
            text += " "
            writeQuotedString(value)
        }
        text += " )"
    }

    /// `'value'`, with `\` written as `\5C` and `'` as `\27`.
    private mutating func writeQuotedString(_ value: String) {
        text += "'"
        for character in value.unicodeScalars {
            switch character {
            case "\\": text += "\\5C"
            case "'": text += "\\27"
            default: text.unicodeScalars.append(character)
            }
        }
        text += "'"
    }
}
