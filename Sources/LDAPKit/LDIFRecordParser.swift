/// Turns the lines of one record into an ``LDIFRecord``: the `dn:` line,
/// then either attributes (a content record) or `control:` lines, a
/// `changetype:` line and what that change needs.
///
/// Change records are told from content records by their `changetype:`
/// line, which follows the `dn:` line and any `control:` lines. When no
/// `changetype:` follows, `control:` lines are attribute values like any other.
struct LDIFRecordParser {
    /// The record's lines, comments left out and folding undone.
    let lines: [LDIFLine]
    /// Whether `attr:< file:///path` values may be read.
    let allowsFileURLs: Bool
    /// The next line to parse.
    var index = 0

    /// A parser of `lines`, which are not empty.
    init(lines: [LDIFLine], allowsFileURLs: Bool) {
        precondition(!lines.isEmpty, "a record has at least one line")
        self.lines = lines
        self.allowsFileURLs = allowsFileURLs
    }

    /// The record the lines describe.
    ///
    /// - Throws: ``LDIFError`` naming the first offending line.
    mutating func parse() throws(LDIFError) -> LDIFRecord {
        let dn = try parseDN()
        let controlLineCount = lines[index...].prefix { $0.hasName("control") }.count
        let changeTypeIndex = index + controlLineCount
        guard changeTypeIndex < lines.count, lines[changeTypeIndex].hasName("changetype") else {
            return .content(LDAPEntry(dn: dn, attributes: try parseAttributes()))
        }
        var controls: [LDAPControl] = []
        while index < changeTypeIndex {
            controls.append(try parseControl(lines[index]))
            index += 1
        }
        return try parseChange(of: dn, controls: controls)
    }

    /// The DN of the record's first line, which must be `dn:` or `dn::`.
    private mutating func parseDN() throws(LDIFError) -> DistinguishedName {
        let first = lines[index]
        guard first.hasName("dn") else {
            throw LDIFError(
                line: first.number,
                message: "expected a 'dn:' line to begin the record, found \(LDIFError.excerpt(first.name))"
            )
        }
        index += 1
        return try parseDistinguishedName(LDIFAttributeLine(first))
    }

    /// The DN that `line` gives, such as a `dn:` or `newsuperior:` line.
    func parseDistinguishedName(_ line: LDIFAttributeLine) throws(LDIFError) -> DistinguishedName {
        let text = try line.text()
        do {
            return try DistinguishedName(parsing: text)
        } catch {
            throw LDIFError(line: line.number, message: line.isNamed("dn") ? error.message : "\(line.name): \(error.message)")
        }
    }

    /// The attributes on the remaining lines, values of the same attribute
    /// description (compared ignoring ASCII case) gathered in one attribute
    /// where that description first appears.
    mutating func parseAttributes() throws(LDIFError) -> [LDAPAttribute] {
        var attributes: [LDAPAttribute] = []
        var positions: [String: Int] = [:]
        while index < lines.count {
            let line = try LDIFAttributeLine(lines[index])
            if line.isNamed("dn") {
                throw LDIFError(
                    line: line.number,
                    message: "a second 'dn:' line in one record; separate records with an empty line"
                )
            }
            let value = LDAPValue(bytes: try line.value(allowsFileURLs: allowsFileURLs))
            let key = line.name.lowercased()
            if let position = positions[key] {
                attributes[position].values.append(value)
            } else {
                positions[key] = attributes.count
                attributes.append(LDAPAttribute(name: line.name, values: [value]))
            }
            index += 1
        }
        return attributes
    }

    /// The control of a `control: oid [true|false] [value-spec]` line (RFC 2849).
    ///
    /// - Parameter line: A line that ``LDIFLine/hasName(_:)`` `control`.
    private func parseControl(_ line: LDIFLine) throws(LDIFError) -> LDAPControl {
        let space = UInt8(ascii: " ")
        var rest = line.bytes[(line.name.endIndex + 1)...].drop { $0 == space }
        let oid = rest.prefix { StringRepresentation.isDigit($0) || $0 == UInt8(ascii: ".") }
        guard StringRepresentation.isNumericOID(oid) else {
            throw LDIFError(
                line: line.number,
                message: "expected a numeric OID after 'control:', found \(LDIFError.excerpt(rest))"
            )
        }
        rest = rest.dropFirst(oid.count)
        var isCritical = false
        let afterSpaces = rest.drop { $0 == space }
        if afterSpaces.count < rest.count {
            for (word, criticality) in [("true", true), ("false", false)]
            where afterSpaces.starts(with: word.utf8, by: { $0 | 0x20 == $1 }) {
                isCritical = criticality
                rest = afterSpaces.dropFirst(word.utf8.count)
                break
            }
        }
        rest = rest.drop { $0 == space }
        var value: [UInt8]?
        if rest.first == UInt8(ascii: ":") {
            let spec = LDIFAttributeLine.valueSpec(rest.dropFirst())
            value = try LDIFAttributeLine(name: "control", spec: spec, number: line.number)
                .value(allowsFileURLs: allowsFileURLs)
        } else if !rest.isEmpty {
            throw LDIFError(
                line: line.number,
                message: "unexpected \(LDIFError.excerpt(rest)) in the control; expected 'true', 'false' or a value"
            )
        }
        return LDAPControl(oid: String(decoding: oid, as: UTF8.self), isCritical: isCritical, value: value)
    }
}

extension LDIFLine {
    /// The bytes before the first colon: the attribute description or
    /// keyword, or the whole line when it has no colon.
    var name: ArraySlice<UInt8> {
        bytes.prefix { $0 != UInt8(ascii: ":") }
    }

    /// Whether the line is `keyword:` followed by a value, the keyword
    /// compared ignoring ASCII case.
    func hasName(_ keyword: String) -> Bool {
        let name = self.name
        return name.count < bytes.count && name.elementsEqual(keyword.utf8) { $0 | 0x20 == $1 | 0x20 }
    }
}
