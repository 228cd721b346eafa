/// One editable line of a form.
public struct FormField: Sendable {
    /// The name shown before the value, such as "Email".
    public var label: String
    /// The value the field starts with; the person edits it.
    public var value: String
    /// A hint shown while the field has the focus, such as "name@example.com".
    public var help: String?
    /// Checks a value: `nil` when it is acceptable, otherwise the message to show. A form cannot
    /// be submitted while one of its fields is invalid.
    public var validate: (@Sendable (String) -> String?)?

    /// A field with the given label, starting value, hint and check.
    public init(label: String, value: String = "", help: String? = nil,
                validate: (@Sendable (String) -> String?)? = nil) {
        self.label = label
        self.value = value
        self.help = help
        self.validate = validate
    }

    /// The message for `value` when this field does not accept it, otherwise `nil`.
    func violation(of value: String) -> String? {
        validate?(value)
    }
}
