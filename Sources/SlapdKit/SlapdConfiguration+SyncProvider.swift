extension SlapdConfiguration {
    /// The `syncprov` overlay on the database, which answers content synchronization
    /// (RFC 4533): a client sends the cookie of its last refresh and receives what changed
    /// since, instead of searching everything again.
    ///
    /// The overlay keeps a session log of recent deletes and changes, so that a refresh from
    /// a cookie it covers names the entries deleted; a refresh from an older cookie makes
    /// the server list every entry still present instead. Its cookie's state is written to
    /// the database at checkpoints, so that a restarted server still knows it.
    public struct SyncProvider: Sendable, Hashable {
        /// How many write operations, other than adds, the session log remembers
        /// (`olcSpSessionLog`).
        public var sessionLog: Int = 10000

        /// After how many write operations the overlay writes a checkpoint (the first value
        /// of `olcSpCheckpoint`).
        public var checkpointOperations: Int = 100

        /// After how many minutes the overlay writes a checkpoint (the second value of
        /// `olcSpCheckpoint`).
        public var checkpointMinutes: Int = 10

        /// Creates the settings, by default a session log of 10,000 operations and a
        /// checkpoint every 100 operations or 10 minutes.
        public init(sessionLog: Int = 10000, checkpointOperations: Int = 100, checkpointMinutes: Int = 10) {
            self.sessionLog = sessionLog
            self.checkpointOperations = checkpointOperations
            self.checkpointMinutes = checkpointMinutes
        }

        /// The overlay's attribute lines: `olcSpCheckpoint` and `olcSpSessionLog`.
        var attributeLines: [String] {
            ["olcSpCheckpoint: \(checkpointOperations) \(checkpointMinutes)", "olcSpSessionLog: \(sessionLog)"]
        }

        /// Throws when slapd would refuse the settings.
        func validate() throws(SlapdError) {
            guard sessionLog >= 0, checkpointOperations >= 0, checkpointMinutes >= 0 else {
                throw SlapdError(.invalidConfiguration, "The sync provider's session log and checkpoint cannot be negative.")
            }
        }
    }
}

extension [SlapdConfiguration.Index] {
    /// The indexes with equality indexes of `attributes` too: an attribute no index covers
    /// gets one, in a new index of them all; an attribute indexed without equality moves to
    /// an index of its own with equality added (slapd refuses two indexes of one attribute).
    func addingEquality(of attributes: [String]) -> [SlapdConfiguration.Index] {
        var indexes = self
        var missing: [String] = []
        for attribute in attributes {
            let lowered = attribute.lowercased()
            guard let position = indexes.firstIndex(where: { $0.attributes.contains { $0.lowercased() == lowered } }) else {
                missing.append(attribute)
                continue
            }
            let index = indexes[position]
            guard !index.kinds.contains(.equality) else { continue }
            indexes[position].attributes.removeAll { $0.lowercased() == lowered }
            if indexes[position].attributes.isEmpty { indexes.remove(at: position) }
            indexes.append(SlapdConfiguration.Index([attribute], for: index.kinds + [.equality]))
        }
        if !missing.isEmpty { indexes.append(SlapdConfiguration.Index(missing, for: [.equality])) }
        return indexes
    }
}
