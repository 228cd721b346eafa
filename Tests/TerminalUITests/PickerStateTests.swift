import Foundation
@testable import TerminalUI
import Testing

/// A stand-in for the caller's matcher: the typed text within an item's title or detail,
/// ignoring case and accents. (ldapbook passes its name matcher; the picker only applies it.)
func substringFilter(_ items: [PickerItem]) -> PickerFilter {
    let texts = items.map { [$0.title, $0.detail ?? ""].joined(separator: " ") }
    return { typed, index in texts[index].range(of: typed, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
}

@Suite("The picker moves, pages, filters and maps choices back to the items")
struct PickerStateTests {
    private let people = [
        PickerItem(title: "Ada Lovelace", detail: "ada@example.com"),
        PickerItem(title: "Charles Babbage", detail: "charles@example.com"),
        PickerItem(title: "Grace Hopper", detail: "grace@navy.example"),
        PickerItem(title: "Alan Turing", detail: "alan@example.ac.uk"),
        PickerItem(title: "Zoë Ångström", detail: nil),
    ]

    private func picker(_ items: [PickerItem]? = nil, extra: String? = nil, extraFirst: Bool = false, more: Bool = false,
                        rows: Int = 24) -> PickerState {
        let shown = items ?? people
        var state = PickerState(title: "Who?", items: shown, extraAction: extra, extraActionFirst: extraFirst,
                                moreAvailable: more, filter: substringFilter(shown))
        state.fit(rows: rows)
        return state
    }

    private func numbered(_ count: Int) -> [PickerItem] {
        (1...count).map { PickerItem(title: "Person \($0)", detail: "p\($0)@example.com") }
    }

    /// Applies `keys` and returns the choice the last one made, if any.
    private func press(_ keys: [Key], on state: inout PickerState) -> PickerChoice? {
        var choice: PickerChoice?
        for key in keys {
            choice = state.handle(key)
        }
        return choice
    }

    @Test("Enter chooses the first item at first")
    func enterChoosesFirst() {
        var state = picker()
        #expect(state.handle(.enter) == .item(0))
    }

    @Test("arrows, j/k and Ctrl-N/P move, and stop at the ends")
    func moving() {
        var state = picker()
        #expect(press([.down, .down, .enter], on: &state) == .item(2))
        state = picker()
        #expect(press([.character("j"), .character("j"), .character("k"), .enter], on: &state) == .item(1))
        state = picker()
        #expect(press([.control("n"), .control("n"), .control("p"), .enter], on: &state) == .item(1))
        state = picker()
        #expect(press([.up, .up, .enter], on: &state) == .item(0))
        state = picker()
        #expect(press(Array(repeating: .down, count: 9) + [.enter], on: &state) == .item(4))
    }

    @Test("Home and End jump to the first and last rows; the extra action is last")
    func homeAndEnd() {
        var state = picker()
        #expect(press([.end, .enter], on: &state) == .item(4))
        state = picker()
        #expect(press([.end, .home, .enter], on: &state) == .item(0))
        state = picker(extra: "add new entry")
        #expect(press([.end, .enter], on: &state) == .extra)
    }

    @Test("q, Esc and Ctrl-C cancel")
    func cancelling() {
        for key in [Key.character("q"), .escape, .control("c")] {
            var state = picker()
            #expect(state.handle(key) == .cancelled)
        }
    }

    @Test("the window shows rows − 4 items and follows the selection")
    func window() {
        var state = picker(numbered(30), rows: 10)
        #expect(state.pageSize == 6)
        #expect(state.visibleMatches == 0..<6)
        _ = press(Array(repeating: .down, count: 6), on: &state)
        #expect(state.selection == 6)
        #expect(state.visibleMatches == 1..<7)
        _ = press([.end], on: &state)
        #expect(state.visibleMatches == 24..<30)
        _ = press([.home], on: &state)
        #expect(state.visibleMatches == 0..<6)
    }

    @Test("the extra action and the more-results hint take lines from the window")
    func pinnedLines() {
        #expect(picker(numbered(30), extra: "add new entry", more: true, rows: 10).pageSize == 4)
        #expect(picker(numbered(30), rows: 3).pageSize == 1)
    }

    @Test("Page Down and Page Up move by a window")
    func paging() {
        var state = picker(numbered(30), rows: 10)
        #expect(press([.pageDown, .enter], on: &state) == .item(6))
        #expect(press([.pageDown, .pageDown, .pageUp, .enter], on: &state) == .item(12))
        #expect(press([.pageDown, .pageDown, .pageDown, .pageDown, .pageDown, .enter], on: &state) == .item(29))
        #expect(press([.pageUp, .pageUp, .pageUp, .pageUp, .pageUp, .pageUp, .enter], on: &state) == .item(0))
    }

    @Test("the frame fits the terminal's height and marks what is above and below")
    func frameMarkers() {
        var state = picker(numbered(30), extra: "add new entry", more: true, rows: 10)
        var lines = state.frame().lines.map(\.plainText)
        #expect(lines.count <= 9)
        #expect(lines.contains("  ↓ 26 more"))
        #expect(!lines.contains { $0.hasPrefix("  ↑") })
        #expect(lines.contains { $0.contains("… show more") })
        #expect(lines.last == "  ＋ add new entry")
        _ = press([.pageDown, .pageDown], on: &state)
        lines = state.frame().lines.map(\.plainText)
        #expect(lines.count <= 9)
        #expect(lines.contains("  ↑ 5 more"))
        #expect(lines.contains("  ↓ 21 more"))
        #expect(lines.contains { $0.hasPrefix("> ") && $0.contains("Person 9") })
    }

    @Test("items are numbered as the line prompter numbers them, also when filtered")
    func numbering() {
        var state = picker()
        _ = press([.character("G"), .character("r")], on: &state)
        let lines = state.frame().lines.map(\.plainText)
        #expect(lines.contains("> 3) Grace Hopper  grace@navy.example"))
    }

    @Test("typing filters by title and detail, ignoring case and accents, and Enter maps back")
    func filtering() {
        var state = picker()
        #expect(press([.character("H"), .character("o"), .character("P")], on: &state) == nil)
        #expect(state.filter == "HoP")
        #expect(state.matches == [2])
        #expect(state.handle(.enter) == .item(2))

        state = picker()
        #expect(press("example.com".map(Key.character) + [.down, .enter], on: &state) == .item(1))

        state = picker()
        _ = press("zoe angstrom".map(Key.character), on: &state)
        #expect(state.matches == [4])
    }

    @Test("while filtering, j, k and q are text; arrows still move")
    func lettersWhileFiltering() {
        var state = picker()
        #expect(press([.character("A"), .character("q")], on: &state) == nil)
        #expect(state.filter == "Aq")
        state = picker()
        _ = press([.character("a"), .character("l"), .character("j"), .character("k")], on: &state)
        #expect(state.filter == "aljk")
        state = picker()
        #expect(press([.character("A"), .down, .enter], on: &state) == .item(1))
    }

    @Test("Backspace and Ctrl-U edit the filter")
    func editingTheFilter() {
        var state = picker()
        _ = press([.character("G"), .character("r"), .character("x")], on: &state)
        #expect(state.matches.isEmpty)
        _ = press([.backspace], on: &state)
        #expect(state.matches == [2])
        _ = press([.control("u")], on: &state)
        #expect(state.filter.isEmpty)
        #expect(state.matches == [0, 1, 2, 3, 4])
        _ = press([.backspace], on: &state)
        #expect(state.filter.isEmpty)
    }

    @Test("the selected item stays selected when the filter still matches it")
    func selectionSurvivesFiltering() {
        var state = picker()
        _ = press([.down, .down, .down], on: &state)
        #expect(state.selectedRow == .item(3))
        _ = press([.character("A")], on: &state)
        #expect(state.selectedRow == .item(3))
        _ = press([.character("d")], on: &state)
        #expect(state.selectedRow == .item(0))
    }

    @Test("the extra action is never filtered out")
    func extraSurvivesFiltering() {
        var state = picker(extra: "add new entry")
        _ = press("Nobody".map(Key.character), on: &state)
        #expect(state.matches.isEmpty)
        #expect(state.rows == [.extra])
        #expect(state.frame().lines.map(\.plainText).contains("  no matches"))
        #expect(state.handle(.enter) == .extra)
    }

    @Test("digits choose the numbered row, Enter confirms; a number that is no row chooses nothing")
    func digitsChoose() {
        var state = picker(numbered(30))
        #expect(press([.character("5"), .enter], on: &state) == .item(4))
        state = picker(numbered(30))
        #expect(press([.character("2"), .character("6"), .enter], on: &state) == .item(25))
        #expect(state.filter.isEmpty, "digits never filter")
        state = picker(numbered(30))
        #expect(press([.character("4"), .character("0"), .enter], on: &state) == nil)
        #expect(press([.backspace, .enter], on: &state) == .item(3), "Backspace edits the number")
        state = picker(numbered(30), extra: "add new entry", extraFirst: true)
        #expect(press([.character("1"), .enter], on: &state) == .item(0), "numbers count the items, not the rows")
    }

    @Test("/ starts the filter, where j, k, q and digits are text; a letter that is no command starts it too")
    func slashStartsTheFilter() {
        var state = picker()
        _ = press([.character("/"), .character("j"), .character("q")], on: &state)
        #expect(state.filter == "jq" && state.isFiltering)
        state = picker(numbered(30))
        _ = press([.character("/"), .character("2"), .character("6")], on: &state)
        #expect(state.matches == [25], "digits filter once / was typed")
        state = picker()
        _ = press([.character("T"), .character("u")], on: &state)
        #expect(state.matches == [3])
        state = picker()
        #expect(press([.character("q")], on: &state) == .cancelled, "q is a command before the filter starts")
    }

    @Test("the extra action may come first, above the items; Enter still takes the first item at first")
    func extraActionFirst() {
        var state = picker(extra: "add new entry", extraFirst: true)
        #expect(state.rows.first == .extra)
        #expect(state.frame().lines.map(\.plainText)[1] == "  ＋ add new entry")
        #expect(state.selectedRow == .item(0))
        #expect(state.frame().lines.map(\.plainText).filter { $0.hasPrefix("> ") } == ["> 1) Ada Lovelace  ada@example.com"],
                "the selected item is the one marked")
        #expect(press([.up, .enter], on: &state) == .extra)
    }

    @Test("more is a row of its own, chosen like any other")
    func moreRow() {
        var state = picker(more: true)
        #expect(press([.end, .enter], on: &state) == .more)
    }

    @Test("Enter with nothing matching and no extra action does nothing")
    func nothingToChoose() {
        var state = picker()
        _ = press("Nobody".map(Key.character), on: &state)
        #expect(state.selectedRow == nil)
        #expect(state.handle(.enter) == nil)
        #expect(state.handle(.down) == nil)
    }

    @Test("titles and details are drawn sanitised")
    func hostileItems() {
        let state = picker([PickerItem(title: "\u{1B}]0;owned\u{7}", detail: "\u{1B}[2J\u{9B}H")])
        let rendered = state.frame().lines.map { $0.rendered(width: 79, usesColor: true) }.joined()
        #expect(rendered.contains("^[]0;owned^G"))
        #expect(rendered.contains("^[[2J\u{FFFD}H"))
        #expect(!rendered.contains("\u{1B}]"))
        #expect(!rendered.contains("\u{1B}[2J"))
        #expect(!rendered.unicodeScalars.contains("\u{9B}"))
    }
}
