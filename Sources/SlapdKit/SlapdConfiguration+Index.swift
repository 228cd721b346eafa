extension SlapdConfiguration {
    /// An attribute index of the database, written as one `olcDbIndex` value.
    public struct Index: Sendable, Hashable, CustomStringConvertible {
        /// The kind of matching an index speeds up.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// Presence filters, `(attribute=*)`.
            case presence = "pres"
            /// Equality filters, `(attribute=value)`.
            case equality = "eq"
            /// Approximate filters, `(attribute~=value)`.
            case approximate = "approx"
            /// Substring filters, `(attribute=val*)`.
            case substring = "sub"
        }

        /// The attributes the index covers.
        public var attributes: [String]

        /// The kinds of matching the index supports.
        public var kinds: [Kind]

        /// Creates an index of `attributes` for the given kinds of matching.
        public init(_ attributes: [String], for kinds: [Kind]) {
            self.attributes = attributes
            self.kinds = kinds
        }

        /// The index in `olcDbIndex` syntax, e.g. `givenName,sn,cn eq,sub`.
        public var description: String {
            let attributeList = attributes.joined(separator: ",")
            guard !kinds.isEmpty else { return attributeList }
            return attributeList + " " + kinds.map(\.rawValue).joined(separator: ",")
        }
    }
}
