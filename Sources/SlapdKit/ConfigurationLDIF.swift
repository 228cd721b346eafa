import Foundation

/// The cn=config of a private slapd, as LDIF for `slapadd -n0`.
///
/// The entries are, in order: `cn=config`, the module list, the schema root and one
/// entry per schema (the schema files, the ldapbook schema unless it is turned off, then
/// the extra schema files), the frontend, the config database, the MDB database, then the
/// caller's extra entries.
struct ConfigurationLDIF {
    /// The settings to render.
    let configuration: SlapdConfiguration

    /// Where the instance keeps its files.
    let layout: InstanceLayout

    /// The user whose ldapi connections are mapped to the root DN.
    let userID: UInt32

    /// The group of the user whose ldapi connections are mapped to the root DN.
    let groupID: UInt32

    /// The root password as written to `olcRootPW`, or `nil` to write none.
    let rootPasswordHash: String?

    /// The SASL EXTERNAL identity slapd gives to ldapi connections of ``userID``.
    var peerCredentialsDN: String {
        "gidNumber=\(groupID)+uidNumber=\(userID),cn=peercred,cn=external,cn=auth"
    }

    /// The complete LDIF, reading the schema files.
    func render() throws(SlapdError) -> String {
        var schemas: [String] = []
        for file in configuration.schemaFiles {
            schemas.append(try SchemaEntry.ldif(contentsOf: file, position: schemas.count))
        }
        if configuration.includesLDAPBookSchema {
            schemas.append(try SchemaEntry.ldif(LDAPBookSchema.ldif, position: schemas.count, source: "LDAPBookSchema.ldif"))
        }
        for file in configuration.extraSchemaFiles {
            schemas.append(try SchemaEntry.ldif(contentsOf: file, position: schemas.count))
        }
        try configuration.replication?.validate()
        try configuration.syncProvider?.validate()
        var entries = [globalEntry, moduleEntry, schemaRootEntry] + schemas
        entries += [frontendEntry, configDatabaseEntry, try mainDatabaseEntry()]
        if let replication = configuration.replication {
            entries += try accessLogEntries(replication)
        } else if let syncProvider = configuration.syncProvider {
            entries.append(syncProviderEntry(syncProvider))
        }
        let extra = configuration.extraConfigurationLDIF.trimmingTrailingWhitespace()
        if !extra.isEmpty {
            entries.append(extra + "\n")
        }
        return entries.joined(separator: "\n")
    }

    /// `cn=config`: process files, the ldapi identity mapping and TLS.
    var globalEntry: String {
        var lines = [
            "dn: cn=config",
            "objectClass: olcGlobal",
            "cn: config",
            LDIFLine.attribute("olcPidFile", layout.pidFile.path),
            LDIFLine.attribute("olcArgsFile", layout.argumentsFile.path),
            LDIFLine.attribute(
                "olcAuthzRegexp",
                "{0}\"^gidNumber=\(groupID)\\+uidNumber=\(userID),cn=peercred,cn=external,cn=auth$\" \(Self.quoted(configuration.rootDN))"
            ),
        ]
        if let tls = configuration.tls {
            lines.append(LDIFLine.attribute("olcTLSCertificateFile", tls.certificateFile.path))
            lines.append(LDIFLine.attribute("olcTLSCertificateKeyFile", tls.keyFile.path))
            if let caCertificateFile = tls.caCertificateFile {
                lines.append(LDIFLine.attribute("olcTLSCACertificateFile", caCertificateFile.path))
            }
        }
        if let replication = configuration.replication {
            lines.append("olcServerID: \(replication.serverID)")
        }
        lines += configuration.extraGlobalAttributes
        return Self.entry(lines)
    }

    /// `cn=module{0}`: the module path and the modules to load, `back_mdb` first.
    var moduleEntry: String {
        var lines = [
            "dn: cn=module{0},cn=config",
            "objectClass: olcModuleList",
            "cn: module{0}",
            LDIFLine.attribute("olcModulePath", configuration.modulePath.path),
        ]
        var modules = ["back_mdb"] + configuration.extraModules.filter { $0 != "back_mdb" }
        if configuration.replication != nil {
            modules += ["syncprov", "accesslog"].filter { !modules.contains($0) }
        } else if configuration.syncProvider != nil, !modules.contains("syncprov") {
            modules.append("syncprov")
        }
        for (position, module) in modules.enumerated() {
            lines.append(LDIFLine.attribute("olcModuleLoad", "{\(position)}\(module)"))
        }
        return Self.entry(lines)
    }

    /// `cn=schema`: the parent of the schema entries.
    var schemaRootEntry: String {
        Self.entry([
            "dn: cn=schema,cn=config",
            "objectClass: olcSchemaConfig",
            "cn: schema",
        ])
    }

    /// `olcDatabase={-1}frontend`: defaults for every database, and the access rules of
    /// the root DSE and the subschema.
    var frontendEntry: String {
        var lines = [
            "dn: olcDatabase={-1}frontend,cn=config",
            "objectClass: olcDatabaseConfig",
            "objectClass: olcFrontendConfig",
            "olcDatabase: {-1}frontend",
            "olcSizeLimit: \(configuration.sizeLimit)",
        ]
        for (position, rule) in configuration.frontendAccess.enumerated() {
            lines.append(LDIFLine.attribute("olcAccess", "{\(position)}\(rule)"))
        }
        return Self.entry(lines)
    }

    /// `olcDatabase={0}config`: managed by the root DN and the current user over ldapi.
    var configDatabaseEntry: String {
        let access = "{0}to * by dn.exact=\(Self.quoted(peerCredentialsDN)) manage by dn.exact=\(Self.quoted(configuration.rootDN)) manage by * break"
        return Self.entry([
            "dn: olcDatabase={0}config,cn=config",
            "objectClass: olcDatabaseConfig",
            "olcDatabase: {0}config",
            LDIFLine.attribute("olcAccess", access),
        ])
    }

    /// `olcDatabase={1}mdb`: the suffix, its root DN and password, storage, indexes,
    /// access rules and limits, and the replication consumers.
    func mainDatabaseEntry() throws(SlapdError) -> String {
        var lines = [
            "dn: olcDatabase={1}mdb,cn=config",
            "objectClass: olcDatabaseConfig",
            "objectClass: olcMdbConfig",
            "olcDatabase: {1}mdb",
            LDIFLine.attribute("olcSuffix", configuration.suffix),
            LDIFLine.attribute("olcRootDN", configuration.rootDN),
        ]
        if let rootPasswordHash {
            lines.append(LDIFLine.attribute("olcRootPW", rootPasswordHash))
        }
        lines += [
            LDIFLine.attribute("olcDbDirectory", layout.databaseDirectory.path),
            "olcDbMaxSize: \(configuration.databaseMaxSize)",
            "olcSizeLimit: \(configuration.sizeLimit)",
        ]
        lines += indexes.map { LDIFLine.attribute("olcDbIndex", $0.description) }
        for (position, rule) in configuration.databaseAccess.enumerated() {
            lines.append(LDIFLine.attribute("olcAccess", "{\(position)}\(rule)"))
        }
        for (position, limit) in configuration.databaseLimits.enumerated() {
            lines.append(LDIFLine.attribute("olcLimits", "{\(position)}\(limit)"))
        }
        if let replication = configuration.replication {
            lines += try syncReplicationAttributes(replication)
        }
        lines += configuration.extraDatabaseAttributes
        return Self.entry(lines)
    }

    /// The database's indexes: the configuration's, with equality on `entryUUID` and
    /// `entryCSN` for a sync provider, which looks entries up by them.
    var indexes: [SlapdConfiguration.Index] {
        guard configuration.syncProvider != nil else { return configuration.indexes }
        return configuration.indexes.addingEquality(of: ["entryUUID", "entryCSN"])
    }

    /// `olcOverlay={0}syncprov` on the main database, for a sync provider without replication.
    func syncProviderEntry(_ syncProvider: SlapdConfiguration.SyncProvider) -> String {
        Self.entry([
            "dn: olcOverlay={0}syncprov,olcDatabase={1}mdb,cn=config",
            "objectClass: olcOverlayConfig",
            "objectClass: olcSyncProvConfig",
            "olcOverlay: {0}syncprov",
        ] + syncProvider.attributeLines)
    }

    /// One `olcSyncrepl` consumer per peer, then `olcMultiProvider: TRUE`.
    ///
    /// The consumers replicate changes, not whole entries (delta-syncrepl): each reads the
    /// successful writes of its peer from the peer's access log, so that values added to
    /// the same entry on two servers at once are all kept, where whole-entry replication
    /// would let the later entry replace the earlier one.
    func syncReplicationAttributes(_ replication: SlapdConfiguration.Replication) throws(SlapdError) -> [String] {
        let bindDN = replication.bindDN ?? configuration.rootDN
        let credentials = replication.credentials ?? configuration.rootPassword
        guard SlapdConfiguration.Replication.isQuotable(bindDN) else {
            throw SlapdError(.invalidConfiguration, "The root DN may not contain double quotes, backslashes or control characters when it binds for replication; set a replication bind DN.")
        }
        guard !credentials.isEmpty, SlapdConfiguration.Replication.isQuotable(credentials) else {
            throw SlapdError(.invalidConfiguration, "Replication needs a password for \(bindDN) of printable ASCII characters other than \" and \\.")
        }
        var lines: [String] = []
        for (position, peer) in replication.peers.enumerated() {
            let consumer = [
                "rid=" + String(format: "%03d", position + 1),
                "provider=\(peer)",
                "bindmethod=simple",
                "binddn=\"\(bindDN)\"",
                "credentials=\"\(credentials)\"",
                "searchbase=\(Self.quoted(configuration.suffix))",
                "type=refreshAndPersist",
                "syncdata=accesslog",
                "logbase=\"\(Self.accessLogSuffix)\"",
                "logfilter=\"(&(objectClass=auditWriteObject)(reqResult=0))\"",
                "retry=\"\(replication.retry)\"",
                "network-timeout=\(replication.networkTimeout)",
                "timeout=\(replication.networkTimeout)",
            ].joined(separator: " ")
            lines.append(LDIFLine.attribute("olcSyncrepl", "{\(position)}\(consumer)"))
        }
        lines.append("olcMultiProvider: TRUE")
        return lines
    }

    /// The suffix of the access log database that delta-syncrepl reads.
    static let accessLogSuffix = "cn=accesslog"

    /// The entries that make the database a replication provider: the access log
    /// database (`olcDatabase={2}mdb`, `cn=accesslog`, readable only by the replication
    /// bind DN) with its own `syncprov` overlay, then the main database's `syncprov` overlay
    /// (with the settings of ``SlapdConfiguration/syncProvider``, by default a checkpoint every
    /// 100 operations or 10 minutes and a session log of 10,000) and `accesslog` overlay. The
    /// log keeps successful writes for a week.
    func accessLogEntries(_ replication: SlapdConfiguration.Replication) throws(SlapdError) -> [String] {
        let replicator = Self.quoted(replication.bindDN ?? configuration.rootDN)
        let logDatabase = Self.entry([
            "dn: olcDatabase={2}mdb,cn=config",
            "objectClass: olcDatabaseConfig",
            "objectClass: olcMdbConfig",
            "olcDatabase: {2}mdb",
            "olcSuffix: \(Self.accessLogSuffix)",
            LDIFLine.attribute("olcDbDirectory", layout.accessLogDirectory.path),
            "olcDbMaxSize: \(configuration.databaseMaxSize)",
            "olcDbIndex: default eq",
            "olcDbIndex: entryCSN,objectClass,reqEnd,reqResult,reqStart,reqDN",
            LDIFLine.attribute("olcAccess", "{0}to * by dn.exact=\(replicator) read by * none"),
            LDIFLine.attribute("olcLimits", "{0}dn.exact=\(replicator) time=unlimited size=unlimited"),
        ])
        let logProvider = Self.entry([
            "dn: olcOverlay={0}syncprov,olcDatabase={2}mdb,cn=config",
            "objectClass: olcOverlayConfig",
            "objectClass: olcSyncProvConfig",
            "olcOverlay: {0}syncprov",
            "olcSpNoPresent: TRUE",
            "olcSpReloadHint: TRUE",
        ])
        let provider = syncProviderEntry(configuration.syncProvider ?? SlapdConfiguration.SyncProvider())
        let log = Self.entry([
            "dn: olcOverlay={1}accesslog,olcDatabase={1}mdb,cn=config",
            "objectClass: olcOverlayConfig",
            "objectClass: olcAccessLogConfig",
            "olcOverlay: {1}accesslog",
            "olcAccessLogDB: \(Self.accessLogSuffix)",
            "olcAccessLogOps: writes",
            "olcAccessLogSuccess: TRUE",
            "olcAccessLogPurge: 07+00:00 01+00:00",
        ])
        return [logDatabase, logProvider, provider, log]
    }

    /// Joins attribute lines into an entry terminated by a line break.
    private static func entry(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }

    /// `dn` in double quotes, as slapd's configuration parser reads it: backslashes are
    /// taken literally there, so a double quote in the DN is written as the DN escape `\22`.
    static func quoted(_ dn: String) -> String {
        let escaped = dn
            .replacingOccurrences(of: "\\\"", with: "\\22")
            .replacingOccurrences(of: "\"", with: "\\22")
        return "\"" + escaped + "\""
    }
}
