// Parsing of the RFC 4512 section 4.1 definitions a subschema entry holds.
//
// The grammar is enforced: balanced parentheses, quoted names and strings,
// `$`-separated OID lists, each keyword at most once, and the parts the
// grammar requires (the OID, and a matching rule's SYNTAX). Real servers
// deviate from the RFC in small ways, which are accepted:
//
// - whitespace may be missing or doubled between tokens, and may be tabs or
//   line breaks (`MUST (cn )`, `NAME('a' 'b')`);
// - keywords come in any order and any case (RFC 4512's own
//   `subschemaSubentry` puts NO-USER-MODIFICATION before SINGLE-VALUE);
// - OIDs and syntaxes may be quoted, as Active Directory writes
//   `SYNTAX '1.3.6.1.4.1.1466.115.121.1.15'`;
// - a definition may be identified by a descriptor such as `nsAIMid-oid`
//   instead of a numeric OID, and names may contain underscores;
// - a backslash that does not start `\27` or `\5C` in a quoted string is
//   kept as it is.
//
// `X-` extensions are kept. A keyword that is not an extension and that the
// kind of definition does not define (a vendor's own, or one of another
// kind's) is skipped with its argument: a quoted string, a parenthesized
// list, or a bare word that is not itself a keyword. Prose constraints,
// such as "an attribute type has SUP or SYNTAX", are left to whoever uses
// the definitions.

extension AttributeTypeDescription {
    /// Parses an attribute type definition (RFC 4512 section 4.1.2), such as
    /// `( 2.5.4.42 NAME ( 'givenName' 'gn' ) SUP name )`.
    ///
    /// Keywords may come in any order; `X-` extensions are kept in
    /// ``extensions`` and other keywords are skipped with their argument.
    /// See ``LDAPSchema/init(subschema:)`` for the forms accepted beyond
    /// the RFC's grammar.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   and a message quoting the definition and naming the problem.
    public init(parsing definition: String) throws(LDAPError) {
        self = try DefinitionParser.parse(definition, as: .attributeType) { parser, oid throws(LDAPError) in
            var type = AttributeTypeDescription(oid: oid)
            while let keyword = try parser.nextKeyword() {
                switch keyword {
                case .name: type.names = try parser.readNames()
                case .description: type.description = try parser.readQuotedString()
                case .obsolete: type.isObsolete = true
                case .superior: type.superior = try parser.readOID()
                case .equality: type.equality = try parser.readOID()
                case .ordering: type.ordering = try parser.readOID()
                case .substring: type.substring = try parser.readOID()
                case .syntax: (type.syntax, type.syntaxLength) = try parser.readSyntaxAndLength()
                case .singleValue: type.isSingleValued = true
                case .collective: type.isCollective = true
                case .noUserModification: type.isUserModifiable = false
                case .usage: type.usage = try parser.readUsage()
                default: try parser.skipArgument(of: keyword.text)
                }
            }
            type.extensions = parser.extensions
            return type
        }
    }
}

extension ObjectClassDescription {
    /// Parses an object class definition (RFC 4512 section 4.1.1), such as
    /// `( 2.5.6.6 NAME 'person' SUP top STRUCTURAL MUST ( sn $ cn ) )`.
    ///
    /// At most one of `ABSTRACT`, `STRUCTURAL` and `AUXILIARY` may be given.
    /// See ``AttributeTypeDescription/init(parsing:)`` for keywords and
    /// ``LDAPSchema/init(subschema:)`` for the forms accepted beyond the RFC.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   and a message quoting the definition and naming the problem.
    public init(parsing definition: String) throws(LDAPError) {
        self = try DefinitionParser.parse(definition, as: .objectClass) { parser, oid throws(LDAPError) in
            var objectClass = ObjectClassDescription(oid: oid)
            var kindKeyword: DefinitionKeyword?
            while let keyword = try parser.nextKeyword() {
                switch keyword {
                case .name: objectClass.names = try parser.readNames()
                case .description: objectClass.description = try parser.readQuotedString()
                case .obsolete: objectClass.isObsolete = true
                case .superior: objectClass.superiors = try parser.readOIDs()
                case .abstract, .structural, .auxiliary:
                    if let kindKeyword {
                        throw parser.error("\(keyword.text) contradicts \(kindKeyword.text)",
                                           at: parser.keywordOffset)
                    }
                    kindKeyword = keyword
                    objectClass.kind = switch keyword {
                    case .abstract: .abstract
                    case .auxiliary: .auxiliary
                    default: .structural
                    }
                case .must: objectClass.must = try parser.readOIDs()
                case .may: objectClass.may = try parser.readOIDs()
                default: try parser.skipArgument(of: keyword.text)
                }
            }
            objectClass.extensions = parser.extensions
            return objectClass
        }
    }
}

extension SyntaxDescription {
    /// Parses a syntax definition (RFC 4512 section 4.1.5), such as
    /// `( 1.3.6.1.4.1.1466.115.121.1.28 DESC 'JPEG' X-NOT-HUMAN-READABLE 'TRUE' )`.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   and a message quoting the definition and naming the problem.
    public init(parsing definition: String) throws(LDAPError) {
        self = try DefinitionParser.parse(definition, as: .syntax) { parser, oid throws(LDAPError) in
            var syntax = SyntaxDescription(oid: oid)
            while let keyword = try parser.nextKeyword() {
                switch keyword {
                case .description: syntax.description = try parser.readQuotedString()
                default: try parser.skipArgument(of: keyword.text)
                }
            }
            syntax.extensions = parser.extensions
            return syntax
        }
    }
}

extension MatchingRuleDescription {
    /// Parses a matching rule definition (RFC 4512 section 4.1.3), such as
    /// `( 2.5.13.2 NAME 'caseIgnoreMatch' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )`.
    ///
    /// The grammar requires `SYNTAX`; a definition without it is an error.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   and a message quoting the definition and naming the problem.
    public init(parsing definition: String) throws(LDAPError) {
        self = try DefinitionParser.parse(definition, as: .matchingRule) { parser, oid throws(LDAPError) in
            var rule = MatchingRuleDescription(oid: oid, syntax: "")
            var hasSyntax = false
            while let keyword = try parser.nextKeyword() {
                switch keyword {
                case .name: rule.names = try parser.readNames()
                case .description: rule.description = try parser.readQuotedString()
                case .obsolete: rule.isObsolete = true
                case .syntax:
                    rule.syntax = try parser.readOID()
                    hasSyntax = true
                default: try parser.skipArgument(of: keyword.text)
                }
            }
            guard hasSyntax else { throw parser.error("the matching rule has no SYNTAX") }
            rule.extensions = parser.extensions
            return rule
        }
    }
}

/// The four kinds of definition.
enum DefinitionKind {
    case attributeType, objectClass, syntax, matchingRule

    /// How the kind is named in error messages.
    var label: String {
        switch self {
        case .attributeType: "attribute type"
        case .objectClass: "object class"
        case .syntax: "syntax"
        case .matchingRule: "matching rule"
        }
    }
}

/// A keyword of the RFC 4512 grammars (sections 4.1.1 to 4.1.5).
enum DefinitionKeyword: Int, CaseIterable {
    case name, description, obsolete, superior, equality, ordering, substring, syntax
    case singleValue, collective, noUserModification, usage
    case abstract, structural, auxiliary, must, may

    /// The keyword as the grammar spells it.
    var text: String { String(decoding: Self.spellings[rawValue], as: UTF8.self) }

    private static let spellings: [[UInt8]] = [
        "NAME", "DESC", "OBSOLETE", "SUP", "EQUALITY", "ORDERING", "SUBSTR", "SYNTAX",
        "SINGLE-VALUE", "COLLECTIVE", "NO-USER-MODIFICATION", "USAGE",
        "ABSTRACT", "STRUCTURAL", "AUXILIARY", "MUST", "MAY",
    ].map { Array($0.utf8) }

    /// The keyword spelled `word`, ignoring ASCII case.
    init?(matching word: UnsafeBufferPointer<UInt8>) {
        for (index, spelling) in Self.spellings.enumerated() where spelling.count == word.count {
            var position = 0
            // The spellings are capitals, letters and hyphens: setting 0x20
            // makes a capital lowercase and leaves a hyphen as it is.
            while position < word.count, spelling[position] == word[position] || spelling[position] | 0x20 == word[position] {
                position += 1
            }
            if position == word.count {
                self.init(rawValue: index)
                return
            }
        }
        return nil
    }
}

/// A parser over the UTF-8 bytes of one RFC 4512 definition.
struct DefinitionParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let kind: DefinitionKind
    var index = 0
    /// The `X-` extensions read so far.
    private(set) var extensions: [String: [String]] = [:]
    /// The byte offset of the keyword ``nextKeyword()`` returned last.
    private(set) var keywordOffset = 0
    /// The grammar keywords read so far, one bit each, so that a repeated one is an error.
    private var keywordsRead: UInt32 = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, kind: DefinitionKind) {
        self.bytes = bytes
        self.kind = kind
    }

    /// Parses `text` as a definition of `kind`: reads `(` and the OID, then
    /// lets `body` read the keywords up to the closing `)`.
    static func parse<Definition>(
        _ text: String,
        as kind: DefinitionKind,
        _ body: (inout DefinitionParser, String) throws(LDAPError) -> Definition
    ) throws(LDAPError) -> Definition {
        var text = text
        let parsed = text.withUTF8 { bytes in
            Result { () throws(LDAPError) in
                var parser = DefinitionParser(bytes: bytes, kind: kind)
                let oid = try parser.readOpening()
                return try body(&parser, oid)
            }
        }
        return try parsed.get()
    }

    // MARK: Structure

    private var isAtEnd: Bool { index == bytes.count }

    /// `(` and the definition's OID.
    private mutating func readOpening() throws(LDAPError) -> String {
        skipWhitespace()
        guard !isAtEnd else { throw error("the definition is empty") }
        guard bytes[index] == UInt8(ascii: "(") else {
            throw error("expected '(' at the start, found \(StringRepresentation.describe(bytes[index]))")
        }
        index += 1
        skipWhitespace()
        let start = index
        let word = readWord()
        guard !word.isEmpty else {
            throw error("expected the OID after '(', found \(describeNext())")
        }
        if isNumericOID(word) || (isDescriptor(word) && DefinitionKeyword(matching: word) == nil) {
            return string(word)
        }
        throw error("expected the OID after '(', found '\(string(word))'", at: start)
    }

    /// The next grammar keyword, or `nil` after the closing `)`, which must
    /// end the text.
    ///
    /// `X-` extensions on the way are read into ``extensions``, and other
    /// words in the place of a keyword are skipped with their argument.
    mutating func nextKeyword() throws(LDAPError) -> DefinitionKeyword? {
        while true {
            skipWhitespace()
            guard !isAtEnd else { throw error("missing ')' at the end") }
            if bytes[index] == UInt8(ascii: ")") {
                index += 1
                skipWhitespace()
                guard isAtEnd else {
                    throw error("unexpected \(StringRepresentation.describe(bytes[index])) after the closing ')'")
                }
                return nil
            }
            let start = index
            let word = readWord()
            // A keyword has the shape of a descriptor.
            guard isDescriptor(word) else {
                index = start
                throw error(word.isEmpty ? "expected a keyword or ')', found \(describeNext())"
                                         : "expected a keyword or ')', found '\(string(word))'")
            }
            if let keyword = DefinitionKeyword(matching: word) {
                let bit: UInt32 = 1 << keyword.rawValue
                guard keywordsRead & bit == 0 else { throw error("\(keyword.text) appears twice", at: start) }
                keywordsRead |= bit
                keywordOffset = start
                return keyword
            }
            if Self.isExtensionName(word) {
                try readExtensionValues(named: string(word))
            } else {
                try skipArgument(of: string(word))
            }
        }
    }

    /// The values of the `X-` extension `name`: one quoted string or a
    /// parenthesized list of them, added to ``extensions``.
    private mutating func readExtensionValues(named name: String) throws(LDAPError) {
        skipWhitespace()
        var values: [String] = []
        if !isAtEnd, bytes[index] == UInt8(ascii: "(") {
            index += 1
            while true {
                skipWhitespace()
                guard !isAtEnd else { throw error("missing ')' after the values of \(name)") }
                if bytes[index] == UInt8(ascii: ")") { break }
                guard bytes[index] == UInt8(ascii: "'") else {
                    throw error("expected a quoted value or ')' in the values of \(name), found \(describeNext())")
                }
                values.append(try readQuotedString())
            }
            index += 1
        } else if !isAtEnd, bytes[index] == UInt8(ascii: "'") {
            values.append(try readQuotedString())
        } else {
            throw error("expected a quoted value or '(' after \(name), found \(describeNext())")
        }
        extensions[name, default: []].append(contentsOf: values)
    }

    /// Skips the argument of `keyword`, which this kind of definition does
    /// not define: a quoted string, a parenthesized list, or a bare word
    /// that is not a keyword. Nothing is skipped when the keyword is
    /// followed by another keyword or the closing `)`.
    mutating func skipArgument(of keyword: String) throws(LDAPError) {
        skipWhitespace()
        guard !isAtEnd else { return }
        switch bytes[index] {
        case UInt8(ascii: "'"):
            _ = try readQuotedBytes()
        case UInt8(ascii: "("):
            let opening = index
            index += 1
            while true {
                skipWhitespace()
                guard !isAtEnd else {
                    throw error("missing ')' after the argument of \(keyword)", at: opening)
                }
                switch bytes[index] {
                case UInt8(ascii: ")"):
                    index += 1
                    return
                case UInt8(ascii: "("):
                    throw error("unexpected '(' in the argument of \(keyword)")
                case UInt8(ascii: "'"):
                    _ = try readQuotedBytes()
                case UInt8(ascii: "$"):
                    index += 1
                default:
                    _ = readWord()
                }
            }
        case UInt8(ascii: ")"), UInt8(ascii: "$"):
            return
        default:
            let start = index
            let word = readWord()
            if DefinitionKeyword(matching: word) != nil || Self.isExtensionName(word) {
                index = start
            }
        }
    }

    // MARK: Arguments

    /// `qdescrs`: one quoted name, or a parenthesized list of them.
    mutating func readNames() throws(LDAPError) -> [String] {
        skipWhitespace()
        guard !isAtEnd else { throw error("expected a quoted name or '(' after NAME, found the end") }
        switch bytes[index] {
        case UInt8(ascii: "'"):
            return [try readName()]
        case UInt8(ascii: "("):
            index += 1
            var names: [String] = []
            while true {
                skipWhitespace()
                guard !isAtEnd else { throw error("missing ')' after the names") }
                if bytes[index] == UInt8(ascii: ")") { break }
                guard bytes[index] == UInt8(ascii: "'") else {
                    throw error("expected a quoted name or ')' in the NAME list, found \(describeNext())")
                }
                names.append(try readName())
            }
            index += 1
            return names
        default:
            throw error("expected a quoted name or '(' after NAME, found \(describeNext())")
        }
    }

    /// One `qdescr`: a quoted descriptor such as `'givenName'`.
    private mutating func readName() throws(LDAPError) -> String {
        let start = index
        let name = try readQuotedBytes()
        guard isDescriptor(name) else {
            throw error("'\(string(name))' is not a valid name", at: start)
        }
        return string(name)
    }

    /// `qdstring`: a quoted UTF-8 string, with `\27` and `\5C` decoded to
    /// `'` and `\`.
    mutating func readQuotedString() throws(LDAPError) -> String {
        skipWhitespace()
        guard !isAtEnd, bytes[index] == UInt8(ascii: "'") else {
            throw error("expected a quoted string, found \(describeNext())")
        }
        let content = try readQuotedBytes()
        guard content.contains(UInt8(ascii: "\\")) else { return string(content) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(content.count)
        var position = content.startIndex
        while position < content.endIndex {
            let byte = content[position]
            if byte == UInt8(ascii: "\\"), let escaped = StringRepresentation.hexPair(in: content, at: position + 1),
               escaped == UInt8(ascii: "'") || escaped == UInt8(ascii: "\\") {
                decoded.append(escaped)
                position += 3
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// `oid`: a numeric OID or a descriptor, bare or quoted.
    mutating func readOID() throws(LDAPError) -> String {
        skipWhitespace()
        let start = index
        let oid = try readBareOrQuoted()
        guard isNumericOID(oid) || isDescriptor(oid) else {
            throw error(oid.isEmpty ? "expected an OID, found \(describeNext())" : "'\(string(oid))' is not an OID",
                        at: start)
        }
        return string(oid)
    }

    /// `oids`: one OID, or a parenthesized list of them separated by `$`.
    mutating func readOIDs() throws(LDAPError) -> [String] {
        skipWhitespace()
        guard !isAtEnd, bytes[index] == UInt8(ascii: "(") else { return [try readOID()] }
        index += 1
        var oids = [try readOID()]
        while true {
            skipWhitespace()
            guard !isAtEnd else { throw error("missing ')' after the list of OIDs") }
            switch bytes[index] {
            case UInt8(ascii: ")"):
                index += 1
                return oids
            case UInt8(ascii: "$"):
                index += 1
                oids.append(try readOID())
            default:
                throw error("expected '$' or ')' in the list of OIDs, found \(describeNext())")
            }
        }
    }

    /// `noidlen`: a syntax OID with an optional `{length}`, bare or quoted.
    mutating func readSyntaxAndLength() throws(LDAPError) -> (String, Int?) {
        skipWhitespace()
        let start = index
        let token = try readBareOrQuoted()
        guard let brace = token.firstIndex(of: UInt8(ascii: "{")) else {
            guard isNumericOID(token) || isDescriptor(token) else {
                throw error(token.isEmpty ? "expected a syntax OID, found \(describeNext())"
                                          : "'\(string(token))' is not a syntax OID", at: start)
            }
            return (string(token), nil)
        }
        let oid = UnsafeBufferPointer(rebasing: token[..<brace])
        let digits = UnsafeBufferPointer(rebasing: token[(brace + 1)...].dropLast())
        guard isNumericOID(oid) || isDescriptor(oid) else {
            throw error(oid.isEmpty ? "expected a syntax OID before '{'" : "'\(string(oid))' is not a syntax OID",
                        at: start)
        }
        guard token.last == UInt8(ascii: "}"), !digits.isEmpty, digits.allSatisfy(StringRepresentation.isDigit),
              let length = Int(string(digits))
        else {
            throw error("'\(string(token))' has an invalid length bound", at: start)
        }
        return (string(oid), length)
    }

    /// `usage`: one of the four usages, compared ignoring case.
    mutating func readUsage() throws(LDAPError) -> AttributeTypeDescription.Usage {
        skipWhitespace()
        let start = index
        let word = readWord()
        guard let usage = AttributeTypeDescription.Usage.allCases.first(where: {
            $0.rawValue.caseInsensitiveEquals(string(word))
        }) else {
            throw error(word.isEmpty ? "expected a usage after USAGE, found \(describeNext())"
                                     : "'\(string(word))' is not a usage", at: start)
        }
        return usage
    }

    // MARK: Tokens

    /// Skips spaces, tabs and line breaks.
    private mutating func skipWhitespace() {
        while !isAtEnd, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// The bytes up to the next whitespace, parenthesis, `$` or quote.
    private mutating func readWord() -> UnsafeBufferPointer<UInt8> {
        let start = index
        while !isAtEnd, !Self.endsWord(bytes[index]) { index += 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    /// The raw bytes between a pair of quotes, starting at the opening quote.
    private mutating func readQuotedBytes() throws(LDAPError) -> UnsafeBufferPointer<UInt8> {
        let opening = index
        index += 1
        let start = index
        while !isAtEnd, bytes[index] != UInt8(ascii: "'") { index += 1 }
        guard !isAtEnd else { throw error("unterminated quoted string", at: opening) }
        index += 1
        return UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
    }

    /// A bare word, or the content of a quoted string.
    private mutating func readBareOrQuoted() throws(LDAPError) -> UnsafeBufferPointer<UInt8> {
        if !isAtEnd, bytes[index] == UInt8(ascii: "'") { return try readQuotedBytes() }
        return readWord()
    }

    /// Whether `byte` is a space, tab or line break.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// Whether `byte` ends a bare word: whitespace, a parenthesis, `$` or a quote.
    private static func endsWord(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
            || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "'")
    }

    /// Whether `word` is a descriptor: a letter, then letters, digits,
    /// hyphens and underscores (RFC 4512's `keystring`, with underscores).
    private func isDescriptor(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = word.first, StringRepresentation.isLetter(first) else { return false }
        return word.allSatisfy { StringRepresentation.isKeyCharacter($0) || $0 == UInt8(ascii: "_") }
    }

    /// Whether `word` is a numeric OID: two or more numbers separated by
    /// single dots. Leading zeros are accepted.
    private func isNumericOID(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = word.first, let last = word.last,
              StringRepresentation.isDigit(first), StringRepresentation.isDigit(last) else { return false }
        var previousWasDot = false
        var hasDot = false
        for byte in word {
            if byte == UInt8(ascii: ".") {
                if previousWasDot { return false }
                previousWasDot = true
                hasDot = true
            } else if StringRepresentation.isDigit(byte) {
                previousWasDot = false
            } else {
                return false
            }
        }
        return hasDot
    }

    /// Whether `word` starts with `X-` (in either case), naming an extension.
    private static func isExtensionName(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        word.count > 2 && word[0] | 0x20 == UInt8(ascii: "x") && word[1] == UInt8(ascii: "-")
    }

    /// `word` as text.
    private func string(_ word: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: word, as: UTF8.self)
    }

    // MARK: Errors

    /// How the text at the current position is described in an error message.
    private func describeNext() -> String {
        isAtEnd ? "the end" : StringRepresentation.describe(bytes[index])
    }

    /// A `decodingError` quoting the definition, with `problem` and its
    /// character offset (the current position unless given).
    func error(_ problem: String, at offset: Int? = nil) -> LDAPError {
        let position = StringRepresentation.characterOffset(of: offset ?? index, in: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let limit = 120
        let quoted = text.count <= limit ? text : String(text.prefix(limit)) + "…"
        return LDAPError(.decodingError,
                         message: "invalid \(kind.label) definition \"\(quoted)\": \(problem) at offset \(position)")
    }
}
