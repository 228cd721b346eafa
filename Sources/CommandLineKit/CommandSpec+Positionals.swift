extension CommandSpec {
    /// Why positional arguments do not fit a command's declaration.
    enum PositionalMismatch: Error, Hashable {
        /// A required argument has no value; it is the first one left without.
        case missing(PositionalSpec)
        /// There are more values than the command takes; this is the first one too many.
        case unexpected(Argument)
    }

    /// Distributes positional values over the declared arguments, in order: each takes what the
    /// ones after it do not need. A repeating argument takes every spare value; an optional one
    /// takes a value only when one is spare.
    ///
    /// - Returns: The values of each declared argument, by name (empty for one left out).
    func distribute(_ values: [Argument]) throws(PositionalMismatch) -> [String: [Argument]] {
        let required = positionals.filter { !$0.isOptional }
        if values.count < required.count {
            throw .missing(required[values.count])
        }
        var bound: [String: [Argument]] = [:]
        var remaining = values[...]
        for (index, positional) in positionals.enumerated() {
            let neededLater = positionals[(index + 1)...].count(where: { !$0.isOptional })
            let spare = remaining.count - neededLater
            let count = positional.isRepeating ? spare : min(1, spare)
            bound[positional.name] = Array(remaining.prefix(count))
            remaining = remaining.dropFirst(count)
        }
        if let extra = remaining.first {
            throw .unexpected(extra)
        }
        return bound
    }
}
