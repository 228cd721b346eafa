/// How a run of text is drawn.
struct TextStyle: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// Heavier text: headings, the focused label.
    static let bold = TextStyle(rawValue: 1 << 0)
    /// Quieter text: details, hints, markers.
    static let dim = TextStyle(rawValue: 1 << 1)
    /// Foreground and background swapped: the selected row.
    static let reverse = TextStyle(rawValue: 1 << 2)
    /// An error: red where colour is used, bold otherwise.
    static let error = TextStyle(rawValue: 1 << 3)

    /// The SGR parameters (ECMA-48 "Select Graphic Rendition") for this style, or `nil` for
    /// plain text. Colour is left out unless `usesColor`; attributes such as bold are kept, as
    /// NO_COLOR asks.
    func graphicRendition(usesColor: Bool) -> String? {
        var parameters: [String] = []
        if contains(.bold) || (contains(.error) && !usesColor) { parameters.append("1") }
        if contains(.dim) { parameters.append("2") }
        if contains(.reverse) { parameters.append("7") }
        if contains(.error) && usesColor { parameters.append("31") }
        return parameters.isEmpty ? nil : parameters.joined(separator: ";")
    }
}
