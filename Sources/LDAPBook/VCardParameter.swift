/// A parameter of a vCard property, such as `TYPE=work,voice` or `PREF=1`.
///
/// Names compare case-insensitively and are kept in uppercase; values keep
/// their case (compare `TYPE` values with ``VCardProperty/hasType(_:)``).
/// Values are plain text: the quoting and the RFC 6868 `^` escapes of the
/// file format are undone when reading and applied when writing.
public struct VCardParameter: Sendable, Hashable {
    /// The parameter's name, in uppercase: `TYPE`, `PREF`, `VALUE`.
    public var name: String {
        get { uppercasedName }
        set { uppercasedName = newValue.uppercased() }
    }
    /// The values, in order: `TYPE=work,voice` has two.
    public var values: [String]

    private var uppercasedName: String

    /// Creates a parameter with several values.
    public init(_ name: String, _ values: [String]) {
        self.uppercasedName = name.uppercased()
        self.values = values
    }

    /// Creates a parameter with one value.
    public init(_ name: String, _ value: String) {
        self.init(name, [value])
    }
}
