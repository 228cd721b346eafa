import LDAPKit

extension AddressBook {
    /// The prefix that names a custom field explicitly: `custom:emial` is the custom field
    /// `emial`, even one letter from `email`.
    public static let customFieldPrefix = "custom:"

    /// Resolves a field name as a person typed it (``field(named:)``), catching a misspelling: a
    /// name that would make a new custom field, is one or two letters from a known field's name
    /// (`emial`, `phnoe`), and that nobody in the directory uses yet, is refused with the name
    /// meant. ``customFieldPrefix`` names such a custom field on purpose.
    ///
    /// - Throws: ``AddressBookError`` (``AddressBookError/Code/invalidFieldName``) for a near miss,
    ///   and what ``field(named:)`` throws.
    public func field(typed name: String) async throws -> Field {
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
              let meant = FieldSpelling.nearest(to: key, among: registry.knownFields.map(\.name) + BuiltInField.all.flatMap(\.aliases))
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

/// Near misses among field names.
enum FieldSpelling {
    /// The name of `names` closest to `typed`, when it is one or two edits away (a letter
    /// added, removed, changed, or two swapped) and `typed` is long enough for that to mean a
    /// slip, not another word: at least four letters.
    static func nearest(to typed: String, among names: [String]) -> String? {
        let typed = typed.lowercased()
        guard typed.count >= 4 else { return nil }
        var best: (name: String, distance: Int)?
        for name in names where name != typed {
            let distance = editDistance(typed, name.lowercased())
            if distance <= 2 && distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of neighbours, each one edit.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
