/// Draws frames in place below the cursor, without the alternate screen: each frame replaces the
/// one before, and the last is erased or left for the scrollback.
///
/// It remembers how many lines it drew and which of them holds the cursor, returns to the first
/// with CR and cursor-up, and erases below before drawing again. Lines are cut to one column less
/// than the width and frames to one line less than the height, so the terminal never wraps or
/// scrolls a frame by itself.
struct InlineRenderer {
    private var drawnLines = 0
    private var cursorLine = 0
    private let usesColor: Bool

    /// A renderer that has drawn nothing yet; styles use colour only when `usesColor`.
    init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// The bytes that replace the previous frame with `frame` on a terminal of `size`.
    mutating func draw(_ frame: Frame, size: TerminalSize) -> String {
        let (lines, cursor) = Self.crop(frame, toHeight: max(size.rows - 1, 1))
        var output = ControlSequence.hideCursor + returnToTop() + ControlSequence.eraseBelow
        output += lines.map { $0.rendered(width: size.usableColumns, usesColor: usesColor) }.joined(separator: "\r\n")
        drawnLines = lines.count
        cursorLine = lines.count - 1
        if let cursor {
            output += ControlSequence.up(cursorLine - cursor.line) + "\r" + ControlSequence.right(cursor.column)
            output += ControlSequence.showCursor
            cursorLine = cursor.line
        }
        return output
    }

    /// The bytes that erase the frame on screen, leaving the cursor where it began.
    mutating func erase() -> String {
        let output = returnToTop() + ControlSequence.eraseBelow
        drawnLines = 0
        cursorLine = 0
        return output
    }

    /// The bytes that leave the frame on screen and move below it.
    mutating func leaveBehind() -> String {
        let output = ControlSequence.down(drawnLines - 1 - cursorLine) + "\r\n"
        drawnLines = 0
        cursorLine = 0
        return output
    }

    /// Forgets the frame on screen: after a suspension, other output follows it, so the next frame
    /// starts where the cursor is.
    mutating func forgetFrame() {
        drawnLines = 0
        cursorLine = 0
    }

    private func returnToTop() -> String {
        "\r" + ControlSequence.up(drawnLines > 0 ? cursorLine : 0)
    }

    /// The lines of `frame` that fit in `height`, keeping the cursor's line in view.
    static func crop(_ frame: Frame, toHeight height: Int) -> (lines: ArraySlice<StyledLine>, cursor: Frame.Position?) {
        guard frame.lines.count > height else { return (frame.lines[...], frame.cursor) }
        let start: Int
        if let cursor = frame.cursor {
            start = min(max(cursor.line - height / 2, 0), frame.lines.count - height)
        } else {
            start = 0
        }
        let cursor = frame.cursor.map { Frame.Position(line: $0.line - start, column: $0.column) }
        return (frame.lines[start..<(start + height)], cursor)
    }
}
