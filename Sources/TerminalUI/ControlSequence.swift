/// The few ECMA-48 and DEC sequences TerminalUI writes.
enum ControlSequence {
    /// Hides the cursor (DECTCEM reset).
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor (DECTCEM set).
    static let showCursor = "\u{1B}[?25h"
    /// Erases from the cursor to the end of the screen (ED 0).
    static let eraseBelow = "\u{1B}[J"

    /// Moves the cursor up `count` lines (CUU); nothing for 0.
    static func up(_ count: Int) -> String {
        count > 0 ? "\u{1B}[\(count)A" : ""
    }

    /// Moves the cursor down `count` lines (CUD); nothing for 0.
    static func down(_ count: Int) -> String {
        count > 0 ? "\u{1B}[\(count)B" : ""
    }

    /// Moves the cursor right `count` columns (CUF); nothing for 0.
    static func right(_ count: Int) -> String {
        count > 0 ? "\u{1B}[\(count)C" : ""
    }
}
