import Foundation
import Testing
@testable import SlapdKit

@Suite("The ldapbook schema")
struct LDAPBookSchemaTests {
    /// The root of the repository; this file is `Tests/SlapdKitTests/LDAPBookSchemaTests.swift`.
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    private static let arc = "2.25.119809854302968221014165294092806872539"

    private static let attributeTypes = [
        "ldapbookNickname",
        "ldapbookBirthday",
        "ldapbookAnniversary",
        "ldapbookIM",
        "ldapbookRelatedName",
        "ldapbookCustomField",
    ]

    private static let person = """
    dn: cn=Ada Lovelace,dc=example,dc=com
    objectClass: inetOrgPerson
    cn: Ada Lovelace
    givenName: Ada
    sn: Lovelace
    mail: ada@example.com

    """

    private static let makeLDAPBookPerson = """
    dn: cn=Ada Lovelace,dc=example,dc=com
    changetype: modify
    add: objectClass
    objectClass: ldapbookPerson
    -
    add: ldapbookCustomField
    ldapbookCustomField: shoesize=44
    -
    add: ldapbookBirthday
    ldapbookBirthday: --12-10
    -
    add: ldapbookIM
    ldapbookIM: xmpp:ada@example.com
    ldapbookIM: matrix:u/ada:example.com
    -

    """

    @Test("schema/ldapbook.schema, schema/ldapbook.ldif and LDAPBookSchema.ldif agree")
    func generatedFormsAgree() async throws {
        let script = Self.repositoryRoot.appendingPathComponent("scripts/generate-schema-ldif.sh")
        let check = await Tool.run("/bin/bash", [script.path, "--check"], timeout: .seconds(60))
        #expect(check.status == .exited(0), "\(check.output)\(check.errors)")

        let file = Self.repositoryRoot.appendingPathComponent("schema/ldapbook.ldif")
        #expect(LDAPBookSchema.ldif == (try String(contentsOf: file, encoding: .utf8)))
    }

    @Test("Attribute types are <arc>.1.N and the auxiliary object class <arc>.2.1")
    func definitions() {
        #expect(LDAPBookSchema.oidArc == Self.arc)
        #expect(LDAPBookSchema.objectClass == "ldapbookPerson")
        #expect(LDAPBookSchema.attributeTypes == Self.attributeTypes)

        let lines = Self.unfolded(LDAPBookSchema.ldif)
        #expect(lines.prefix(3) == [
            "dn: cn=ldapbook,cn=schema,cn=config",
            "objectClass: olcSchemaConfig",
            "cn: ldapbook",
        ])
        for (offset, name) in Self.attributeTypes.enumerated() {
            #expect(lines.contains { $0.hasPrefix("olcAttributeTypes: ( \(Self.arc).1.\(offset + 1) NAME '\(name)' DESC '") })
        }
        #expect(lines.contains(
            "olcObjectClasses: ( \(Self.arc).2.1 NAME 'ldapbookPerson' DESC 'ldapbook address-book fields that inetOrgPerson lacks' SUP top AUXILIARY MAY ( ldapbookNickname $ ldapbookBirthday $ ldapbookAnniversary $ ldapbookIM $ ldapbookRelatedName $ ldapbookCustomField ) )"
        ))
        #expect(lines.count == 3 + Self.attributeTypes.count + 1)
        #expect(!LDAPBookSchema.ldif.split(separator: "\n").contains { $0.hasSuffix(" ") })
    }

    @Test("A new configuration loads the schema after nis and before extra schemas, with its index")
    func defaultConfiguration() throws {
        var configuration = SlapdConfiguration()
        configuration.extraSchemaFiles = [URL(fileURLWithPath: "/etc/ldap/schema/misc.ldif")]
        #expect(configuration.includesLDAPBookSchema)
        #expect(configuration.indexes.last == SlapdConfiguration.Index(["ldapbookCustomField"], for: [.equality, .substring]))

        let ldif = try Self.render(configuration)
        #expect(Self.schemaNames(ldif) == ["{0}core", "{1}cosine", "{2}inetorgperson", "{3}nis", "{4}ldapbook", "{5}misc"])
        #expect(ldif.contains("\nolcDbIndex: ldapbookCustomField eq,sub\n"))
        #expect(ldif.contains("\ncn: {4}ldapbook\nolcAttributeTypes: ( \(Self.arc).1.1\n  NAME 'ldapbookNickname'\n"))
    }

    @Test("Turning the schema off removes it and its attributes from the indexes; turning it on adds its index once")
    func schemaTurnedOff() throws {
        var configuration = SlapdConfiguration()
        configuration.indexes.append(SlapdConfiguration.Index(["employeeNumber", "ldapbookNickname"], for: [.equality]))
        configuration.includesLDAPBookSchema = false

        #expect(configuration.indexes.map(\.description) == [
            "objectClass eq",
            "givenName,sn,cn eq,sub",
            "mail,telephoneNumber eq",
            "uid eq,sub",
            "entryUUID,entryCSN eq",
            "employeeNumber eq",
        ])
        let ldif = try Self.render(configuration)
        #expect(Self.schemaNames(ldif) == ["{0}core", "{1}cosine", "{2}inetorgperson", "{3}nis"])
        #expect(!ldif.contains("ldapbook"))

        configuration.includesLDAPBookSchema = true
        configuration.includesLDAPBookSchema = true
        #expect(configuration.indexes.map(\.description).filter { $0.contains("ldapbook") } == ["ldapbookCustomField eq,sub"])
    }

    @Test("A default slapd has the schema; an inetOrgPerson becomes an ldapbookPerson with a findable custom field")
    func defaultServer() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()

        let subschema = try await Self.subschema(slapd)
        for (offset, name) in Self.attributeTypes.enumerated() {
            #expect(subschema.contains { $0.hasPrefix("attributeTypes: ( \(Self.arc).1.\(offset + 1) NAME '\(name)' ") }, "\(name)")
        }
        #expect(subschema.contains { $0.hasPrefix("objectClasses: ( \(Self.arc).2.1 NAME 'ldapbookPerson' ") && $0.contains(" AUXILIARY ") })

        let schemas = await Tool.run("/usr/bin/ldapsearch", [
            "-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI, "-LLL", "-o", "ldif_wrap=no",
            "-b", "cn=schema,cn=config", "-s", "one", "(objectClass=olcSchemaConfig)", "cn",
        ])
        #expect(schemas.status == .exited(0), "\(schemas.errors)")
        #expect(schemas.output.contains("dn: cn={4}ldapbook,cn=schema,cn=config"))
        let database = await Tool.run("/usr/bin/ldapsearch", [
            "-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI, "-LLL", "-o", "ldif_wrap=no",
            "-b", "olcDatabase={1}mdb,cn=config", "-s", "base", "(objectClass=*)", "olcDbIndex",
        ])
        #expect(database.output.contains("olcDbIndex: ldapbookCustomField eq,sub"), "\(database.errors)")

        let add = try await Tool.add(slapd, ldif: Self.person)
        #expect(add.status == .exited(0), "\(add.errors)")
        let modify = await Self.ldapmodify(slapd, Self.makeLDAPBookPerson)
        #expect(modify.status == .exited(0), "\(modify.errors)")

        let populated = await Tool.search(slapd, filter: "(ldapbookCustomField=shoesize=*)", attributes: ["ldapbookCustomField"])
        #expect(populated.status == .exited(0), "\(populated.errors)")
        #expect(Tool.entryCount(populated.output) == 1)
        #expect(populated.output.contains("dn: cn=Ada Lovelace,dc=example,dc=com"))
        #expect(populated.output.contains("ldapbookCustomField: shoesize=44"))
        let exact = await Tool.search(slapd, filter: "(ldapbookCustomField=shoesize=44)", attributes: ["1.1"])
        #expect(Tool.entryCount(exact.output) == 1)
        let otherField = await Tool.search(slapd, filter: "(ldapbookCustomField=hatsize=*)", attributes: ["1.1"])
        #expect(otherField.status == .exited(0))
        #expect(Tool.entryCount(otherField.output) == 0)
        let otherCase = await Tool.search(slapd, filter: "(ldapbookCustomField=ShoeSize=*)", attributes: ["1.1"])
        #expect(Tool.entryCount(otherCase.output) == 0)
        let byBirthday = await Tool.search(slapd, filter: "(&(objectClass=ldapbookPerson)(ldapbookBirthday=--12-10))", attributes: ["1.1"])
        #expect(Tool.entryCount(byBirthday.output) == 1)
        let byIM = await Tool.search(slapd, filter: "(ldapbookIM=XMPP:Ada@*)", attributes: ["1.1"])
        #expect(Tool.entryCount(byIM.output) == 1)

        let secondBirthday = await Self.ldapmodify(slapd, """
        dn: cn=Ada Lovelace,dc=example,dc=com
        changetype: modify
        add: ldapbookBirthday
        ldapbookBirthday: 1815-12-10
        -

        """)
        #expect(secondBirthday.status == .exited(19), "\(secondBirthday.errors)")
        #expect(secondBirthday.errors.contains("Constraint violation"))

        let replacedBirthday = await Self.ldapmodify(slapd, """
        dn: cn=Ada Lovelace,dc=example,dc=com
        changetype: modify
        replace: ldapbookBirthday
        ldapbookBirthday: 1815-12-10
        -

        """)
        #expect(replacedBirthday.status == .exited(0), "\(replacedBirthday.errors)")
        await slapd.stop()
    }

    @Test("schema/ldapbook.ldif installs into a running slapd with ldapadd -Y EXTERNAL, then the index with ldapmodify")
    func installIntoRunningServer() async throws {
        var configuration = SlapdConfiguration()
        configuration.includesLDAPBookSchema = false
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }
        try await slapd.start()

        #expect(!(try await Self.subschema(slapd)).contains { $0.contains("'ldapbookPerson'") })
        let add = try await Tool.add(slapd, ldif: Self.person)
        #expect(add.status == .exited(0), "\(add.errors)")
        let tooEarly = await Self.ldapmodify(slapd, Self.makeLDAPBookPerson)
        #expect(tooEarly.status != .exited(0))

        let schemaFile = Self.repositoryRoot.appendingPathComponent("schema/ldapbook.ldif")
        let install = await Tool.run("/usr/bin/ldapadd", ["-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI, "-f", schemaFile.path])
        #expect(install.status == .exited(0), "\(install.errors)")
        #expect(install.output.contains("adding new entry \"cn=ldapbook,cn=schema,cn=config\""))

        let subschema = try await Self.subschema(slapd)
        #expect(subschema.contains { $0.hasPrefix("objectClasses: ( \(Self.arc).2.1 NAME 'ldapbookPerson' ") })
        #expect(subschema.filter { $0.hasPrefix("attributeTypes: ( \(Self.arc).1.") }.count == Self.attributeTypes.count)

        let index = await Self.ldapmodify(slapd, """
        dn: olcDatabase={1}mdb,cn=config
        changetype: modify
        add: olcDbIndex
        olcDbIndex: ldapbookCustomField eq,sub
        -

        """)
        #expect(index.status == .exited(0), "\(index.errors)")

        let modify = await Self.ldapmodify(slapd, Self.makeLDAPBookPerson)
        #expect(modify.status == .exited(0), "\(modify.errors)")
        let populated = await Tool.search(slapd, filter: "(ldapbookCustomField=shoesize=*)", attributes: ["1.1"])
        #expect(Tool.entryCount(populated.output) == 1, "\(populated.errors)")
        await slapd.stop()
    }

    /// Renders the cn=config of `configuration` for a fixed layout and identity.
    private static func render(_ configuration: SlapdConfiguration) throws -> String {
        try ConfigurationLDIF(
            configuration: configuration,
            layout: InstanceLayout(directory: URL(fileURLWithPath: "/tmp/slapd-unit02", isDirectory: true)),
            userID: 1000,
            groupID: 1000,
            rootPasswordHash: "{SSHA}hash"
        ).render()
    }

    /// The names of the schema entries below `cn=schema,cn=config` in `ldif`, in order.
    private static func schemaNames(_ ldif: String) -> [String] {
        ldif.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("dn: cn="), line.hasSuffix(",cn=schema,cn=config") else { return nil }
            return String(line.dropFirst("dn: cn=".count).dropLast(",cn=schema,cn=config".count))
        }
    }

    /// The lines of `ldif` with folded lines joined and comments removed.
    private static func unfolded(_ ldif: String) -> [String] {
        var lines: [String] = []
        for line in ldif.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix(" "), !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// The `attributeTypes` and `objectClasses` lines of the server's subschema entry,
    /// read over ldapi as the root DN.
    private static func subschema(_ slapd: Slapd) async throws -> [String] {
        let search = await Tool.run("/usr/bin/ldapsearch", [
            "-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI, "-LLL", "-o", "ldif_wrap=no",
            "-b", "cn=Subschema", "-s", "base", "(objectClass=subschema)", "attributeTypes", "objectClasses",
        ])
        try #require(search.status == .exited(0), "\(search.errors)")
        return search.output.split(separator: "\n").map(String.init)
    }

    /// Applies the change records of `ldif` with ldapmodify over ldapi as the root DN.
    private static func ldapmodify(_ slapd: Slapd, _ ldif: String) async -> Tool.Result {
        let file = slapd.directory.appendingPathComponent("modify-\(UUID().uuidString).ldif")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(ldif.utf8)) else {
            return Tool.Result(status: .exited(127), output: "", errors: "cannot write \(file.path)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        return await Tool.run("/usr/bin/ldapmodify", ["-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI, "-f", file.path])
    }
}
