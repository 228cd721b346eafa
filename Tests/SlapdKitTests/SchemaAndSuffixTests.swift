import Foundation
import Testing
@testable import SlapdKit

@Suite("Schema entries, suffix entries and ldapi paths")
struct SchemaAndSuffixTests {
    @Test("A schema entry is renamed and stripped of comments, keeping folded values intact")
    func schemaRewrite() throws {
        let text = """
        # A comment
        #  continued
        version: 1

        dn: cn=custom,cn=schema,cn=config
        objectClass: olcSchemaConfig
        cn: custom
        # olcAttributeTypes: ( 1.1 NAME 'disabled' )
        olcAttributeTypes: ( 1.3.6.1.4.1.99999.1 NAME 'favouriteColour'
          EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )

        """
        let ldif = try SchemaEntry.ldif(text, position: 4, source: "custom.ldif")
        #expect(ldif == """
        dn: cn={4}custom,cn=schema,cn=config
        objectClass: olcSchemaConfig
        cn: {4}custom
        olcAttributeTypes: ( 1.3.6.1.4.1.99999.1 NAME 'favouriteColour'
          EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )

        """)
    }

    @Test("An existing ordering prefix is replaced")
    func schemaWithOrderingPrefix() throws {
        let ldif = try SchemaEntry.ldif("dn: cn={9}mine,cn=schema,cn=config\ncn: {9}mine\n", position: 5, source: "mine")
        #expect(ldif == "dn: cn={5}mine,cn=schema,cn=config\ncn: {5}mine\n")
    }

    @Test("A schema file with two entries or no cn= name is rejected")
    func invalidSchemaFiles() {
        let twoEntries = "dn: cn=a,cn=schema,cn=config\ncn: a\n\ndn: cn=b,cn=schema,cn=config\ncn: b\n"
        #expect(throws: SlapdError.self) { try SchemaEntry.ldif(twoEntries, position: 0, source: "two") }
        #expect(throws: SlapdError.self) { try SchemaEntry.ldif("dn: ou=x,cn=config\n", position: 0, source: "ou") }
    }

    @Test("Suffix entries get an object class matching their naming attribute")
    func suffixEntries() throws {
        #expect(try SuffixEntry.ldif(for: "dc=example,dc=com") == "dn: dc=example,dc=com\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: example\n")
        #expect(try SuffixEntry.ldif(for: "o=Acme\\, Inc") == "dn: o=Acme\\, Inc\nobjectClass: organization\no: Acme, Inc\n")
        #expect(try SuffixEntry.ldif(for: "ou=People,o=Acme") == "dn: ou=People,o=Acme\nobjectClass: organizationalUnit\nou: People\n")
        #expect(try SuffixEntry.ldif(for: "c=DE") == "dn: c=DE\nobjectClass: country\nc: DE\n")
        #expect(try SuffixEntry.ldif(for: "cn=Top") == "dn: cn=Top\nobjectClass: organizationalRole\ncn: Top\n")
        #expect(throws: SlapdError.self) { try SuffixEntry.ldif(for: "uid=someone") }
        #expect(throws: SlapdError.self) { try SuffixEntry.ldif(for: "cn=a+sn=b,o=x") }
        #expect(throws: SlapdError.self) { try SuffixEntry.ldif(for: "not a dn") }
    }

    @Test("Distinguished names are parsed with their escapes resolved")
    func distinguishedNames() throws {
        let name = try #require(DistinguishedName(#"o=B\C3\BCcher\, Inc ,c=DE"#))
        #expect(name.relativeNames == [
            [DistinguishedName.Attribute(type: "o", value: "Bücher, Inc")],
            [DistinguishedName.Attribute(type: "c", value: "DE")],
        ])
        let multiValued = try #require(DistinguishedName("cn=a+sn=b,o=x"))
        #expect(multiValued.relativeNames.first?.count == 2)
        #expect(DistinguishedName(#"cn=trailing\ "#)?.relativeNames.first?.first?.value == "trailing ")
        #expect(DistinguishedName("")?.relativeNames == [])
        #expect(DistinguishedName("no equals sign") == nil)
        #expect(DistinguishedName("=value") == nil)
    }

    @Test("The ldapi URI percent-encodes the socket path")
    func ldapiURI() throws {
        let layout = InstanceLayout(directory: URL(fileURLWithPath: "/tmp/slapd-Ab 1", isDirectory: true))
        #expect(layout.ldapiURI == "ldapi://%2Ftmp%2Fslapd-Ab%201%2Fldapi")
        try layout.validateSocketPath()
        let deep = InstanceLayout(directory: URL(fileURLWithPath: "/tmp/" + String(repeating: "d", count: 100), isDirectory: true))
        #expect(throws: SlapdError.self) { try deep.validateSocketPath() }
    }

    @Test("DN comparison ignores case and spaces around separators")
    func dnComparison() {
        #expect(ReadinessProbe.sameDN("cn=admin,dc=example,dc=com", "CN=Admin, DC=Example , dc=com"))
        #expect(!ReadinessProbe.sameDN("cn=admin,dc=example,dc=com", "cn=admin2,dc=example,dc=com"))
        #expect(ReadinessProbe.sameDN("cn=Big Boss,o=x", "cn=big boss,o=x"))
        #expect(ReadinessProbe.sameDN(#"cn=Big \"Boss\",o=Acme\, Inc"#, #"cn=big \22boss\22,o=acme\2C inc"#))
        #expect(!ReadinessProbe.sameDN(#"o=Acme\, Inc"#, "o=Acme,o=Inc"))
    }
}
