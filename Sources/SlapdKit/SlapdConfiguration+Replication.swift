import Foundation

extension SlapdConfiguration {
    /// Multi-provider replication of the database with other slapd servers.
    ///
    /// Every server of a replicated directory gets the same settings but its own
    /// ``serverID`` and the URIs of the others as ``peers``. The configuration then loads
    /// the `syncprov` overlay, so that peers can pull changes from this server, adds one
    /// `olcSyncrepl` consumer per peer (`refreshAndPersist`, retrying forever), and turns on
    /// `olcMultiProvider`, so that every server accepts writes. Changes are told apart by
    /// their `entryCSN`, which carries the server ID; the default indexes cover `entryCSN`
    /// and `entryUUID`, as syncrepl needs.
    public struct Replication: Sendable, Hashable {
        /// This server's `olcServerID`, from 1 to 4095; unique among the servers that
        /// replicate together.
        public var serverID: Int

        /// The LDAP URIs of the other servers, e.g. `ldap://provider2:389`, in the order
        /// their consumers are numbered (`rid=001`, `rid=002`, …).
        public var peers: [String]

        /// The DN this server binds as to read its peers; `nil` uses the root DN.
        ///
        /// Another DN must be able to read every entry and attribute of the suffix on every
        /// peer, with no size or time limit.
        public var bindDN: String?

        /// The password of ``bindDN``; `nil` uses ``SlapdConfiguration/rootPassword``.
        ///
        /// slapd needs it in clear to bind, so it is written into the cn=config of this server
        /// (which only the root DN and the server's owner over ldapi can read). It may hold
        /// printable ASCII characters other than `"` and `\`.
        public var credentials: String?

        /// The consumers' retry schedule (the `retry` of `olcSyncrepl`): pairs of an interval
        /// in seconds and a number of attempts, `+` for ever. By default, every second for
        /// a minute, then every ten seconds for ever.
        public var retry: String = "1 60 10 +"

        /// How long a consumer waits for a peer to accept its connection, in seconds.
        public var networkTimeout: Int = 5

        /// Creates the replication settings of server `serverID`, which replicates with `peers`.
        public init(serverID: Int, peers: [String]) {
            self.serverID = serverID
            self.peers = peers
        }

        /// Throws when the settings cannot be written into a configuration slapd accepts.
        func validate() throws(SlapdError) {
            guard (1...4095).contains(serverID) else {
                throw SlapdError(.invalidConfiguration, "The replication server ID \(serverID) is out of range: slapd accepts 1 to 4095.")
            }
            guard !peers.isEmpty, peers.count <= 999 else {
                throw SlapdError(.invalidConfiguration, "A replicated server needs between 1 and 999 peers, not \(peers.count).")
            }
            for peer in peers {
                let lowered = peer.lowercased()
                let hasScheme = ["ldap://", "ldaps://", "ldapi://"].contains { lowered.hasPrefix($0) }
                guard hasScheme, Self.isQuotable(peer), !peer.contains(" ") else {
                    throw SlapdError(.invalidConfiguration, "The replication peer \"\(peer)\" is not an ldap://, ldaps:// or ldapi:// URI.")
                }
            }
            if let bindDN, !Self.isQuotable(bindDN) {
                throw SlapdError(.invalidConfiguration, "The replication bind DN may not contain double quotes, backslashes or control characters.")
            }
            if let credentials, !Self.isQuotable(credentials) {
                throw SlapdError(.invalidConfiguration, "The replication password may hold only printable ASCII characters other than \" and \\.")
            }
        }

        /// Tells whether `text` can stand between double quotes in a slapd configuration
        /// value: printable ASCII without `"` or `\`.
        static func isQuotable(_ text: String) -> Bool {
            text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
    }
}

extension Slapd {
    /// `count` servers that replicate with each other (multi-provider), each with
    /// `configuration` and its own port, server ID (1, 2, …) and the others as peers. Only
    /// the first creates the suffix entry; the others receive it. None is started.
    ///
    /// Tests and benchmarks use this for the topology docker-compose.yml describes.
    public static func replicatedGroup(of count: Int, configuration: SlapdConfiguration = SlapdConfiguration()) throws -> [Slapd] {
        precondition(count >= 2, "a replicated group has at least two servers")
        let ports = try (0..<count).map { _ in try LoopbackPort.free() }
        return try ports.indices.map { index in
            var node = configuration
            node.port = ports[index]
            node.listensOnTCP = true
            node.createsSuffixEntry = configuration.createsSuffixEntry && index == 0
            var replication = configuration.replication ?? SlapdConfiguration.Replication(serverID: index + 1, peers: [])
            replication.serverID = index + 1
            replication.peers = ports.indices.filter { $0 != index }.map { "ldap://127.0.0.1:\(ports[$0])" }
            node.replication = replication
            return try Slapd(configuration: node)
        }
    }
}
