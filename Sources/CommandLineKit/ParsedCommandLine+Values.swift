extension ParsedCommandLine {
    /// The value of a single-value option or a non-repeating positional argument as a whole
    /// number in the given range, or `nil` when it was not given.
    ///
    /// - Throws: A ``UsageError`` quoting the value when it is not a decimal integer (an optional
    ///   sign and digits) or lies outside the range:
    ///   `invalid value 'ten' for '--limit' (argument 4): expected an integer from 1 to 1000`.
    public func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int? {
        let (argument, quotedName) = argument(named: name)
        guard let argument else { return nil }
        guard let number = Int(argument.text), range.contains(number) else {
            throw invalid(argument, quotedName, "expected " + Self.describe(range))
        }
        return number
    }

    /// The value of a single-value option or a non-repeating positional argument as a whole
    /// number of at least the range's lower bound, or `nil` when it was not given.
    ///
    /// - Throws: A ``UsageError`` quoting the value when it is not a decimal integer or is too small:
    ///   `invalid value '0' for '--pick' (argument 5): expected an integer of at least 1`.
    public func integer(_ name: String, in range: PartialRangeFrom<Int>) throws(UsageError) -> Int? {
        try integer(name, in: range.lowerBound...Int.max)
    }

    /// The value of a single-value option or a non-repeating positional argument, which must be
    /// one of the given choices (compared exactly), or `nil` when it was not given.
    ///
    /// - Throws: A ``UsageError`` quoting the value when it is none of the choices:
    ///   `invalid value 'PLAIN' for '--mech' (argument 3): expected EXTERNAL`.
    public func choice(_ name: String, from choices: [String]) throws(UsageError) -> String? {
        let (argument, quotedName) = argument(named: name)
        guard let argument else { return nil }
        guard choices.contains(argument.text) else {
            let expected = choices.count == 1 ? choices[0] : "one of " + choices.joined(separator: ", ")
            throw invalid(argument, quotedName, "expected " + expected)
        }
        return argument.text
    }

    /// A usage error saying why the value given to a single-value option or a non-repeating
    /// positional argument cannot be used; it quotes the value and says which argument it is.
    ///
    /// The option or argument must have been given.
    ///
    /// - Parameters:
    ///   - name: Any name of the option, or the positional argument's name.
    ///   - reason: What is wrong, such as `no such file`.
    public func invalidValue(of name: String, because reason: String) -> UsageError {
        let (argument, quotedName) = argument(named: name)
        guard let argument else {
            preconditionFailure("'\(name)' was not given, so its value cannot be invalid")
        }
        return invalid(argument, quotedName, reason)
    }

    /// The error for an unusable value.
    private func invalid(_ argument: Argument, _ quotedName: String, _ reason: String) -> UsageError {
        usageError("invalid value '\(argument.text)' for \(quotedName) (argument \(argument.position)): \(reason)")
    }

    /// How a range of integers reads in a message: `an integer from 1 to 9`.
    private static func describe(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound == Int.min, range.upperBound == Int.max) {
        case (true, true): "an integer"
        case (false, true): "an integer of at least \(range.lowerBound)"
        case (true, false): "an integer of at most \(range.upperBound)"
        case (false, false): "an integer from \(range.lowerBound) to \(range.upperBound)"
        }
    }
}
