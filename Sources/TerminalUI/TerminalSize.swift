/// The size of a terminal window in character cells.
struct TerminalSize: Equatable, Sendable {
    /// The number of columns, at least 1.
    var columns: Int
    /// The number of rows, at least 1.
    var rows: Int

    /// A size of `columns` × `rows`, each at least 1.
    init(columns: Int, rows: Int) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
    }

    /// The columns a line may use: one less than the width, so that the cursor never waits in
    /// the last column, where terminals disagree about wrapping.
    var usableColumns: Int { max(columns - 1, 1) }
}
