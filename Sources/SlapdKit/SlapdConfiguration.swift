import Foundation

/// Everything needed to generate a cn=config for a private slapd and to run it.
///
/// The defaults describe a throwaway directory for tests: suffix `dc=example,dc=com`,
/// root DN `cn=admin,dc=example,dc=com` with password `secret`, a fresh temporary
/// working directory, a free loopback port, the core, cosine, inetorgperson and nis
/// schemas followed by the ldapbook schema (``LDAPBookSchema``) and its index, and no
/// size limit.
public struct SlapdConfiguration: Sendable {
    /// The naming context served by the database, e.g. `dc=example,dc=com`.
    public var suffix: String = "dc=example,dc=com"

    /// The DN that bypasses access control; `cn=admin,<suffix>` unless set.
    ///
    /// The SASL EXTERNAL identity of the current process over ldapi is mapped to this DN.
    public var rootDN: String {
        get { explicitRootDN ?? "cn=admin," + suffix }
        set { explicitRootDN = newValue }
    }

    /// The root DN's password for simple binds; written to cn=config as an `{SSHA}` hash.
    ///
    /// An empty password writes no `olcRootPW` at all: the root DN can then authenticate
    /// only as the current user over ldapi, with SASL EXTERNAL.
    public var rootPassword: String = "secret"

    /// An `olcRootPW` value written as it is instead of a hash of ``rootPassword``, e.g. one
    /// made by `slappasswd`; `nil` (the default) hashes ``rootPassword``.
    ///
    /// Clients of ``Slapd`` still bind with ``rootPassword``, so the two must agree when both
    /// are used.
    public var rootPasswordHash: String?

    /// Where the configuration, database, pid file and ldapi socket live.
    ///
    /// `nil` creates a fresh directory with a short name under `/tmp` (the ldapi socket path
    /// must fit in the 108 bytes of `sun_path`) and removes it on cleanup. A directory given
    /// here is created if needed and kept; if it already holds a configuration from an
    /// earlier run, that configuration and its data are reused as they are.
    public var workingDirectory: URL?

    /// The ldapi socket; `nil` puts it in the working directory, named `ldapi`.
    ///
    /// Its path must fit in the 108 bytes of `sun_path`, and its directory must exist.
    public var socketFile: URL?

    /// Whether slapd listens on TCP at 127.0.0.1 as well as on its ldapi socket; `true` by
    /// default.
    ///
    /// When `false`, slapd accepts connections on the ldapi socket only, so that only local
    /// processes allowed into the socket's directory reach it; no port is picked then.
    public var listensOnTCP: Bool = true

    /// The TCP port slapd listens on at 127.0.0.1; `nil` picks a free one. Ignored when
    /// ``listensOnTCP`` is `false`.
    public var port: Int?

    /// The schema LDIF files loaded first, in order: core, cosine, inetorgperson and nis
    /// from `/etc/ldap/schema`.
    public var schemaFiles: [URL] = ["core", "cosine", "inetorgperson", "nis"].map {
        URL(fileURLWithPath: "/etc/ldap/schema/\($0).ldif")
    }

    /// Whether the ldapbook schema (``LDAPBookSchema/ldif``) is loaded after ``schemaFiles``
    /// and before ``extraSchemaFiles``; `true` by default.
    ///
    /// The indexes follow the schema, because slapd refuses to index an attribute it does
    /// not know: turning the schema off removes its attributes from ``indexes``, and turning
    /// it back on adds ``ldapbookIndexes`` again.
    public var includesLDAPBookSchema: Bool = true {
        didSet {
            guard includesLDAPBookSchema != oldValue else { return }
            if includesLDAPBookSchema {
                indexes += Self.ldapbookIndexes.filter { !indexes.contains($0) }
            } else {
                indexes = indexes.compactMap(\.withoutLDAPBookAttributes)
            }
        }
    }

    /// Further schema LDIF files (each holding one `cn=…,cn=schema,cn=config` entry),
    /// loaded after ``schemaFiles`` and the ldapbook schema.
    public var extraSchemaFiles: [URL] = []

    /// The attribute indexes of the database: by default equality on `objectClass`,
    /// equality and substrings on the name attributes, equality on `mail` and
    /// `telephoneNumber`, equality and substrings on `uid` (new entries look for a free
    /// `uid` by prefix), equality on `entryUUID` and `entryCSN`, and ``ldapbookIndexes``.
    public var indexes: [Index] = [
        Index(["objectClass"], for: [.equality]),
        Index(["givenName", "sn", "cn"], for: [.equality, .substring]),
        Index(["mail", "telephoneNumber"], for: [.equality]),
        Index(["uid"], for: [.equality, .substring]),
        Index(["entryUUID", "entryCSN"], for: [.equality]),
    ] + ldapbookIndexes

    /// The indexes recommended with the ldapbook schema: `ldapbookCustomField eq,sub`, so
    /// that both the substring filter `(ldapbookCustomField=name=*)`, which finds the entries
    /// where a custom field is set, and lookups of a field's exact value use an index.
    public static let ldapbookIndexes: [Index] = [
        Index(["ldapbookCustomField"], for: [.equality, .substring]),
    ]

    /// The most entries a search returns (`olcSizeLimit`); unlimited by default so that
    /// tests and benchmarks see every entry, where a stock slapd stops at 500.
    public var sizeLimit: SizeLimit = .unlimited

    /// The largest size the database may grow to, in bytes (`olcDbMaxSize`); 4 GiB by default.
    ///
    /// This only reserves address space; the file holds what is stored. A million
    /// address-book entries with the default indexes take about 1.4 GB.
    public var databaseMaxSize: Int = 4 << 30

    /// The access rules of the database (`olcAccess` values, without `{N}` ordering prefixes).
    ///
    /// By default anyone may read, authenticated users may write, and passwords are
    /// writable by their owner and usable for authentication only. The root DN always
    /// has full access.
    public var databaseAccess: [String] = [
        "to attrs=userPassword by self write by anonymous auth by * none",
        "to * by users write by * read",
    ]

    /// The access rules of the frontend (`olcAccess` values of `olcDatabase={-1}frontend`,
    /// without `{N}` ordering prefixes); none by default, which lets anyone read the root DSE
    /// and the subschema.
    ///
    /// They govern the entries outside every database (the root DSE, `cn=Subschema`), and
    /// are consulted for a database entry that none of the database's own rules covers.
    public var frontendAccess: [String] = []

    /// Per-identity limits of the database (`olcLimits` values); none by default.
    public var databaseLimits: [String] = []

    /// The directory slapd loads modules from (`olcModulePath`).
    public var modulePath: URL = URL(fileURLWithPath: "/usr/lib/ldap")

    /// Modules loaded after `back_mdb`, which is always loaded, e.g. `syncprov`.
    public var extraModules: [String] = []

    /// Server certificate settings; `nil` runs without TLS. With them, slapd offers StartTLS
    /// on its TCP port and also listens for ldaps on a port of its own (``Slapd/ldapsPort``).
    public var tls: TLS?

    /// Multi-provider replication with other servers; `nil` (the default) runs a server
    /// of its own. Setting it loads the `syncprov` module.
    public var replication: Replication?

    /// The `syncprov` overlay on the database, so that clients can ask what changed since
    /// their last search (RFC 4533 content synchronization); `nil` (the default) leaves it
    /// off, unless ``replication`` needs it. Setting it loads the `syncprov` module and
    /// indexes `entryUUID` and `entryCSN` for equality if ``indexes`` does not. With
    /// ``replication``, its settings go to the overlay replication adds.
    public var syncProvider: SyncProvider?

    /// Attribute lines appended verbatim to the `cn=config` entry, e.g. `olcServerID: 1`.
    public var extraGlobalAttributes: [String] = []

    /// Attribute lines appended verbatim to the database entry, e.g. `olcDbNoSync: TRUE`,
    /// `olcSyncrepl: …` or `olcMultiProvider: TRUE`.
    public var extraDatabaseAttributes: [String] = []

    /// LDIF entries appended verbatim after the generated configuration, e.g. overlays
    /// below `olcDatabase={1}mdb,cn=config`. They are added with slapadd, so they must be
    /// plain entries, not change records.
    public var extraConfigurationLDIF: String = ""

    /// Whether the suffix entry is created with the database: `dcObject` and
    /// `organization` for a `dc=` suffix, `organization` for `o=`, `organizationalUnit`
    /// for `ou=`, `country` for `c=`, `locality` for `l=` and `organizationalRole` for `cn=`.
    public var createsSuffixEntry: Bool = true

    /// The slapd server program.
    public var slapdExecutable: URL = URL(fileURLWithPath: "/usr/sbin/slapd")

    /// The slapadd program, used to load the configuration and for bulk loads.
    public var slapaddExecutable: URL = URL(fileURLWithPath: "/usr/sbin/slapadd")

    /// The ldapwhoami program, used to tell when slapd answers.
    public var ldapwhoamiExecutable: URL = URL(fileURLWithPath: "/usr/bin/ldapwhoami")

    /// The ldapmodify program, used to apply LDIF to a running slapd.
    public var ldapmodifyExecutable: URL = URL(fileURLWithPath: "/usr/bin/ldapmodify")

    /// The debug level passed to `slapd -d`, e.g. `none`, `stats` or `-1`.
    ///
    /// `none` (the default) prints only errors. `0` keeps slapd in the foreground too, but
    /// hides even fatal errors such as a port already in use.
    public var logLevel: String = "none"

    /// How long ``Slapd/start()`` waits for slapd to answer before giving up.
    public var startTimeout: Duration = .seconds(30)

    /// How long ``Slapd/stop()`` waits after SIGTERM before it sends SIGKILL.
    public var stopTimeout: Duration = .seconds(5)

    /// How long ``Slapd/apply(ldif:)`` waits for ldapmodify before giving up.
    public var commandTimeout: Duration = .seconds(60)

    /// How many bytes of slapd's output ``Slapd/output`` keeps (the most recent ones).
    public var outputLimit: Int = 256 * 1024

    private var explicitRootDN: String?

    /// Creates a configuration with the defaults described on each property.
    public init() {}

    /// Creates the default configuration for another suffix and root password.
    public init(suffix: String, rootPassword: String = "secret") {
        self.suffix = suffix
        self.rootPassword = rootPassword
    }
}

extension SlapdConfiguration.Index {
    /// The index without the attributes of the ldapbook schema, or `nil` if it covers
    /// nothing else.
    fileprivate var withoutLDAPBookAttributes: Self? {
        let schemaAttributes = Set(LDAPBookSchema.attributeTypes.map { $0.lowercased() })
        var index = self
        index.attributes.removeAll { schemaAttributes.contains($0.lowercased()) }
        return index.attributes.isEmpty ? nil : index
    }
}
