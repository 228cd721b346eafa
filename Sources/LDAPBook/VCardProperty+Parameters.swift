extension VCardProperty {
    /// The values of every parameter named `name` (case-insensitive), in order.
    public func parameterValues(_ name: String) -> [String] {
        let wanted = name.uppercased()
        return parameters.filter { $0.name == wanted }.flatMap(\.values)
    }

    /// The first value of the parameter named `name`, if there is one.
    public func parameterValue(_ name: String) -> String? {
        parameterValues(name).first
    }

    /// The `TYPE` values in lowercase, whether written as `TYPE=work,voice`,
    /// `TYPE="work,voice"` or `TYPE=WORK;TYPE=VOICE`.
    public var types: [String] {
        parameterValues("TYPE").flatMap { $0.split(separator: ",") }.map { String($0).trimmingWhitespace().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Whether `type` (compared case-insensitively) is one of the ``types``.
    public func hasType(_ type: String) -> Bool {
        types.contains(type.lowercased())
    }

    /// How strongly the property is preferred among those of its name: the
    /// `PREF` parameter of vCard 4.0 (1 is the most preferred), or 1 for
    /// vCard 3.0's `TYPE=pref`; `nil` when it says nothing.
    public var preference: Int? {
        if let text = parameterValue("PREF"), let rank = Int(text.trimmingWhitespace()) { return rank }
        return hasType("pref") ? 1 : nil
    }

    /// The `VALUE` parameter in lowercase (`text`, `uri`, `date`), if given.
    public var valueType: String? {
        parameterValue("VALUE")?.lowercased()
    }
}
