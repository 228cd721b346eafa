extension LDAPConnection {
    /// Reads and parses the subschema that governs `dn` (the root DSE's by
    /// default): its attribute types, object classes, syntaxes and matching rules.
    ///
    /// This is ``subschema(for:)`` parsed with ``LDAPSchema/init(subschema:)``.
    ///
    /// - Throws: ``LDAPError`` from the search, or with code
    ///   ``LDAPResultCode/decodingError`` when a definition is malformed.
    public func schema(for dn: DistinguishedName = .root) async throws -> LDAPSchema {
        try LDAPSchema(subschema: try await subschema(for: dn))
    }
}
