/// Whether the item at an index stays in a picker's list once the person has typed some
/// text: the caller's matcher decides (ldapbook's is its name matcher), so that a list filters
/// as the command that made it matches.
public typealias PickerFilter = @Sendable (_ typed: String, _ item: Int) -> Bool

/// Asks the person at the terminal: the questions ldapbook's flow needs to resolve a person and
/// a value.
///
/// Every implementation draws on the terminal or on standard error, never on standard output,
/// which carries ldapbook's result. Text from the directory may be passed as it is: control
/// characters are shown as visible escapes.
public protocol Prompter: Sendable {
    /// Lets the person choose one of `items`, or the extra action.
    ///
    /// - Parameters:
    ///   - title: What is being chosen, such as "Which Ada?".
    ///   - items: The choices, in the order shown and numbered (from 1).
    ///   - extraAction: The label of an action offered with the items, such as "add new entry";
    ///     `nil` for none.
    ///   - extraActionFirst: Whether the extra action comes before the items rather than after.
    ///   - moreAvailable: Whether more results exist than `items` holds; a row offers them
    ///     (``PickerChoice/more``).
    ///   - filter: Which items text typed into the list leaves; `nil` when the list cannot
    ///     be filtered.
    /// - Returns: The choice; `.cancelled` when the person declines or there is nothing to choose.
    /// - Throws: `CancellationError` when the task is cancelled, `PromptError.terminalFailure`
    ///   when the terminal fails.
    func pick(title: String, items: [PickerItem], extraAction: String?, extraActionFirst: Bool,
              moreAvailable: Bool, filter: PickerFilter?) async throws -> PickerChoice

    /// Asks a yes-or-no question.
    ///
    /// - Returns: `true` for yes, `false` for no.
    /// - Throws: `PromptError.cancelled` when the person cancels instead of answering (or the
    ///   input ends), `CancellationError` when the task is cancelled,
    ///   `PromptError.terminalFailure` when the terminal fails.
    func confirm(_ question: String, defaultAnswer: Bool) async throws -> Bool

    /// Lets the person edit the values of `fields`.
    ///
    /// - Returns: The values, one per field in order, all accepted by their fields' checks;
    ///   `nil` when the person cancels.
    /// - Throws: `CancellationError` when the task is cancelled, `PromptError.terminalFailure`
    ///   when the terminal fails.
    func form(title: String, fields: [FormField]) async throws -> [String]?

    /// Shows a one-line notice.
    func message(_ text: String) async
}

extension Prompter {
    /// ``pick(title:items:extraAction:extraActionFirst:moreAvailable:filter:)`` with the extra
    /// action last, of a list that cannot be filtered.
    public func pick(title: String, items: [PickerItem], extraAction: String?,
                     moreAvailable: Bool) async throws -> PickerChoice {
        try await pick(title: title, items: items, extraAction: extraAction, extraActionFirst: false,
                       moreAvailable: moreAvailable, filter: nil)
    }

    /// ``pick(title:items:extraAction:extraActionFirst:moreAvailable:filter:)`` with the extra
    /// action last.
    public func pick(title: String, items: [PickerItem], extraAction: String?,
                     moreAvailable: Bool, filter: PickerFilter?) async throws -> PickerChoice {
        try await pick(title: title, items: items, extraAction: extraAction, extraActionFirst: false,
                       moreAvailable: moreAvailable, filter: filter)
    }
}
