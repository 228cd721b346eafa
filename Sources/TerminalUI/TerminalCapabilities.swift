import Foundation

/// What a terminal can do, decided in one place from the descriptor and the environment.
public struct TerminalCapabilities: Sendable, Equatable {
    /// Whether the descriptor is a terminal at all (`isatty(3)`).
    public var isTTY: Bool
    /// The width in columns.
    public var columns: Int
    /// The height in rows.
    public var rows: Int
    /// Whether the terminal understands cursor movement and erasing (ANSI/VT100 sequences): a
    /// terminal whose `TERM` is `dumb` does not.
    public var supportsCursorControl: Bool
    /// Whether output may use colour: a terminal with a `TERM` other than `dumb`, and no
    /// non-empty `NO_COLOR` in the environment (https://no-color.org).
    public var usesColor: Bool

    /// Capabilities as given.
    public init(isTTY: Bool, columns: Int, rows: Int, supportsCursorControl: Bool, usesColor: Bool) {
        self.isTTY = isTTY
        self.columns = columns
        self.rows = rows
        self.supportsCursorControl = supportsCursorControl
        self.usesColor = usesColor
    }

    /// The capabilities of the terminal (or file, or pipe) open at `descriptor`.
    ///
    /// The size comes from the terminal (`TIOCGWINSZ`), else from `COLUMNS` and `LINES`, else is
    /// 80 × 24.
    public static func detect(
        fileDescriptor descriptor: Int32,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TerminalCapabilities {
        let isTTY = isatty(descriptor) == 1
        let term = environment["TERM"]
        let isDumb = term == "dumb"
        let wantsNoColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let size = (isTTY ? windowSize(of: descriptor) : nil) ?? TerminalSize(
            columns: environment["COLUMNS"].flatMap { Int($0) } ?? fallbackColumns,
            rows: environment["LINES"].flatMap { Int($0) } ?? fallbackRows)
        return TerminalCapabilities(isTTY: isTTY, columns: size.columns, rows: size.rows,
                                    supportsCursorControl: isTTY && !isDumb,
                                    usesColor: isTTY && term != nil && !isDumb && !wantsNoColor)
    }

    /// The width assumed when nothing tells it.
    static let fallbackColumns = 80
    /// The height assumed when nothing tells it.
    static let fallbackRows = 24

    /// The window size of the terminal at `descriptor` (`ioctl(TIOCGWINSZ)`); `nil` when it is not
    /// a terminal or reports no size.
    static func windowSize(of descriptor: Int32) -> TerminalSize? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
