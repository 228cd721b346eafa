/// What the person chose in a picker.
public enum PickerChoice: Sendable, Equatable {
    /// One of the items, by its index in the `items` passed to the picker (whatever the filter
    /// showed at the time).
    case item(Int)
    /// The picker's extra action, such as "add new entry".
    case extra
    /// More items were asked for (offered only when more are available).
    case more
    /// The person left the picker without choosing.
    case cancelled
}
