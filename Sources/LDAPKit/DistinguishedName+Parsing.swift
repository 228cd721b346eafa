#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension DistinguishedName {
    /// Parses the RFC 4514 string form of a DN, such as
    /// `cn=Ada Lovelace,ou=people,dc=example,dc=com`.
    ///
    /// The empty string is the root DN. Besides strict RFC 4514 the parser
    /// accepts, as OpenLDAP does: spaces around `,`, `+` and `=` (dropped,
    /// along with unescaped spaces at the end of a value); `;` as a
    /// separator between RDNs; an unescaped `=` inside a value; and values
    /// in double quotes (RFC 1779), in which only `"` and `\` need escaping
    /// and `\` takes the next character as it is (`"\41"` is `41`, not `A`).
    /// Attribute options (`cn;lang-de`) are rejected, since RFC 4514 does
    /// not allow them.
    ///
    /// Escapes are decoded to bytes: `\,` is a comma and `\C4\8D` the two
    /// bytes of `č`. A value written as `#` and hexadecimal digits (the BER
    /// form, `#04024869`) becomes the decoded bytes, BER header included;
    /// ``string`` writes such a value as an escaped string, since a value
    /// does not record how it was written.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/invalidDNSyntax``
    ///   and a message naming the problem and its zero-based character offset.
    public init(parsing string: String) throws(LDAPError) {
        if string.isEmpty {
            self = .root
            return
        }
        var text = string
        let parsed = text.withUTF8 { bytes in
            Result { () throws(LDAPError) in
                var parser = DistinguishedNameParser(bytes: bytes)
                return try parser.parseDistinguishedName()
            }
        }
        self.init(rdns: try parsed.get())
    }

    /// Parses a DN from its UTF-8 bytes, as ``init(parsing:)`` parses its string, without
    /// making the string first (for the DN of every entry a search returns). Its parent's
    /// RDNs are taken from `parents` when the text after the first RDN is the one parsed
    /// last: the entries of a search mostly share a parent, whose RDNs are then parsed and
    /// stored once.
    init(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>, parents: inout ParentCache) throws(LDAPError) {
        if bytes.isEmpty {
            self = .root
            return
        }
        var parser = DistinguishedNameParser(bytes: bytes)
        let first = try parser.parseRelativeDistinguishedName()
        guard !parser.isAtEnd else {
            self.init(rdns: [first])
            if Self.rendersAsItIs(bytes) { text = Array(bytes) }
            return
        }
        // The parser stopped at the separator; the parent is all that follows it.
        let parent = UnsafeBufferPointer(rebasing: bytes[(parser.index + 1)...])
        let sameParent = parents.text.count == parent.count && parents.text.withUnsafeBytes { known in
            known.count == 0 || memcmp(known.baseAddress!, parent.baseAddress!, known.count) == 0
        }
        if !sameParent || parents.rdns.isEmpty {
            // Parsed on by the same parser, so that an error's offset counts from the DN's start.
            parser.index += 1
            parents.rdns = try parser.parseDistinguishedName()
            parents.text = Array(parent)
        }
        var rdns: [RelativeDistinguishedName] = []
        rdns.reserveCapacity(parents.rdns.count + 1)
        rdns.append(first)
        rdns.append(contentsOf: parents.rdns)
        self.init(rdns: rdns)
        if Self.rendersAsItIs(bytes) { text = Array(bytes) }
    }

    /// Whether `bytes`, the text of a DN, are exactly what ``utf8`` writes of the DN parsed
    /// from them: UTF-8 with no escape, no quotes, no `;` for a separator, no `#` value, no
    /// space beside a separator or at either end, and no `=` inside a value. A server sends
    /// the DNs of most entries so.
    static func rendersAsItIs(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var equalsSigns = 0, separators = 0
        for (index, byte) in bytes.enumerated() {
            let previous = index > 0 ? bytes[index - 1] : nil, next = index + 1 < bytes.count ? bytes[index + 1] : nil
            switch byte {
            case 0x00..<0x20, 0x7F, UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"):
                return false
            case UInt8(ascii: "="):
                equalsSigns += 1
            case UInt8(ascii: ","), UInt8(ascii: "+"):
                separators += 1
            case UInt8(ascii: "#") where previous == UInt8(ascii: "="):
                return false
            case UInt8(ascii: " "):
                // No set of the bytes a space may not stand beside: one made for every space
                // was most of the cost of reading a DN such as cn=Ada Lovelace.
                func isBoundary(_ byte: UInt8?) -> Bool {
                    byte == nil || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "=")
                }
                if isBoundary(previous) || isBoundary(next) { return false }
            default:
                break
            }
        }
        return equalsSigns == separators + 1 && StringRepresentation.isUTF8(bytes)
    }

    /// The text and RDNs of the parent DN parsed last, for
    /// ``init(parsingUTF8:parents:)``.
    struct ParentCache {
        /// The parent's text, as it followed the first RDN's separator.
        var text: [UInt8] = []
        /// Its RDNs; empty until a parent is parsed.
        var rdns: [RelativeDistinguishedName] = []
    }
}

extension RelativeDistinguishedName {
    /// Parses the RFC 4514 string form of a single RDN, such as `cn=Ada` or
    /// `ou=Sales+cn=Ada`, with the leniencies of
    /// ``DistinguishedName/init(parsing:)``.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/invalidDNSyntax``
    ///   when the string is not exactly one RDN.
    public init(parsing string: String) throws(LDAPError) {
        var text = string
        let parsed = text.withUTF8 { bytes in
            Result { () throws(LDAPError) in
                var parser = DistinguishedNameParser(bytes: bytes)
                return try parser.parseSingleRelativeDistinguishedName()
            }
        }
        self = try parsed.get()
    }
}

/// A single pass over the UTF-8 bytes of a DN string.
private struct DistinguishedNameParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    /// RDNs separated by `,` or `;`, up to the end of the text.
    mutating func parseDistinguishedName() throws(LDAPError) -> [RelativeDistinguishedName] {
        var rdns = [try parseRelativeDistinguishedName()]
        while !isAtEnd {
            index += 1
            rdns.append(try parseRelativeDistinguishedName())
        }
        return rdns
    }

    /// One RDN filling the whole text.
    mutating func parseSingleRelativeDistinguishedName() throws(LDAPError) -> RelativeDistinguishedName {
        let rdn = try parseRelativeDistinguishedName()
        guard isAtEnd else {
            throw error("\(StringRepresentation.describe(bytes[index])) ends the RDN before the end of the text")
        }
        return rdn
    }

    /// Pairs separated by `+`; stops at the end or at `,` or `;`.
    mutating func parseRelativeDistinguishedName() throws(LDAPError) -> RelativeDistinguishedName {
        var pairs = [try parseAttributeTypeAndValue()]
        while !isAtEnd, bytes[index] == UInt8(ascii: "+") {
            index += 1
            pairs.append(try parseAttributeTypeAndValue())
        }
        return RelativeDistinguishedName(attributes: pairs)
    }

    /// `type=value`; stops at the end or at `,`, `;` or `+`.
    private mutating func parseAttributeTypeAndValue() throws(LDAPError) -> AttributeTypeAndValue {
        skipSpaces()
        let type = try parseType()
        skipSpaces()
        guard !isAtEnd, bytes[index] == UInt8(ascii: "=") else {
            throw error(isAtEnd ? "missing '=' after the attribute type" : "expected '=' after the attribute type")
        }
        index += 1
        skipSpaces()
        let value: [UInt8]
        switch isAtEnd ? nil : bytes[index] {
        case UInt8(ascii: "#"): value = try parseHexString()
        case UInt8(ascii: "\""): value = try parseQuotedString()
        default: value = try parseString()
        }
        return AttributeTypeAndValue(type: type, value: LDAPValue(bytes: value))
    }

    /// A `keystring` such as `cn`, or a numeric OID such as `2.5.4.3`.
    private mutating func parseType() throws(LDAPError) -> String {
        let start = index
        guard !isAtEnd else { throw error("expected an attribute type") }
        let first = bytes[index]
        if StringRepresentation.isDigit(first) {
            while !isAtEnd, StringRepresentation.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
                index += 1
            }
            guard StringRepresentation.isNumericOID(bytes[start..<index]) else {
                throw error("an attribute type starting with a digit must be a numeric OID such as 2.5.4.3", at: start)
            }
        } else if StringRepresentation.isLetter(first) {
            while !isAtEnd, StringRepresentation.isKeyCharacter(bytes[index]) {
                index += 1
            }
        } else {
            throw error(first == UInt8(ascii: "=") ? "missing attribute type before '='"
                                                  : "expected an attribute type, found \(StringRepresentation.describe(first))")
        }
        if !isAtEnd, bytes[index] == UInt8(ascii: ";") {
            throw error("attribute options are not allowed in a DN")
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// `#` and pairs of hexadecimal digits, decoded.
    private mutating func parseHexString() throws(LDAPError) -> [UInt8] {
        index += 1
        var value: [UInt8] = []
        while let byte = StringRepresentation.hexPair(in: bytes, at: index) {
            value.append(byte)
            index += 2
        }
        if !isAtEnd, StringRepresentation.hexValue(bytes[index]) != nil {
            throw error("a '#' value must have an even number of hexadecimal digits")
        }
        guard !value.isEmpty else { throw error("expected hexadecimal digits after '#'") }
        try expectEndOfValue(after: "the hexadecimal value")
        return value
    }

    /// A value in double quotes (RFC 1779), in which `\` takes the next
    /// character as it is.
    private mutating func parseQuotedString() throws(LDAPError) -> [UInt8] {
        let start = index
        index += 1
        var value: [UInt8] = []
        while true {
            guard !isAtEnd else { throw error("missing the closing '\"' of the value", at: start) }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                try expectEndOfValue(after: "the quoted value")
                return value
            case UInt8(ascii: "\\"):
                index += 1
                guard !isAtEnd else { throw error("'\\' at the end of the text escapes nothing", at: index - 1) }
                guard bytes[index] != 0 else { throw error("a NUL character cannot appear in a quoted value") }
                value.append(bytes[index])
                index += 1
            case 0:
                throw error("a NUL character cannot appear in a quoted value")
            case let byte:
                value.append(byte)
                index += 1
            }
        }
    }

    /// An RFC 4514 string, with escapes decoded and unescaped trailing
    /// spaces dropped; stops at the end or at `,`, `;` or `+`.
    private mutating func parseString() throws(LDAPError) -> [UInt8] {
        var value: [UInt8] = []
        var runStart = index
        scan: while !isAtEnd {
            switch bytes[index] {
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "+"):
                break scan
            case UInt8(ascii: "\\"):
                value.append(contentsOf: bytes[runStart..<index])
                try appendEscape(to: &value)
                runStart = index
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"):
                throw error("\(StringRepresentation.describe(bytes[index])) must be escaped with '\\' in a value")
            case 0:
                throw error("a NUL character must be written as \\00")
            default:
                index += 1
            }
        }
        var runEnd = index
        while runEnd > runStart, bytes[runEnd - 1] == UInt8(ascii: " ") {
            runEnd -= 1
        }
        value.append(contentsOf: bytes[runStart..<runEnd])
        return value
    }

    /// Decodes the escape at `index` (`\,` or `\2C`) and moves past it.
    private mutating func appendEscape(to value: inout [UInt8]) throws(LDAPError) {
        let start = index
        index += 1
        guard !isAtEnd else { throw error("'\\' at the end of the text escapes nothing", at: start) }
        if let byte = StringRepresentation.hexPair(in: bytes, at: index) {
            value.append(byte)
            index += 2
            return
        }
        switch bytes[index] {
        case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "+"), UInt8(ascii: ","),
             UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "\\"):
            value.append(bytes[index])
            index += 1
        default:
            throw error("'\\' must be followed by a special character or two hexadecimal digits", at: start)
        }
    }

    /// Skips spaces, then requires the end or a separator.
    private mutating func expectEndOfValue(after what: String) throws(LDAPError) {
        skipSpaces()
        guard !isAtEnd else { return }
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "+"): return
        case let byte: throw error("unexpected \(StringRepresentation.describe(byte)) after \(what)")
        }
    }

    private mutating func skipSpaces() {
        while !isAtEnd, bytes[index] == UInt8(ascii: " ") {
            index += 1
        }
    }

    /// An `invalidDNSyntax` error for a problem at `offset` (by default the
    /// current position).
    private func error(_ problem: String, at offset: Int? = nil) -> LDAPError {
        let position = StringRepresentation.characterOffset(of: offset ?? index, in: bytes)
        return LDAPError(.invalidDNSyntax, message: "invalid DN: \(problem) at offset \(position)")
    }
}
