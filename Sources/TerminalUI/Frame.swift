/// What a prompt shows at one moment: its lines, and where the cursor stands.
struct Frame: Equatable, Sendable {
    /// A place in a frame: a line index and a column on that line.
    struct Position: Equatable, Sendable {
        /// The index of the line in `lines`.
        var line: Int
        /// The column, from 0.
        var column: Int
    }

    /// The lines, top to bottom.
    var lines: [StyledLine]
    /// Where the cursor is shown; `nil` hides it.
    var cursor: Position?
}
