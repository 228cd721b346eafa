import Foundation
import Testing
@testable import SlapdKit

@Suite("Generated cn=config")
struct ConfigurationLDIFTests {
    private let layout = InstanceLayout(directory: URL(fileURLWithPath: "/tmp/slapd-unit01", isDirectory: true))

    private func render(
        _ configuration: SlapdConfiguration = SlapdConfiguration(),
        userID: UInt32 = 1000,
        groupID: UInt32 = 1001,
        rootPasswordHash: String? = "{SSHA}hash"
    ) throws -> String {
        try ConfigurationLDIF(
            configuration: configuration,
            layout: layout,
            userID: userID,
            groupID: groupID,
            rootPasswordHash: rootPasswordHash
        ).render()
    }

    private func lines(_ ldif: String) -> [String] {
        ldif.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("Defaults: suffix, root DN, hashed password, database directory and size limit")
    func defaults() throws {
        let ldif = lines(try render())
        #expect(ldif.contains("olcSuffix: dc=example,dc=com"))
        #expect(ldif.contains("olcRootDN: cn=admin,dc=example,dc=com"))
        #expect(ldif.contains("olcRootPW: {SSHA}hash"))
        #expect(ldif.contains("olcDbDirectory: /tmp/slapd-unit01/data"))
        #expect(ldif.contains("olcDbMaxSize: 4294967296"))
        #expect(ldif.contains("olcSizeLimit: unlimited"))
        #expect(ldif.contains("olcPidFile: /tmp/slapd-unit01/slapd.pid"))
        #expect(ldif.contains("olcArgsFile: /tmp/slapd-unit01/slapd.args"))
        #expect(ldif.contains("olcModulePath: /usr/lib/ldap"))
        #expect(ldif.contains("olcModuleLoad: {0}back_mdb"))
        #expect(!ldif.contains { $0.hasPrefix("olcTLS") })
        #expect(!ldif.contains { $0.hasPrefix("olcLimits") })
    }

    @Test("The ldapi identity of the given uid and gid maps to the root DN and manages cn=config")
    func peerCredentialMapping() throws {
        let ldif = lines(try render(userID: 1234, groupID: 5678))
        #expect(ldif.contains(#"olcAuthzRegexp: {0}"^gidNumber=5678\+uidNumber=1234,cn=peercred,cn=external,cn=auth$" "cn=admin,dc=example,dc=com""#))
        #expect(ldif.contains(#"olcAccess: {0}to * by dn.exact="gidNumber=5678+uidNumber=1234,cn=peercred,cn=external,cn=auth" manage by dn.exact="cn=admin,dc=example,dc=com" manage by * break"#))
        #expect(!ldif.joined().contains("uidNumber=0,"))
    }

    @Test("Default indexes and access rules")
    func indexesAndAccess() throws {
        let ldif = lines(try render())
        #expect(ldif.contains("olcDbIndex: objectClass eq"))
        #expect(ldif.contains("olcDbIndex: givenName,sn,cn eq,sub"))
        #expect(ldif.contains("olcDbIndex: mail,telephoneNumber eq"))
        #expect(ldif.contains("olcDbIndex: entryUUID,entryCSN eq"))
        #expect(ldif.contains("olcAccess: {0}to attrs=userPassword by self write by anonymous auth by * none"))
        #expect(ldif.contains("olcAccess: {1}to * by users write by * read"))
    }

    @Test("Entries come in the order slapadd needs, schemas renamed to their position")
    func entryOrder() throws {
        let dns = lines(try render()).filter { $0.hasPrefix("dn: ") }
        #expect(dns == [
            "dn: cn=config",
            "dn: cn=module{0},cn=config",
            "dn: cn=schema,cn=config",
            "dn: cn={0}core,cn=schema,cn=config",
            "dn: cn={1}cosine,cn=schema,cn=config",
            "dn: cn={2}inetorgperson,cn=schema,cn=config",
            "dn: cn={3}nis,cn=schema,cn=config",
            "dn: cn={4}ldapbook,cn=schema,cn=config",
            "dn: olcDatabase={-1}frontend,cn=config",
            "dn: olcDatabase={0}config,cn=config",
            "dn: olcDatabase={1}mdb,cn=config",
        ])
        let ldif = lines(try render())
        #expect(ldif.contains("cn: {2}inetorgperson"))
        #expect(!ldif.contains("cn: inetorgperson"))
        #expect(!ldif.contains { $0.hasPrefix("#") })
    }

    @Test("Caller settings: suffix, root DN, limits, modules, TLS and extra LDIF")
    func callerSettings() throws {
        var configuration = SlapdConfiguration(suffix: "o=Acme", rootPassword: "pw")
        configuration.rootDN = "cn=Manager,o=Acme"
        configuration.sizeLimit = .entries(50)
        configuration.databaseMaxSize = 4096 * 1024
        configuration.indexes = [SlapdConfiguration.Index(["uid"], for: [.equality, .presence])]
        configuration.databaseAccess = ["to * by * read"]
        configuration.databaseLimits = ["users size=10"]
        configuration.extraModules = ["syncprov"]
        configuration.tls = SlapdConfiguration.TLS(
            certificateFile: URL(fileURLWithPath: "/certs/server.pem"),
            keyFile: URL(fileURLWithPath: "/certs/server.key"),
            caCertificateFile: URL(fileURLWithPath: "/certs/ca.pem")
        )
        configuration.extraGlobalAttributes = ["olcServerID: 7"]
        configuration.extraDatabaseAttributes = ["olcDbNoSync: TRUE"]
        configuration.extraConfigurationLDIF = "dn: olcOverlay=syncprov,olcDatabase={1}mdb,cn=config\nobjectClass: olcOverlayConfig\nobjectClass: olcSyncProvConfig\nolcOverlay: syncprov\n"

        let text = try render(configuration)
        let ldif = lines(text)
        #expect(ldif.contains("olcSuffix: o=Acme"))
        #expect(ldif.contains("olcRootDN: cn=Manager,o=Acme"))
        #expect(ldif.contains { $0.hasPrefix("olcAuthzRegexp: ") && $0.hasSuffix(#" "cn=Manager,o=Acme""#) })
        #expect(ldif.filter { $0 == "olcSizeLimit: 50" }.count == 2)
        #expect(ldif.contains("olcDbMaxSize: 4194304"))
        #expect(ldif.filter { $0.hasPrefix("olcDbIndex: ") } == ["olcDbIndex: uid eq,pres"])
        #expect(ldif.filter { $0.hasPrefix("olcAccess: ") }.last == "olcAccess: {0}to * by * read")
        #expect(ldif.contains("olcLimits: {0}users size=10"))
        #expect(ldif.contains("olcModuleLoad: {1}syncprov"))
        #expect(ldif.contains("olcTLSCertificateFile: /certs/server.pem"))
        #expect(ldif.contains("olcTLSCertificateKeyFile: /certs/server.key"))
        #expect(ldif.contains("olcTLSCACertificateFile: /certs/ca.pem"))
        #expect(ldif.contains("olcServerID: 7"))
        #expect(ldif.contains("olcDbNoSync: TRUE"))
        #expect(text.hasSuffix("\n\ndn: olcOverlay=syncprov,olcDatabase={1}mdb,cn=config\nobjectClass: olcOverlayConfig\nobjectClass: olcSyncProvConfig\nolcOverlay: syncprov\n"))
    }

    @Test("Frontend access rules belong to the frontend entry; without a password hash there is no olcRootPW")
    func frontendAccessWithoutRootPassword() throws {
        var configuration = SlapdConfiguration()
        configuration.frontendAccess = [#"to dn.base="" by * read"#, "to * by * none"]
        let entries = try render(configuration, rootPasswordHash: nil).components(separatedBy: "\n\n")
        let frontend = try #require(entries.first { $0.hasPrefix("dn: olcDatabase={-1}frontend,cn=config") })
        #expect(lines(frontend).filter { $0.hasPrefix("olcAccess: ") } == [
            #"olcAccess: {0}to dn.base="" by * read"#,
            "olcAccess: {1}to * by * none",
        ])
        let database = try #require(entries.first { $0.hasPrefix("dn: olcDatabase={1}mdb,cn=config") })
        #expect(lines(database).contains("olcRootDN: cn=admin,dc=example,dc=com"))
        #expect(!lines(database).contains { $0.hasPrefix("olcRootPW") })
        #expect(!lines(try render()).contains { $0.hasPrefix("olcAccess: {0}to dn.base") })
    }

    @Test("DNs are quoted the way slapd's configuration parser reads them; unsafe values are written in Base64")
    func quotingAndBase64() throws {
        #expect(ConfigurationLDIF.quoted(#"cn=a\,b \"c\""#) == #""cn=a\,b \22c\22""#)
        var configuration = SlapdConfiguration(suffix: "o=Bücher")
        configuration.rootDN = "cn=admin,o=Bücher"
        let ldif = lines(try render(configuration))
        #expect(ldif.contains("olcSuffix:: " + Data("o=Bücher".utf8).base64EncodedString()))
        #expect(LDIFLine.attribute("cn", " leading") == "cn:: IGxlYWRpbmc=")
        #expect(LDIFLine.attribute("cn", "plain") == "cn: plain")
        #expect(LDIFLine.attribute("cn", "") == "cn: ")
    }

    @Test("A missing schema file is reported by path")
    func missingSchemaFile() throws {
        var configuration = SlapdConfiguration()
        configuration.extraSchemaFiles = [URL(fileURLWithPath: "/nonexistent/custom.ldif")]
        let error = #expect(throws: SlapdError.self) { try render(configuration) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.message.contains("/nonexistent/custom.ldif") == true)
    }
}
