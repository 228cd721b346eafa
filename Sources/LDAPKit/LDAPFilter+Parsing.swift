extension LDAPFilter {
    /// Parses the RFC 4515 string form of a filter, such as
    /// `(&(objectClass=person)(|(sn=Jensen)(cn=Babs J*)))`.
    ///
    /// The RFC 4515 grammar is accepted, with empty `(&)` and `(|)`
    /// (RFC 4526); `\XX` escapes are decoded to bytes. As in OpenLDAP's
    /// tools, the outer parentheses may be left out (`cn=Babs Jensen`). No
    /// whitespace is allowed outside values, nor anything after the filter.
    ///
    /// `(cn=*)` is a presence filter. As in libldap, two `*`s in a row
    /// (`(cn=a**b)`) are an error, since RFC 4511 does not allow an empty
    /// substring. Attribute descriptions and matching rules are checked as
    /// ``validate()`` checks them, so a parsed filter always validates.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/filterError`` and
    ///   a message naming the problem and its zero-based character offset.
    public init(parsing string: String) throws(LDAPError) {
        var text = string
        let parsed = text.withUTF8 { bytes in
            Result { () throws(LDAPError) in
                var parser = FilterParser(bytes: bytes)
                return try parser.parseWholeFilter()
            }
        }
        self = try parsed.get()
    }
}

/// A recursive-descent parser over the UTF-8 bytes of a filter string.
private struct FilterParser {
    /// How deeply filters may nest, so that hostile input cannot exhaust the stack.
    static let maximumDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var isAtEnd: Bool { index == bytes.count }

    /// A filter with or without its outer parentheses, filling the whole text.
    mutating func parseWholeFilter() throws(LDAPError) -> LDAPFilter {
        guard !isAtEnd else { throw error("the filter is empty") }
        let filter = if bytes[index] == UInt8(ascii: "(") { try parseFilter() } else { try parseComponent() }
        guard isAtEnd else {
            throw error("unexpected \(StringRepresentation.describe(bytes[index])) after the end of the filter")
        }
        return filter
    }

    /// `(` filtercomp `)`, starting at the `(`.
    private mutating func parseFilter() throws(LDAPError) -> LDAPFilter {
        guard depth < Self.maximumDepth else {
            throw error("filters are nested more than \(Self.maximumDepth) deep")
        }
        depth += 1
        defer { depth -= 1 }
        index += 1
        let filter = try parseComponent()
        guard !isAtEnd else { throw error("missing ')' at the end of the filter") }
        guard bytes[index] == UInt8(ascii: ")") else {
            throw error("expected ')', found \(StringRepresentation.describe(bytes[index]))")
        }
        index += 1
        return filter
    }

    /// An `and`, `or`, `not` or item.
    private mutating func parseComponent() throws(LDAPError) -> LDAPFilter {
        guard !isAtEnd else { throw error("expected a filter") }
        switch bytes[index] {
        case UInt8(ascii: "&"):
            index += 1
            return .and(try parseList(after: "&"))
        case UInt8(ascii: "|"):
            index += 1
            return .or(try parseList(after: "|"))
        case UInt8(ascii: "!"):
            index += 1
            guard !isAtEnd, bytes[index] == UInt8(ascii: "(") else {
                throw error("expected '(' after '!'")
            }
            return .not(try parseFilter())
        default:
            return try parseItem()
        }
    }

    /// Zero or more parenthesized filters.
    private mutating func parseList(after symbol: String) throws(LDAPError) -> [LDAPFilter] {
        var filters: [LDAPFilter] = []
        while !isAtEnd, bytes[index] == UInt8(ascii: "(") {
            filters.append(try parseFilter())
        }
        if !isAtEnd, bytes[index] != UInt8(ascii: ")") {
            throw error("expected '(' or ')' in the list after '\(symbol)', found \(StringRepresentation.describe(bytes[index]))")
        }
        return filters
    }

    /// A simple, present, substrings or extensible item.
    private mutating func parseItem() throws(LDAPError) -> LDAPFilter {
        if bytes[index] == UInt8(ascii: ":") {
            return try parseExtensibleMatch(attribute: nil)
        }
        let attribute = try parseAttributeDescription()
        let filterTypes = "'=', '~=', '>=', '<=' or ':='"
        guard !isAtEnd else { throw error("expected \(filterTypes) after the attribute description") }
        let filterType = bytes[index]
        switch filterType {
        case UInt8(ascii: "="):
            index += 1
            return equalityOrSubstrings(attribute, pieces: try parseValue(allowingWildcards: true))
        case UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "<"):
            index += 1
            guard !isAtEnd, bytes[index] == UInt8(ascii: "=") else {
                throw error("expected '=' after \(StringRepresentation.describe(filterType))")
            }
            index += 1
            let value = try parseAssertionValue()
            switch filterType {
            case UInt8(ascii: "~"): return .approximate(attribute, value)
            case UInt8(ascii: ">"): return .greaterOrEqual(attribute, value)
            default: return .lessOrEqual(attribute, value)
            }
        case UInt8(ascii: ":"):
            return try parseExtensibleMatch(attribute: attribute)
        default:
            throw error("expected \(filterTypes) after the attribute description, found \(StringRepresentation.describe(filterType))")
        }
    }

    /// An attribute type (name or numeric OID) with optional `;options`.
    private mutating func parseAttributeDescription() throws(LDAPError) -> String {
        let start = index
        while !isAtEnd, StringRepresentation.isKeyCharacter(bytes[index])
                || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ";") {
            index += 1
        }
        guard index > start else {
            throw error(isAtEnd ? "expected an attribute description"
                                : "expected an attribute description, found \(StringRepresentation.describe(bytes[index]))")
        }
        let attribute = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard StringRepresentation.isAttributeDescription(attribute) else {
            throw error("\"\(attribute)\" is not a valid attribute description", at: start)
        }
        return attribute
    }

    /// `[:dn][:rule]:=value`, starting at the first `:`.
    private mutating func parseExtensibleMatch(attribute: String?) throws(LDAPError) -> LDAPFilter {
        let start = index
        var dnAttributes = false
        var matchingRule: String?
        while true {
            index += 1
            guard !isAtEnd else { throw error("expected 'dn', a matching rule or '=' after ':'") }
            if bytes[index] == UInt8(ascii: "=") {
                index += 1
                break
            }
            let tokenStart = index
            while !isAtEnd, StringRepresentation.isKeyCharacter(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
                index += 1
            }
            let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[tokenStart..<index]), as: UTF8.self)
            guard !token.isEmpty else {
                throw error("expected 'dn', a matching rule or '=' after ':', found \(StringRepresentation.describe(bytes[index]))")
            }
            guard !isAtEnd, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after 'dn' or the matching rule")
            }
            let isDN = token.lowercased() == "dn"
            if isDN && !dnAttributes && matchingRule == nil {
                dnAttributes = true
            } else if !isDN && matchingRule == nil {
                guard StringRepresentation.isOID(token.utf8) else {
                    throw error("\"\(token)\" is not a valid matching rule name or OID", at: tokenStart)
                }
                matchingRule = token
            } else {
                throw error("unexpected \"\(token)\" where ':=' should be", at: tokenStart)
            }
        }
        guard attribute != nil || matchingRule != nil else {
            throw error("an extensible match needs an attribute or a matching rule", at: start)
        }
        let value = try parseAssertionValue()
        return .extensibleMatch(attribute: attribute, matchingRule: matchingRule, value: value, dnAttributes: dnAttributes)
    }

    /// The assertion value up to the next `)` or the end, decoded; `*` must
    /// be escaped.
    private mutating func parseAssertionValue() throws(LDAPError) -> LDAPValue {
        LDAPValue(bytes: try parseValue(allowingWildcards: false)[0])
    }

    /// The assertion value up to the next `)` or the end, decoded and split
    /// at unescaped `*`s.
    private mutating func parseValue(allowingWildcards: Bool) throws(LDAPError) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var piece: [UInt8] = []
        var runStart = index
        scan: while !isAtEnd {
            switch bytes[index] {
            case UInt8(ascii: ")"):
                break scan
            case UInt8(ascii: "*"):
                guard allowingWildcards else {
                    throw error("'*' is only allowed in an equality filter; write \\2a for an asterisk")
                }
                piece.append(contentsOf: bytes[runStart..<index])
                guard !piece.isEmpty || pieces.isEmpty else {
                    throw error("a substring between two '*'s cannot be empty")
                }
                pieces.append(piece)
                piece = []
                index += 1
                runStart = index
            case UInt8(ascii: "\\"):
                guard let byte = StringRepresentation.hexPair(in: bytes, at: index + 1) else {
                    throw error("'\\' must be followed by two hexadecimal digits")
                }
                piece.append(contentsOf: bytes[runStart..<index])
                piece.append(byte)
                index += 3
                runStart = index
            case UInt8(ascii: "("):
                throw error("'(' must be written as \\28 in a value")
            case 0:
                throw error("a NUL character must be written as \\00 in a value")
            default:
                index += 1
            }
        }
        piece.append(contentsOf: bytes[runStart..<index])
        pieces.append(piece)
        return pieces
    }

    /// The filter an `=` item with the given pieces stands for. Only the
    /// first and last pieces can be empty.
    private func equalityOrSubstrings(_ attribute: String, pieces: [[UInt8]]) -> LDAPFilter {
        guard pieces.count > 1 else { return .equal(attribute, LDAPValue(bytes: pieces[0])) }
        guard pieces.count > 2 || !pieces[0].isEmpty || !pieces[1].isEmpty else { return .present(attribute) }
        let initial = pieces[0].isEmpty ? nil : LDAPValue(bytes: pieces[0])
        let final = pieces[pieces.count - 1].isEmpty ? nil : LDAPValue(bytes: pieces[pieces.count - 1])
        let any = pieces[1..<pieces.count - 1].map { LDAPValue(bytes: $0) }
        return .substrings(attribute, initial: initial, any: any, final: final)
    }

    /// A `filterError` for a problem at `offset` (by default the current position).
    private func error(_ problem: String, at offset: Int? = nil) -> LDAPError {
        let position = StringRepresentation.characterOffset(of: offset ?? index, in: bytes)
        return LDAPError(.filterError, message: "invalid filter: \(problem) at offset \(position)")
    }
}
