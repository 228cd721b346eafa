extension VCardProperty {
    /// The value read as one text: escapes undone (`\n` is a line break,
    /// `\,` a comma).
    public var textValue: String {
        VCardText.unescape(value)
    }

    /// The value read as a comma-separated list of texts (`NICKNAME`,
    /// `CATEGORIES`): split on the commas that are not escaped.
    public var textValues: [String] {
        VCardText.split(value, on: ",").map(VCardText.unescape)
    }

    /// The value read as a structured value (`N`, `ADR`, `ORG`): the
    /// components between unescaped `;`, each split on unescaped `,`.
    ///
    /// `N:Stevenson;John;Philip,Paul;Dr.;Jr.` has five components, the
    /// third with two values.
    public var components: [[String]] {
        VCardText.split(value, on: ";").map { VCardText.split($0, on: ",").map(VCardText.unescape) }
    }

    /// Whether the value has no text but white space.
    var isBlank: Bool {
        value.allSatisfy(\.isWhitespace)
    }
}
