extension LDIFRecordParser {
    /// The change record whose `changetype:` line is at `index`.
    mutating func parseChange(of dn: DistinguishedName, controls: [LDAPControl]) throws(LDIFError) -> LDIFRecord {
        let changeTypeLine = try LDIFAttributeLine(lines[index])
        index += 1
        let changeType = try changeTypeLine.text().trimmingTrailingSpaces()
        switch changeType.lowercased() {
        case "add":
            return .add(LDAPEntry(dn: dn, attributes: try parseAttributes()), controls: controls)
        case "delete":
            try expectEnd(of: "changetype: delete")
            return .delete(dn, controls: controls)
        case "modify":
            return .modify(dn, try parseModifications(), controls: controls)
        case "modrdn", "moddn":
            return try parseRename(of: dn, controls: controls, changeType: changeType, changeTypeLine: changeTypeLine)
        default:
            throw LDIFError(
                line: changeTypeLine.number,
                message: "unknown changetype \(LDIFError.excerpt(changeType.utf8)); expected add, delete, modify, modrdn or moddn"
            )
        }
    }

    /// The modifications of a `changetype: modify` record: blocks of an
    /// `add:`, `delete:`, `replace:` or `increment:` line naming the
    /// attribute, its values, and a `-` line.
    private mutating func parseModifications() throws(LDIFError) -> [LDAPModification] {
        var modifications: [LDAPModification] = []
        while index < lines.count {
            let operationLine = try LDIFAttributeLine(lines[index])
            let operation: LDAPModification.Operation
            switch operationLine.name.lowercased() {
            case "add": operation = .add
            case "delete": operation = .delete
            case "replace": operation = .replace
            case "increment": operation = .increment
            default:
                throw LDIFError(
                    line: operationLine.number,
                    message: "expected 'add:', 'delete:', 'replace:' or 'increment:' to begin a modification, "
                        + "found \(LDIFError.excerpt(operationLine.name.utf8))"
                )
            }
            let attribute = try operationLine.text().trimmingTrailingSpaces()
            guard StringRepresentation.isAttributeDescription(attribute) else {
                throw LDIFError(
                    line: operationLine.number,
                    message: "invalid attribute description \(LDIFError.excerpt(attribute.utf8))"
                )
            }
            let block = "'\(operationLine.name): \(attribute)'"
            index += 1
            var values: [LDAPValue] = []
            while true {
                guard index < lines.count else {
                    throw LDIFError(line: operationLine.number, message: "the \(block) modification is not ended by a '-' line")
                }
                let line = lines[index]
                index += 1
                if line.isModificationEnd { break }
                let valueLine = try LDIFAttributeLine(line)
                guard valueLine.name.caseInsensitiveEquals(attribute) else {
                    throw LDIFError(
                        line: line.number,
                        message: "\(LDIFError.excerpt(valueLine.name.utf8)) is not part of the \(block) modification; "
                            + "end it with a '-' line"
                    )
                }
                values.append(LDAPValue(bytes: try valueLine.value(allowsFileURLs: allowsFileURLs)))
            }
            modifications.append(LDAPModification(operation, attribute, values: values))
        }
        return modifications
    }

    /// The rename of a `changetype: modrdn` record: `newrdn:`,
    /// `deleteoldrdn:` and an optional `newsuperior:` line.
    private mutating func parseRename(
        of dn: DistinguishedName,
        controls: [LDAPControl],
        changeType: String,
        changeTypeLine: LDIFAttributeLine
    ) throws(LDIFError) -> LDIFRecord {
        let newRDNLine = try expectLine(named: "newrdn", in: changeTypeLine)
        let newRDNText = try newRDNLine.text()
        let newRDN: RelativeDistinguishedName
        do {
            newRDN = try RelativeDistinguishedName(parsing: newRDNText)
        } catch {
            throw LDIFError(line: newRDNLine.number, message: "newrdn: \(error.message)")
        }
        let deleteOldRDNLine = try expectLine(named: "deleteoldrdn", in: changeTypeLine)
        let deleteOldRDN: Bool
        switch try deleteOldRDNLine.text().trimmingTrailingSpaces() {
        case "0": deleteOldRDN = false
        case "1": deleteOldRDN = true
        case let other:
            throw LDIFError(
                line: deleteOldRDNLine.number,
                message: "deleteoldrdn must be 0 or 1, found \(LDIFError.excerpt(other.utf8))"
            )
        }
        var newSuperior: DistinguishedName?
        if index < lines.count, lines[index].hasName("newsuperior") {
            newSuperior = try parseDistinguishedName(LDIFAttributeLine(lines[index]))
            index += 1
        }
        try expectEnd(of: "changetype: \(changeType)")
        return .rename(dn, newRDN: newRDN, deleteOldRDN: deleteOldRDN, newSuperior: newSuperior, controls: controls)
    }

    /// The next line, which must be `keyword:`.
    private mutating func expectLine(
        named keyword: String,
        in changeTypeLine: LDIFAttributeLine
    ) throws(LDIFError) -> LDIFAttributeLine {
        guard index < lines.count else {
            throw LDIFError(
                line: changeTypeLine.number,
                message: "the record ends without the '\(keyword):' line that a rename needs"
            )
        }
        let line = lines[index]
        guard line.hasName(keyword) else {
            throw LDIFError(line: line.number, message: "expected '\(keyword):', found \(LDIFError.excerpt(line.name))")
        }
        index += 1
        return try LDIFAttributeLine(line)
    }

    /// Requires that the record has no more lines.
    private func expectEnd(of what: String) throws(LDIFError) {
        guard index < lines.count else { return }
        let line = lines[index]
        throw LDIFError(line: line.number, message: "unexpected \(LDIFError.excerpt(line.name)) after '\(what)'")
    }
}

extension LDIFLine {
    /// Whether this is the `-` line that ends a modification (trailing spaces allowed).
    var isModificationEnd: Bool {
        bytes.first == UInt8(ascii: "-") && bytes.dropFirst().allSatisfy { $0 == UInt8(ascii: " ") }
    }
}

extension String {
    /// The string without spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
