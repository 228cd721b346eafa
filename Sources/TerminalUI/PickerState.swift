import Foundation

/// The picker as a state machine: the filter, the rows it leaves, the selected row and the
/// window of rows on screen.
///
/// Rows are the items the filter matches, in their original order, then the extra action, which
/// no filter hides. The items scroll in a window of `pageSize` rows; the extra action stays
/// below the window.
struct PickerState {
    /// A row of the picker.
    enum Row: Equatable, Sendable {
        /// An item, by its index in `items`.
        case item(Int)
        /// The extra action.
        case extra
    }

    /// What is being chosen.
    let title: String
    /// All items, filtered or not.
    let items: [PickerItem]
    /// The label of the extra action, if there is one.
    let extraAction: String?
    /// Whether a hint says that more results exist than `items` holds.
    let moreAvailable: Bool

    /// The text typed to filter the items.
    private(set) var filter = ""
    /// The indices (into `items`) of the items the filter matches, in order.
    private(set) var matches: [Int]
    /// The index of the selected row in `rows`.
    private(set) var selection = 0
    /// The index into `matches` of the first item shown.
    private(set) var firstVisible = 0
    /// How many item rows the window shows.
    private(set) var pageSize: Int

    /// Which items text typed leaves; `nil` when the items cannot be filtered.
    private let itemFilter: PickerFilter?

    /// A picker showing all `items` with the first row selected, filtered by `filter` as the
    /// person types.
    init(title: String, items: [PickerItem], extraAction: String?, moreAvailable: Bool, filter: PickerFilter? = nil) {
        self.title = title
        self.items = items
        self.extraAction = extraAction
        self.moreAvailable = moreAvailable
        matches = Array(items.indices)
        itemFilter = filter
        pageSize = max(items.count, 1)
    }

    /// The rows in order: the matching items, then the extra action.
    var rows: [Row] {
        matches.map(Row.item) + (extraAction == nil ? [] : [.extra])
    }

    /// The selected row; `nil` when there is none (nothing matches and there is no extra action).
    var selectedRow: Row? {
        if selection < matches.count { return .item(matches[selection]) }
        return extraAction != nil && selection == matches.count ? .extra : nil
    }

    /// The indices into `matches` of the items on screen.
    var visibleMatches: Range<Int> {
        firstVisible..<min(firstVisible + pageSize, matches.count)
    }

    private var rowCount: Int { matches.count + (extraAction == nil ? 0 : 1) }

    /// Sizes the window so that the whole picker fits in `rows` − 1 lines: at most `rows` − 4
    /// items, fewer when the "more results" hint and the extra action need lines of their own.
    mutating func fit(rows: Int) {
        let pinnedLines = (extraAction == nil ? 0 : 1) + (moreAvailable ? 1 : 0)
        pageSize = max(rows - 4 - pinnedLines, 1)
        scrollToSelection()
    }

    /// Applies one key; returns the choice when the key ends the picker.
    mutating func handle(_ key: Key) -> PickerChoice? {
        switch key {
        case .up, .control("p"):
            move(by: -1)
        case .down, .control("n"):
            move(by: 1)
        case .character("k") where filter.isEmpty:
            move(by: -1)
        case .character("j") where filter.isEmpty:
            move(by: 1)
        case .character("q") where filter.isEmpty:
            return .cancelled
        case .pageUp:
            move(by: -pageSize)
        case .pageDown:
            move(by: pageSize)
        case .home:
            move(by: -rowCount)
        case .end:
            move(by: rowCount)
        case .enter:
            switch selectedRow {
            case let .item(index): return .item(index)
            case .extra: return .extra
            case nil: return nil
            }
        case .escape, .control("c"):
            return .cancelled
        case let .character(character):
            setFilter(filter + String(character))
        case .backspace:
            if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .control("u"):
            setFilter("")
        default:
            break
        }
        return nil
    }

    private mutating func move(by offset: Int) {
        guard rowCount > 0 else { return }
        selection = min(max(selection + offset, 0), rowCount - 1)
        scrollToSelection()
    }

    /// Changes the filter, keeping the selected item selected when it still matches.
    private mutating func setFilter(_ newFilter: String) {
        let previous = selectedRow
        filter = newFilter
        matches = items.indices.filter { index in
            newFilter.isEmpty || itemFilter?(newFilter, index) ?? true
        }
        if case let .item(index)? = previous, let position = matches.firstIndex(of: index) {
            selection = position
        } else {
            selection = 0
        }
        firstVisible = 0
        scrollToSelection()
    }

    /// Moves the window just enough to show the selected item.
    private mutating func scrollToSelection() {
        if selection < matches.count {
            if selection < firstVisible { firstVisible = selection }
            if selection >= firstVisible + pageSize { firstVisible = selection - pageSize + 1 }
        }
        firstVisible = max(min(firstVisible, matches.count - pageSize), 0)
    }
}

extension PickerState: InteractivePrompt {
    var cancellation: PickerChoice { .cancelled }

    var keepsFinalFrame: Bool { false }

    mutating func fit(to size: TerminalSize) {
        fit(rows: size.rows)
    }

    func frame() -> Frame {
        var lines: [StyledLine] = []
        var header = StyledLine(title, .bold)
        if filter.isEmpty {
            header.append("  type to filter · ↑↓ move · Enter choose · Esc cancel", .dim)
        } else {
            header.append("  filter: ")
            header.append(filter, .bold)
            header.append("  \(matches.count) of \(items.count)", .dim)
        }
        lines.append(header)
        if firstVisible > 0 {
            lines.append(StyledLine("  ↑ \(firstVisible) more", .dim))
        }
        let numberWidth = String(items.count).count
        for position in visibleMatches {
            lines.append(itemLine(matches[position], isSelected: position == selection, numberWidth: numberWidth))
        }
        if matches.isEmpty {
            lines.append(StyledLine("  no matches", .dim))
        }
        let below = matches.count - visibleMatches.upperBound
        if below > 0 {
            lines.append(StyledLine("  ↓ \(below) more", .dim))
        }
        if moreAvailable {
            lines.append(StyledLine("  more results… (narrow the search to see them)", .dim))
        }
        if let extraAction {
            let isSelected = selectedRow == .extra
            var line = StyledLine(isSelected ? "> " : "  ")
            line.append("＋ " + extraAction, isSelected ? [.reverse, .bold] : .bold)
            lines.append(line)
        }
        return Frame(lines: lines, cursor: nil)
    }

    /// `  3) Ada Lovelace  ada@example.com`, numbered as `LinePrompter` numbers it.
    private func itemLine(_ index: Int, isSelected: Bool, numberWidth: Int) -> StyledLine {
        let item = items[index]
        let number = String(index + 1)
        var line = StyledLine(isSelected ? "> " : "  ")
        line.append(String(repeating: " ", count: numberWidth - number.count) + number + ") ", .dim)
        line.append(item.title, isSelected ? .reverse : [])
        if let detail = item.detail, !detail.isEmpty {
            line.append("  ")
            line.append(detail, isSelected ? [.reverse, .dim] : .dim)
        }
        return line
    }
}
