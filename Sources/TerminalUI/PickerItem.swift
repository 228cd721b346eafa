/// One row of a picker: a title, and optionally a detail shown after it in a quieter style.
///
/// Both are shown as they are, after control characters have been made visible, so they may
/// come straight from the directory.
public struct PickerItem: Sendable, Equatable {
    /// The main text, such as a person's name.
    public var title: String
    /// Secondary text, such as the value to act on and where it comes from.
    public var detail: String?

    /// An item with the given title and detail.
    public init(title: String, detail: String? = nil) {
        self.title = title
        self.detail = detail
    }
}
