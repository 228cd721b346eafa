/// A value of a property that people tell apart by its `TYPE`: an email
/// address or a telephone number.
public struct VCardTypedValue: Sendable, Hashable {
    /// The value as text.
    public var value: String
    /// The `TYPE` values in lowercase: `work`, `cell`, `internet`...
    public var types: [String]
    /// The preference (1 is the most preferred), when the card gives one.
    public var preference: Int?

    /// Creates a typed value.
    public init(value: String, types: [String] = [], preference: Int? = nil) {
        self.value = value
        self.types = types
        self.preference = preference
    }

    /// Reads a property's text value, types and preference.
    public init(property: VCardProperty) {
        self.init(value: property.textValue, types: property.types, preference: property.preference)
    }
}
