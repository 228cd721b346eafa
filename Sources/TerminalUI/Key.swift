/// One key press, decoded from the bytes a terminal sends in raw mode.
enum Key: Equatable, Sendable {
    /// A printable character (never a control character).
    case character(Character)
    /// Return or Enter (CR, or LF).
    case enter
    /// Tab.
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case backTab
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// The forward-delete key (`ESC [ 3 ~`).
    case delete
    /// Escape on its own.
    case escape
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Control with a letter, given in lower case: `.control("c")` is Ctrl-C.
    case control(Character)
    /// A sequence no prompt uses, such as F5 or Alt-x; prompts ignore it.
    case unrecognized
}
