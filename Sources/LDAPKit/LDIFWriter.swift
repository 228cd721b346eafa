/// Writes LDIF (RFC 2849): entries as content records, and change records
/// as `ldapmodify` reads them.
///
/// Every record ends with an empty line, so records written one after
/// another make a file; start it with ``versionLine``:
///
/// ```swift
/// var ldif = LDIFWriter.versionLine
/// for entry in entries {
///     ldif += LDIFWriter.write(entry)
/// }
/// ```
///
/// Values are written as they are when they are printable ASCII that can be
/// read back unchanged, and in base64 (`attr:: …`) otherwise: binary
/// values, non-ASCII UTF-8, values with control characters, and values
/// starting with a space, `:` or `<` or ending with a space. Lines longer
/// than 76 bytes are folded. ``LDIFReader`` reads back what is written here
/// as equal records, except that attributes without values are left out.
///
/// Attribute descriptions are written as they are, so they must be valid
/// (RFC 4512: `cn`, `2.5.4.3`, `cn;lang-de`); writing an attribute or
/// modification with any other name is a programming error and stops the program.
public enum LDIFWriter {
    /// The `version: 1` line that starts an LDIF file, and an empty line.
    public static let versionLine: [UInt8] = Array("version: 1\n\n".utf8)

    /// The content record of `entry`: its `dn:` line, a line for each
    /// value, and an empty line.
    ///
    /// An attribute named `changetype` is not written first, where a reader
    /// would take the record for a change record, unless the entry has no
    /// other attribute to put before it.
    public static func write(_ entry: LDAPEntry) -> [UInt8] {
        var bytes: [UInt8] = []
        append(entry, to: &bytes)
        return bytes
    }

    /// Appends the content record of `entry` to `bytes`, as ``write(_:)-(LDAPEntry)``
    /// writes it, with only the attributes `isWritten` accepts: an export writes each
    /// entry straight into its output, leaving out what it does not export, without a
    /// copy of the entry.
    public static func append(_ entry: LDAPEntry, to bytes: inout [UInt8],
                              where isWritten: (LDAPAttribute) -> Bool = { _ in true }) {
        var output = LDIFOutput(appendingTo: &bytes)
        defer { output.end(into: &bytes) }
        output.appendLine("dn", entry.dn.utf8)
        let isKeyword = { (attribute: LDAPAttribute) in
            attribute.name.caseInsensitiveEquals("changetype") || attribute.name.caseInsensitiveEquals("control")
        }
        if let first = entry.attributes.first(where: { !$0.values.isEmpty && isWritten($0) }), isKeyword(first) {
            output.appendAttributes(contentOrder(entry.attributes.filter(isWritten)))
        } else {
            for attribute in entry.attributes where !attribute.values.isEmpty && isWritten(attribute) {
                output.appendAttribute(attribute)
            }
        }
        output.appendEmptyLine()
    }

    /// The lines of `record` and an empty line: a content record as
    /// ``write(_:)-(LDAPEntry)`` writes it, or a change record with its
    /// `control:` lines and a `changetype:` line of `add`, `delete`,
    /// `modify` (each modification ended by a `-` line) or `modrdn`.
    public static func write(_ record: LDIFRecord) -> [UInt8] {
        if case .content(let entry) = record, record.controls.isEmpty { return write(entry) }
        var output = LDIFOutput()
        output.append(record)
        return output.bytes
    }
}

extension LDIFOutput {
    /// Appends the lines of `record` and the empty line that ends it.
    fileprivate mutating func append(_ record: LDIFRecord) {
        appendLine("dn", record.dn.string)
        for control in record.controls {
            append(control)
        }
        switch record {
        case .content(let entry):
            appendAttributes(LDIFWriter.contentOrder(entry.attributes))
        case .add(let entry, _):
            appendLine("changetype: add")
            appendAttributes(entry.attributes)
        case .delete:
            appendLine("changetype: delete")
        case .modify(_, let modifications, _):
            appendLine("changetype: modify")
            for modification in modifications {
                append(modification)
            }
        case .rename(_, let newRDN, let deleteOldRDN, let newSuperior, _):
            appendLine("changetype: modrdn")
            appendLine("newrdn", newRDN.string)
            appendLine(deleteOldRDN ? "deleteoldrdn: 1" : "deleteoldrdn: 0")
            if let newSuperior {
                appendLine("newsuperior", newSuperior.string)
            }
        }
        appendEmptyLine()
    }

    /// Appends a line for each value of each attribute.
    fileprivate mutating func appendAttributes(_ attributes: [LDAPAttribute]) {
        for attribute in attributes {
            appendAttribute(attribute)
        }
    }

    /// Appends a line for each value of `attribute`.
    fileprivate mutating func appendAttribute(_ attribute: LDAPAttribute) {
        LDIFWriter.checkAttributeDescription(attribute.name)
        for value in attribute.values {
            appendLine(attribute.name, value)
        }
    }

    /// Appends a modification block: `add: attr` (or `delete:`,
    /// `replace:`, `increment:`), the values, and `-`.
    private mutating func append(_ modification: LDAPModification) {
        LDIFWriter.checkAttributeDescription(modification.attribute)
        let operation = switch modification.operation {
        case .add: "add"
        case .delete: "delete"
        case .replace: "replace"
        case .increment: "increment"
        }
        appendLine("\(operation): \(modification.attribute)")
        for value in modification.values {
            appendLine(modification.attribute, value)
        }
        appendLine("-")
    }

    /// Appends `control: oid true|false`, followed by the value spec when
    /// the control has a value.
    private mutating func append(_ control: LDAPControl) {
        precondition(StringRepresentation.isNumericOID(control.oid.utf8), "'\(control.oid)' is not a numeric OID")
        var text = Array("control: \(control.oid) \(control.isCritical)".utf8)
        if let value = control.value {
            text.append(UInt8(ascii: ":"))
            Self.appendValueSpec(value, to: &text)
        }
        appendLine(String(decoding: text, as: UTF8.self))
    }
}

extension LDIFWriter {
    /// Stops the program when `name` is not an attribute description, which
    /// written as it is could break the LDIF apart.
    fileprivate static func checkAttributeDescription(_ name: String) {
        precondition(StringRepresentation.isAttributeDescription(name), "'\(name)' is not an attribute description")
    }

    /// The attributes of a content record in the order to write them, those
    /// without values left out: as given, except that when a `changetype`
    /// attribute would come first (after any `control` attributes), the
    /// first other attribute is moved to the front.
    static func contentOrder(_ attributes: [LDAPAttribute]) -> [LDAPAttribute] {
        var ordered = attributes.filter { !$0.values.isEmpty }
        let isKeyword = { (attribute: LDAPAttribute) in
            attribute.name.caseInsensitiveEquals("changetype") || attribute.name.caseInsensitiveEquals("control")
        }
        guard ordered.prefix(while: isKeyword).contains(where: { $0.name.caseInsensitiveEquals("changetype") }),
              let first = ordered.firstIndex(where: { !isKeyword($0) })
        else { return ordered }
        ordered.insert(ordered.remove(at: first), at: 0)
        return ordered
    }
}
