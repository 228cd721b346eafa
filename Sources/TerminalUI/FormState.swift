/// The form as a state machine: one line editor per field, the focused field, and which fields
/// show their validation messages.
///
/// A field's message appears once the person has left the field or tried to submit, and then
/// follows every edit, so it disappears as soon as the value is fixed.
struct FormState {
    /// How a form ends.
    enum Outcome: Equatable, Sendable {
        /// The values, one per field, all valid.
        case submitted([String])
        /// The person cancelled.
        case cancelled
    }

    /// What the form is for.
    let title: String
    /// The fields, in order.
    let fields: [FormField]
    /// The text of each field.
    private(set) var editors: [LineEditor]
    /// The index of the field being edited.
    private(set) var focus = 0
    /// The fields whose validation messages are shown.
    private(set) var revealed: Set<Int> = []
    /// A message about the whole form, such as why it was not submitted.
    private(set) var notice: String?
    private var columns = 80

    /// A form with the fields' starting values, the first field focused.
    init(title: String, fields: [FormField]) {
        self.title = title
        self.fields = fields
        editors = fields.map { LineEditor($0.value) }
    }

    /// The current values, one per field.
    var values: [String] { editors.map(\.text) }

    /// The message shown under field `index`, if any.
    func shownViolation(at index: Int) -> String? {
        revealed.contains(index) ? fields[index].violation(of: editors[index].text) : nil
    }

    /// Applies one key; returns the outcome when the key ends the form.
    mutating func handle(_ key: Key) -> Outcome? {
        guard !fields.isEmpty else { return .submitted([]) }
        switch key {
        case .escape, .control("c"):
            return .cancelled
        case .tab:
            moveFocus(to: (focus + 1) % fields.count)
        case .backTab:
            moveFocus(to: (focus + fields.count - 1) % fields.count)
        case .down, .control("n"):
            moveFocus(to: min(focus + 1, fields.count - 1))
        case .up, .control("p"):
            moveFocus(to: max(focus - 1, 0))
        case .enter:
            if focus == fields.count - 1 { return submit() }
            moveFocus(to: focus + 1)
        default:
            if editors[focus].handle(key) { notice = nil }
        }
        return nil
    }

    private mutating func moveFocus(to index: Int) {
        revealed.insert(focus)
        focus = index
    }

    /// The values when every field accepts its value; otherwise shows every invalid field's
    /// message and focuses the first.
    private mutating func submit() -> Outcome? {
        let invalid = fields.indices.filter { fields[$0].violation(of: editors[$0].text) != nil }
        guard let first = invalid.first else { return .submitted(values) }
        revealed.formUnion(invalid)
        focus = first
        notice = invalid.count == 1 ? "Correct the marked field to save." : "Correct the marked fields to save."
        return nil
    }
}

extension FormState: InteractivePrompt {
    var cancellation: Outcome { .cancelled }

    var keepsFinalFrame: Bool { false }

    mutating func fit(to size: TerminalSize) {
        columns = size.usableColumns
    }

    func frame() -> Frame {
        var lines = [StyledLine(title, .bold)]
        lines[0].append("  Tab/↑↓ move · Enter next, on the last field save · Esc cancel", .dim)
        let labelWidth = min(fields.map { DisplayWidth.of(TerminalText.sanitized($0.label)) }.max() ?? 0,
                             max(columns / 3, 8))
        var cursor = Frame.Position(line: 0, column: 0)
        for index in fields.indices {
            let isFocused = index == focus
            let label = TerminalText.truncated(fields[index].label, toWidth: labelWidth)
            let padding = String(repeating: " ", count: labelWidth - DisplayWidth.of(label))
            var line = StyledLine(isFocused ? "> " : "  ")
            line.append(label, isFocused ? .bold : [])
            line.append(":" + padding + " ")
            let prefixWidth = 2 + labelWidth + 2
            let (shown, cursorColumn) = window(of: editors[index], width: max(columns - prefixWidth, 1))
            line.append(shown)
            if isFocused {
                cursor = Frame.Position(line: lines.count, column: min(prefixWidth + cursorColumn, columns))
            }
            lines.append(line)
            if let violation = shownViolation(at: index) {
                lines.append(StyledLine(String(repeating: " ", count: prefixWidth) + "! " + violation, .error))
            } else if isFocused, let help = fields[index].help {
                lines.append(StyledLine(String(repeating: " ", count: prefixWidth) + help, .dim))
            }
        }
        if let notice {
            lines.append(StyledLine("  " + notice, .error))
        }
        return Frame(lines: lines, cursor: cursor)
    }

    /// The part of `editor`'s text that fits in `width` columns with the cursor in view, and the
    /// cursor's column in it.
    private func window(of editor: LineEditor, width: Int) -> (text: String, cursorColumn: Int) {
        let pieces = editor.characters.map { TerminalText.sanitized(String($0)) }
        let widths = pieces.map { DisplayWidth.of($0) }
        var start = 0
        var beforeCursor = widths[..<editor.cursor].reduce(0, +)
        while start < editor.cursor, beforeCursor >= width {
            beforeCursor -= widths[start]
            start += 1
        }
        var text = ""
        var used = 0
        for index in start..<pieces.count {
            guard used + widths[index] <= width else { break }
            text += pieces[index]
            used += widths[index]
        }
        return (text, beforeCursor)
    }
}
