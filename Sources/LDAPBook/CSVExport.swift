import LDAPKit

/// People as CSV (RFC 4180): a `dn` column, then a column for every text field the
/// exported people have, headed by its name: built-in fields in their order, then the
/// directory's other attributes by name, then the custom fields by name. Each cell holds
/// the field's values, `; ` between them.
///
/// The columns are known only once every person has been seen, and the directory is read
/// once: each person is first written as a row of this export's own (``appendRow(_:to:)``),
/// its cells already in CSV form and tagged with their column; once all are written,
/// ``header()`` gives the first line and ``appendLine(row:to:)`` turns each row into its line.
/// The rows can wait anywhere (a file), so memory does not grow with the directory.
///
/// A cell a spreadsheet would take for a formula (its first character `=`, `+`, `-`, `@`,
/// a tab or a carriage return) gets a leading `'` and quotes, as OWASP recommends against
/// CSV injection: `=HYPERLINK(…)` in a name stays text.
public struct CSVExport {
    /// The fields of the directory the people come from.
    public let registry: FieldRegistry

    /// The columns after `dn`, in the order they were first met.
    private var columns: [Column] = []
    /// The column of each field, by field name.
    private var columnOfField: [String: Int] = [:]
    /// What each attribute name is to the table, as met.
    private var roles = NameMemo<Role>()
    /// The cell being made.
    private var cell: [UInt8] = []
    /// The number of the row each column last had a cell in, by column number.
    private var lastRow: [Int] = [0]
    /// The number of the row being made.
    private var rowNumber = 0

    private struct Column {
        let field: Field
        /// Where the column goes: built-in fields, other attributes, then custom fields.
        var group: Int
        /// Its place within the group: the built-in field's index, else the smallest name it
        /// was met under (an attribute name in lower case, a custom key as written).
        var key: String
        var builtIn: Int
    }

    private enum Role {
        /// The values go to this column, of this field.
        case column(Int, Field)
        /// Custom fields, `<key>=<value>`, each to its own column.
        case customFields
        /// No column: binary, secret, restricted (`uid`, references), or no field at all.
        case none
    }

    /// What an attribute name is to the table before it has a column.
    private enum Place {
        /// The values go to the column of this field.
        case field(Field, group: Int, builtIn: Int)
        case customFields
        case none
    }

    /// An export of people of the directory `registry` describes.
    public init(registry: FieldRegistry) {
        self.registry = registry
    }

    // MARK: Rows

    /// Appends `person`'s row: each cell (the DN's, then each field's) as its column's
    /// number and length, four bytes each, and its bytes in CSV form.
    public mutating func appendRow(_ person: Person, to row: inout [UInt8]) {
        cell.removeAll(keepingCapacity: true)
        cell.append(contentsOf: person.dn.utf8)
        appendCell(column: 0, to: &row)
        rowNumber += 1
        // Whether this row has a cell in `column` already; if not, it has now.
        func isWritten(_ column: Int) -> Bool {
            defer { lastRow[column] = rowNumber }
            return lastRow[column] == rowNumber
        }
        for attribute in person.entry.attributes where !attribute.values.isEmpty {
            switch role(of: attribute.name) {
            case .none:
                continue
            case .column(let column, let field):
                guard !isWritten(column) else { continue }
                // The field's values are this attribute's, unless it was met under another name.
                fill(attribute.isNamed(field.attribute) ? attribute.values : person.values(of: field))
                appendCell(column: column, to: &row)
            case .customFields:
                for value in attribute.values where value.isUTF8 {
                    // key=value: the key as written before the first "=".
                    guard let equals = value.withUnsafeBufferPointer({ $0.firstIndex(of: UInt8(ascii: "=")) }), equals > 0 else { continue }
                    let key = String(decoding: value.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[..<equals]) },
                                     as: UTF8.self)
                    guard key != VCardIdentity.fieldName, let field = try? registry.field(named: key), field.origin == .custom
                    else { continue }
                    let column = self.column(of: field, group: 2, builtIn: 0, key: key)
                    guard !isWritten(column) else { continue }
                    fill(person.values(of: field))
                    appendCell(column: column, to: &row)
                }
            }
        }
    }

    /// The column of `field`, made when first met.
    private mutating func column(of field: Field, group: Int, builtIn: Int, key: String) -> Int {
        if let index = columnOfField[field.name] {
            if key < columns[index - 1].key { columns[index - 1].key = key }
            return index
        }
        columns.append(Column(field: field, group: group, key: key, builtIn: builtIn))
        lastRow.append(0)
        columnOfField[field.name] = columns.count
        return columns.count
    }

    /// What `name` is to the table, worked out the first time it is met, its column made then.
    private mutating func role(of name: String) -> Role {
        if let known = roles.answer(for: name) { return known }
        let role: Role
        switch Self.place(of: name, registry: registry) {
        case .field(let field, let group, let builtIn):
            role = .column(column(of: field, group: group, builtIn: builtIn, key: name.lowercased()), field)
        case .customFields:
            role = .customFields
        case .none:
            role = .none
        }
        roles.remember(role, for: name)
        return role
    }

    private static func place(of name: String, registry: FieldRegistry) -> Place {
        let lowered = name.lowercased()
        if lowered == LDAPBookSchemaName.customField.lowercased() { return .customFields }
        if lowered == "objectclass" || registry.isSecret(name) { return .none }
        let field: Field
        let group: Int
        let builtIn: Int
        if let index = BuiltInField.all.firstIndex(where: { $0.attribute.lowercased() == lowered }) {
            guard let known = try? registry.field(named: BuiltInField.all[index].name) else { return .none }
            (field, group, builtIn) = (known, 0, index)
        } else {
            guard let known = try? registry.field(named: lowered) else { return .none }
            (field, group, builtIn) = (known, 1, 0)
        }
        guard field.restriction == nil, !field.kind.isBinary else { return .none }
        return .field(field, group: group, builtIn: builtIn)
    }

    /// Makes ``cell`` the text of `values`, `; ` between them.
    private mutating func fill(_ values: [LDAPValue]) {
        cell.removeAll(keepingCapacity: true)
        for (index, value) in values.enumerated() {
            if index > 0 { cell.append(contentsOf: [UInt8(ascii: ";"), UInt8(ascii: " ")]) }
            if value.isUTF8 {
                value.withUnsafeBufferPointer { cell.append(contentsOf: $0) }
            } else {
                cell.append(contentsOf: value.lossyString.utf8)
            }
        }
    }

    /// Appends ``cell`` to `row` in CSV form, tagged with `column`.
    private mutating func appendCell(column: Int, to row: inout [UInt8]) {
        Self.appendWord(UInt32(column), to: &row)
        let lengthAt = row.count
        Self.appendWord(0, to: &row)
        let start = row.count
        Self.appendCSV(cell, to: &row)
        let length = UInt32(row.count - start)
        for byte in 0..<4 { row[lengthAt + byte] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(byte))) }
    }

    // MARK: Lines

    /// The order the columns are written in, once every row is made: their numbers, `dn` (0)
    /// first.
    private var order: [Int] {
        [0] + columns.indices.sorted { a, b in
            let x = columns[a], y = columns[b]
            if x.group != y.group { return x.group < y.group }
            if x.group == 0 { return x.builtIn < y.builtIn }
            return (x.key, x.field.name) < (y.key, y.field.name)
        }.map { $0 + 1 }
    }

    /// The first line: the columns' names, and CRLF.
    public func header() -> [UInt8] {
        var line: [UInt8] = []
        for (index, column) in order.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            Self.appendCSV(Array((column == 0 ? "dn" : columns[column - 1].field.name).utf8), to: &line)
        }
        line.append(contentsOf: [0x0D, 0x0A])
        return line
    }

    /// Where each column goes in a line, by column number.
    public func positions() -> [Int] {
        var positions = [Int](repeating: 0, count: columns.count + 1)
        for (position, column) in order.enumerated() { positions[column] = position }
        return positions
    }

    /// Appends the line of `row` (as ``appendRow(_:to:)`` made it): its cells in the
    /// columns' order (`positions`, from ``positions()``), empty where the person has no
    /// value, and CRLF.
    public static func appendLine(row: ArraySlice<UInt8>, positions: [Int], to line: inout [UInt8]) {
        var cells = [Range<Int>?](repeating: nil, count: positions.count)
        var index = row.startIndex
        while index + 8 <= row.endIndex {
            let column = Int(word(in: row, at: index)), length = Int(word(in: row, at: index + 4))
            let start = index + 8
            guard column < positions.count, start + length <= row.endIndex else { break }
            cells[positions[column]] = start..<start + length
            index = start + length
        }
        for (position, range) in cells.enumerated() {
            if position > 0 { line.append(UInt8(ascii: ",")) }
            if let range { line.append(contentsOf: row[range]) }
        }
        line.append(contentsOf: [0x0D, 0x0A])
    }

    // MARK: Encoding

    private static func appendWord(_ word: UInt32, to bytes: inout [UInt8]) {
        for byte in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(byte)))) }
    }

    private static func word(in bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[index + $1]) << (8 * UInt32($1)) }
    }

    /// Appends `text` (UTF-8) as a CSV cell: quoted when it holds a comma, quote or line
    /// break, with a leading `'` when a spreadsheet would run it as a formula.
    static func appendCSV(_ text: [UInt8], to output: inout [UInt8]) {
        let isFormula: Bool
        switch text.first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: isFormula = true
        default: isFormula = false
        }
        let quoted = isFormula || text.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard quoted else { return output.append(contentsOf: text) }
        output.append(UInt8(ascii: "\""))
        if isFormula { output.append(UInt8(ascii: "'")) }
        for byte in text {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }
}
