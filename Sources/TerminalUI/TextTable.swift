/// A table of text in aligned columns, for a terminal or a pipe: every cell sanitised
/// (``TerminalText/sanitized(_:)``) and measured once as it is added, kept in one buffer,
/// and written out line by line with two spaces between columns, the last one not padded.
///
/// A table of thousands of people (`find --limit`) is one buffer of bytes and one array of
/// cell ends and widths, not a string per cell.
public struct TextTable: Sendable {
    /// The number of columns.
    public let columns: Int
    /// Every cell's sanitised bytes, one after another, row by row.
    private var text: [UInt8] = []
    /// Where each cell ends in ``text``, and its width in columns.
    private var cells: [(end: Int, width: Int)] = []
    /// The widest cell of each column.
    public private(set) var widths: [Int]

    /// An empty table of `columns` columns.
    public init(columns: Int) {
        self.columns = columns
        widths = Array(repeating: 0, count: columns)
    }

    /// The number of rows added, whole or begun.
    public var rows: Int { (cells.count + columns - 1) / columns }

    /// Adds the next cell, row by row.
    public mutating func append(_ cell: String) {
        var cell = cell
        cell.withUTF8 { append(utf8: $0) }
    }

    /// Adds the next cell from its UTF-8 bytes (invalid ones are shown as U+FFFD).
    public mutating func append(utf8 cell: UnsafeBufferPointer<UInt8>) {
        let width: Int
        if cell.allSatisfy({ (0x20...0x7E).contains($0) }) {
            text.append(contentsOf: cell)
            width = cell.count
        } else {
            let decoded = String(decoding: cell, as: UTF8.self)
            if let common = DisplayWidth.ofCommonScripts(decoded) {
                text.append(contentsOf: decoded.utf8)
                width = common
            } else {
                let clean = TerminalText.sanitized(decoded)
                text.append(contentsOf: clean.utf8)
                width = DisplayWidth.of(clean)
            }
        }
        let column = cells.count % columns
        widths[column] = max(widths[column], width)
        cells.append((text.count, width))
    }

    /// The width of the cell of `row` in `column`, in terminal columns.
    public func width(ofRow row: Int, column: Int) -> Int {
        cells[row * columns + column].width
    }

    /// Appends the line of row `row` to `output`, its columns as wide as `widths` says: rows
    /// written in an order of their own, such as people ranked after they were added.
    public func write(row: Int, widths: [Int], to output: inout [UInt8]) {
        write(rows: row..<row + 1, widths: widths, to: &output)
    }

    /// Appends the lines of the rows in `range` to `output`, each column as wide as `widths`
    /// says (by default its widest cell; tables made in parts are written to their widest).
    public func write(rows range: Range<Int>, widths: [Int]? = nil, to output: inout [UInt8]) {
        let widths = widths ?? self.widths
        let first = range.lowerBound * columns, last = min(range.upperBound * columns, cells.count)
        guard first < last else { return }
        var start = first > 0 ? cells[first - 1].end : 0
        for index in first..<last {
            let cell = cells[index]
            output.append(contentsOf: text[start..<cell.end])
            start = cell.end
            if index % columns < columns - 1 && index < cells.count - 1 {
                output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widths[index % columns] - cell.width + 2))
            } else {
                output.append(UInt8(ascii: "\n"))
            }
        }
    }
}
