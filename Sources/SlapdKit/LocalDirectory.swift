import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A personal LDAP directory for the current user: a private slapd that keeps its data in
/// the user's data directory, is reachable through a Unix domain socket only, and keeps
/// running after the program that started it has exited.
///
/// ```swift
/// let directory = LocalDirectory()
/// try await directory.start()   // creates the directory on first use, returns once it answers
/// // connect to directory.ldapiURI with SASL EXTERNAL: the owner is LocalDirectory.rootDN
/// try await directory.stop()
/// ```
///
/// The directory:
/// - keeps its configuration, database, pid file and log in ``dataDirectory`` (mode 0700);
/// - listens on the ldapi socket ``socketPath`` and nowhere else, never on TCP;
/// - maps the SASL EXTERNAL identity of its owner (the uid and gid that created it) to
///   ``rootDN``, which has no password; anonymous clients and every other identity are
///   refused everything, the root DSE and the schema included;
/// - loads ldapbook's schema (``LDAPBookSchema``) and holds the suffix entry
///   (``suffix``) and the entry people are stored under (``peopleBase``);
/// - runs as its owner in a session of its own, with its output appended to ``logFile``,
///   so that neither the end of the starting program nor a hang-up of its terminal stops
///   it; ``stop()`` does.
///
/// ``start()`` and ``stop()`` hold an exclusive lock on a file in the data directory while
/// they work, so any number of processes may call them at once: one creates and starts
/// the server, the others find it running.
///
/// The running server is found through the pid file slapd writes, and recognised by its
/// command line in `/proc`, so a stale pid file naming an unrelated process is ignored.
public struct LocalDirectory: Sendable {
    /// The naming context of every local directory, `dc=ldapbook,dc=local`.
    ///
    /// `local` is reserved for link-local names (RFC 6762), so the suffix cannot clash with
    /// the domain of a real organisation whose entries might be copied in.
    public static let suffix = "dc=ldapbook,dc=local"

    /// The DN its owner acts as, `cn=admin,dc=ldapbook,dc=local`: ldapi connections of the
    /// owner's uid and gid authenticate as it with SASL EXTERNAL. It has no password and no
    /// entry of its own.
    public static let rootDN = "cn=admin," + suffix

    /// The relative name of the entry people are stored under.
    static let peopleName = "ou=people"

    /// The directory holding the configuration, the database, the pid file and the log.
    public let dataDirectory: URL

    /// The path of the ldapi socket: `ldapi` in ``dataDirectory``, unless that path is too
    /// long for a Unix domain socket (see ``init(dataDirectory:environment:)``).
    public let socketPath: String

    /// The user whose ldapi connections are mapped to ``rootDN``, and whom the server's
    /// files belong to.
    let userID: UInt32

    /// The group of ``userID`` that the SASL EXTERNAL mapping requires.
    let groupID: UInt32

    /// How the server is configured and run; derived from the paths above.
    var configuration: SlapdConfiguration

    /// Describes the local directory in `dataDirectory`, or in the default data directory
    /// when it is `nil`; nothing is created or started until ``start()``.
    ///
    /// The default data directory is `$XDG_DATA_HOME/ldapbook`, or
    /// `$HOME/.local/share/ldapbook` when `XDG_DATA_HOME` is unset, empty or relative (as
    /// the XDG Base Directory Specification requires); without an absolute `HOME`, the home
    /// directory comes from the user database.
    ///
    /// The socket is `ldapi` in the data directory when that path fits in the 108 bytes
    /// of `sun_path`. Otherwise it is `ldapi-<hash>` in `$XDG_RUNTIME_DIR/ldapbook`, or in
    /// `/tmp/ldapbook-<uid>` without a runtime directory, where `<hash>` is derived from the
    /// data directory's path so that directories never share a socket. ``start()`` creates
    /// that socket directory with mode 0700 and refuses one that another user owns.
    ///
    /// - Parameter environment: the variables the paths are derived from.
    public init(dataDirectory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let directory = (dataDirectory ?? Self.defaultDataDirectory(environment: environment)).absoluteURL.standardizedFileURL
        let userID = UInt32(getuid())
        self.init(
            dataDirectory: directory,
            socketFile: Self.socketFile(dataDirectory: directory, environment: environment, userID: userID),
            userID: userID,
            groupID: UInt32(getgid())
        )
    }

    /// Describes the local directory in `dataDirectory` with its socket at `socketFile`,
    /// owned by `userID` and `groupID`.
    init(dataDirectory: URL, socketFile: URL, userID: UInt32, groupID: UInt32) {
        self.dataDirectory = dataDirectory
        socketPath = socketFile.path
        self.userID = userID
        self.groupID = groupID
        configuration = Self.configuration(dataDirectory: dataDirectory, socketFile: socketFile)
    }

    /// The LDAP URL of the socket, e.g. `ldapi://%2Fhome%2Fada%2F.local%2Fshare%2Fldapbook%2Fldapi`.
    public var ldapiURI: String { layout.ldapiURI }

    /// The entry people are stored under, `ou=people,dc=ldapbook,dc=local`.
    public var peopleBase: String { Self.peopleName + "," + Self.suffix }

    /// The file slapd's output is appended to: `slapd.log` in ``dataDirectory``.
    ///
    /// slapd writes only errors there. A log past 1 MiB is renamed `slapd.log.old` (replacing
    /// the previous one) when the server is next started.
    public var logFile: URL { dataDirectory.appendingPathComponent("slapd.log") }

    /// Where the server keeps its files.
    var layout: InstanceLayout {
        InstanceLayout(directory: dataDirectory, socket: URL(fileURLWithPath: socketPath))
    }

    /// The file ``start()`` and ``stop()`` lock while they work.
    var lockFile: URL { dataDirectory.appendingPathComponent("lock") }

    /// The file written once the configuration and the first entries exist; until then the
    /// directory counts as not created.
    var creationMarker: URL { dataDirectory.appendingPathComponent("created") }

    /// The entries created with the directory, below the suffix entry.
    var firstEntries: String {
        [
            LDIFLine.attribute("dn", peopleBase),
            "objectClass: organizationalUnit",
            "ou: people",
        ].joined(separator: "\n") + "\n"
    }

    /// The server's settings: the local suffix and root DN without a password, the
    /// default schemas and indexes, the ldapi socket only, and access for the root DN alone
    /// in the database and the frontend.
    static func configuration(dataDirectory: URL, socketFile: URL) -> SlapdConfiguration {
        var configuration = SlapdConfiguration(suffix: suffix, rootPassword: "")
        configuration.rootDN = rootDN
        configuration.workingDirectory = dataDirectory
        configuration.socketFile = socketFile
        configuration.listensOnTCP = false
        let ownerOnly = "to * by dn.exact=\(ConfigurationLDIF.quoted(rootDN)) manage by * none"
        configuration.databaseAccess = [ownerOnly]
        configuration.frontendAccess = [ownerOnly]
        return configuration
    }
}
