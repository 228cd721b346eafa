extension SlapdConfiguration {
    /// The most entries a search may return.
    public enum SizeLimit: Sendable, Hashable, CustomStringConvertible {
        /// Searches return every matching entry.
        case unlimited
        /// Searches stop after this many entries.
        case entries(Int)

        /// The limit in `olcSizeLimit` syntax: `unlimited` or a number.
        public var description: String {
            switch self {
            case .unlimited: "unlimited"
            case .entries(let count): String(count)
            }
        }
    }
}
