import LDAPKit

extension AddressBook {
    /// The prefix that names a custom field explicitly: `custom:emial` is the custom field
    /// `emial`, even one letter from `email`.
    public static let customFieldPrefix = "custom:"

    /// Resolves a field name as a person typed it (``field(named:)``), catching a misspelling: a
    /// name that would make a new custom field, that `nearMiss` finds close to a known field's
    /// name (`emial`, `phnoe`), and that nobody in the directory uses yet, is refused with the
    /// name meant. ``customFieldPrefix`` names such a custom field on purpose.
    ///
    /// - Parameter nearMiss: the known name closest to a typed one, if one is close enough to be
    ///   what was meant (ldapbook's command line gives its "did you mean" rule).
    /// - Throws: ``AddressBookError`` (``AddressBookError/Code/invalidFieldName``) for a near miss,
    ///   and what ``field(named:)`` throws.
    public func field(typed name: String, nearMiss: (_ typed: String, _ known: [String]) -> String?) async throws -> Field {
        let registry = try await fieldRegistry()
        if name.lowercased().hasPrefix(Self.customFieldPrefix) {
            let key = String(name.dropFirst(Self.customFieldPrefix.count))
            let field = try registry.field(named: key)
            guard field.origin == .custom else {
                throw AddressBookError(.invalidFieldName, "\(key) is ldapbook's field \(field.name), not a custom field")
            }
            return field
        }
        let field = try registry.field(named: name)
        guard field.origin == .custom, let key = field.customKey,
              let meant = nearMiss(key, registry.knownFields.map(\.name) + BuiltInField.all.flatMap(\.aliases)), meant != key
        else { return field }
        // A custom field someone already uses is no misspelling.
        do {
            let users = try await connection.search(filter: field.presenceFilter, attributes: ["1.1"], sizeLimit: 1).collect()
            guard users.isEmpty else { return field }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded {
            return field
        }
        throw AddressBookError(.invalidFieldName, "\(name) is not a field of this directory: did you mean \(meant)? "
            + "(to start a new custom field of that name, write \(Self.customFieldPrefix)\(key))")
    }
}
