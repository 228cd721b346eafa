import Foundation

/// The picker as a state machine: the filter, the rows it leaves, the selected row and the
/// window of rows on screen.
///
/// Rows are the items the filter matches, in their original order, with the extra action before
/// or after them and the "show more" row after them; no filter hides those two. The items scroll
/// in a window of `pageSize` rows; the other rows stay outside the window.
///
/// Keys: digits choose the numbered item (Enter confirms the number typed); `/`, or any
/// character that is not a command (j and k move, q cancels), starts the filter, which then
/// takes every character; Esc cancels.
struct PickerState {
    /// A row of the picker.
    enum Row: Equatable, Sendable {
        /// An item, by its index in `items`.
        case item(Int)
        /// The extra action.
        case extra
        /// More items.
        case more
    }

    /// What is being chosen.
    let title: String
    /// All items, filtered or not.
    let items: [PickerItem]
    /// The label of the extra action, if there is one.
    let extraAction: String?
    /// Whether the extra action comes before the items.
    let extraActionFirst: Bool
    /// Whether a row offers more items than `items` holds.
    let moreAvailable: Bool

    /// The text typed to filter the items.
    private(set) var filter = ""
    /// Whether typed characters go to the filter (after `/` or a character that is no command).
    private(set) var isFiltering = false
    /// The digits typed to choose an item by its number.
    private(set) var number = ""
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

    /// A picker showing all `items` with the first item selected, filtered by `filter` as the
    /// person types.
    init(title: String, items: [PickerItem], extraAction: String?, extraActionFirst: Bool = false,
         moreAvailable: Bool, filter: PickerFilter? = nil) {
        self.title = title
        self.items = items
        self.extraAction = extraAction
        self.extraActionFirst = extraActionFirst
        self.moreAvailable = moreAvailable
        matches = Array(items.indices)
        itemFilter = filter
        pageSize = max(items.count, 1)
        selection = leadingRows
    }

    /// How many rows come before the items: the extra action, when it is first.
    private var leadingRows: Int { extraActionFirst && extraAction != nil ? 1 : 0 }

    /// The rows in order: the extra action when it is first, the matching items, more, and the
    /// extra action when it is last.
    var rows: [Row] {
        var rows: [Row] = leadingRows == 1 ? [.extra] : []
        rows += matches.map(Row.item)
        if moreAvailable { rows.append(.more) }
        if extraAction != nil && !extraActionFirst { rows.append(.extra) }
        return rows
    }

    /// The selected row; `nil` when there is none.
    var selectedRow: Row? {
        let rows = rows
        return rows.indices.contains(selection) ? rows[selection] : nil
    }

    /// The indices into `matches` of the items on screen.
    var visibleMatches: Range<Int> {
        firstVisible..<min(firstVisible + pageSize, matches.count)
    }

    private var rowCount: Int { rows.count }

    /// Sizes the window so that the whole picker fits in `rows` − 1 lines: at most `rows` − 4
    /// items, fewer when the more row and the extra action need lines of their own.
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
        case .character("k") where !isFiltering:
            move(by: -1)
        case .character("j") where !isFiltering:
            move(by: 1)
        case .character("q") where !isFiltering:
            return .cancelled
        case .character("/") where !isFiltering:
            number = ""
            isFiltering = true
        case let .character(digit) where !isFiltering && digit.isASCII && digit.isNumber:
            number.append(digit)
            if let chosen = Int(number), items.indices.contains(chosen - 1), let row = rows.firstIndex(of: .item(chosen - 1)) {
                selection = row
                scrollToSelection()
            }
        case .pageUp:
            move(by: -pageSize)
        case .pageDown:
            move(by: pageSize)
        case .home:
            move(by: -rowCount)
        case .end:
            move(by: rowCount)
        case .enter:
            if !number.isEmpty {
                // The number typed chooses, or nothing does: Enter never takes another row.
                guard let chosen = Int(number), items.indices.contains(chosen - 1) else { return nil }
                return .item(chosen - 1)
            }
            switch selectedRow {
            case let .item(index): return .item(index)
            case .extra: return .extra
            case .more: return .more
            case nil: return nil
            }
        case .escape, .control("c"):
            return .cancelled
        case let .character(character):
            number = ""
            isFiltering = true
            setFilter(filter + String(character))
        case .backspace:
            if !number.isEmpty {
                number.removeLast()
            } else if !filter.isEmpty {
                setFilter(String(filter.dropLast()))
            } else {
                isFiltering = false
            }
        case .control("u"):
            number = ""
            setFilter("")
        default:
            break
        }
        return nil
    }

    private mutating func move(by offset: Int) {
        number = ""
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
        let rows = rows
        if case let .item(index)? = previous, let position = rows.firstIndex(of: .item(index)) {
            selection = position
        } else {
            selection = matches.isEmpty ? 0 : leadingRows
        }
        firstVisible = 0
        scrollToSelection()
    }

    /// Moves the window just enough to show the selected item.
    private mutating func scrollToSelection() {
        let position = selection - leadingRows
        if position >= 0 && position < matches.count {
            if position < firstVisible { firstVisible = position }
            if position >= firstVisible + pageSize { firstVisible = position - pageSize + 1 }
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
        if !number.isEmpty {
            header.append("  number: ")
            header.append(number, .bold)
            header.append(Int(number).map { items.indices.contains($0 - 1) } == true ? "  Enter chooses it" : "  no such entry", .dim)
        } else if filter.isEmpty {
            header.append(isFiltering ? "  filter: type a name · Esc cancel"
                                      : "  number or ↑↓ then Enter · / or a letter filters · Esc cancel", .dim)
        } else {
            header.append("  filter: ")
            header.append(filter, .bold)
            header.append("  \(matches.count) of \(items.count)", .dim)
        }
        lines.append(header)
        if extraActionFirst { appendExtraAction(to: &lines) }
        if firstVisible > 0 {
            lines.append(StyledLine("  ↑ \(firstVisible) more", .dim))
        }
        let numberWidth = String(items.count).count
        for position in visibleMatches {
            lines.append(itemLine(matches[position], isSelected: selectedRow == .item(matches[position]), numberWidth: numberWidth))
        }
        if matches.isEmpty {
            lines.append(StyledLine("  no matches", .dim))
        }
        let below = matches.count - visibleMatches.upperBound
        if below > 0 {
            lines.append(StyledLine("  ↓ \(below) more", .dim))
        }
        if moreAvailable {
            let isSelected = selectedRow == .more
            var line = StyledLine(isSelected ? "> " : "  ")
            line.append("… show more", isSelected ? .reverse : .dim)
            lines.append(line)
        }
        if !extraActionFirst { appendExtraAction(to: &lines) }
        return Frame(lines: lines, cursor: nil)
    }

    /// The extra action's line, if there is one.
    private func appendExtraAction(to lines: inout [StyledLine]) {
        guard let extraAction else { return }
        let isSelected = selectedRow == .extra
        var line = StyledLine(isSelected ? "> " : "  ")
        line.append("＋ " + extraAction, isSelected ? [.reverse, .bold] : .bold)
        lines.append(line)
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
