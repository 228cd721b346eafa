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
        var entries = [globalEntry, moduleEntry, schemaRootEntry] + schemas
        entries += [frontendEntry, configDatabaseEntry, mainDatabaseEntry]
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
        let modules = ["back_mdb"] + configuration.extraModules.filter { $0 != "back_mdb" }
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

    /// `olcDatabase={1}mdb`: the suffix, its root DN and password, storage, indexes and
    /// access rules.
    var mainDatabaseEntry: String {
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
        lines += configuration.indexes.map { LDIFLine.attribute("olcDbIndex", $0.description) }
        for (position, rule) in configuration.databaseAccess.enumerated() {
            lines.append(LDIFLine.attribute("olcAccess", "{\(position)}\(rule)"))
        }
        for (position, limit) in configuration.databaseLimits.enumerated() {
            lines.append(LDIFLine.attribute("olcLimits", "{\(position)}\(limit)"))
        }
        lines += configuration.extraDatabaseAttributes
        return Self.entry(lines)
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
