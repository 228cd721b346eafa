/// One line of editable text and a cursor in it, with the editing keys of a shell's line editor.
struct LineEditor: Equatable, Sendable {
    /// The text, as grapheme clusters.
    private(set) var characters: [Character]
    /// The cursor: how many characters stand before it.
    private(set) var cursor: Int

    /// A line holding `text`, with the cursor at its end.
    init(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text.
    var text: String { String(characters) }

    /// Inserts `character` before the cursor. A combining mark joins the character before it.
    mutating func insert(_ character: Character) {
        let before = String(characters[..<cursor]) + String(character)
        let after = characters[cursor...]
        let joined = Array(before)
        cursor = joined.count
        characters = joined + after
    }

    /// Deletes the character before the cursor (Backspace).
    mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor (Delete).
    mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Moves the cursor one character left.
    mutating func moveLeft() {
        cursor = max(cursor - 1, 0)
    }

    /// Moves the cursor one character right.
    mutating func moveRight() {
        cursor = min(cursor + 1, characters.count)
    }

    /// Moves the cursor to the start (Home, Ctrl-A).
    mutating func moveToStart() {
        cursor = 0
    }

    /// Moves the cursor to the end (End, Ctrl-E).
    mutating func moveToEnd() {
        cursor = characters.count
    }

    /// Deletes everything before the cursor (Ctrl-U).
    mutating func deleteToStart() {
        characters.removeSubrange(..<cursor)
        cursor = 0
    }

    /// Deletes everything from the cursor on (Ctrl-K).
    mutating func deleteToEnd() {
        characters.removeSubrange(cursor...)
    }

    /// Deletes the word before the cursor and the spaces after it (Ctrl-W).
    mutating func deleteWordBackward() {
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Applies an editing key; returns whether the key was one.
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case let .character(character): insert(character)
        case .backspace: deleteBackward()
        case .delete, .control("d"): deleteForward()
        case .left, .control("b"): moveLeft()
        case .right, .control("f"): moveRight()
        case .home, .control("a"): moveToStart()
        case .end, .control("e"): moveToEnd()
        case .control("u"): deleteToStart()
        case .control("k"): deleteToEnd()
        case .control("w"): deleteWordBackward()
        default: return false
        }
        return true
    }
}
