import LDAPKit
import Testing

/// Output in the form `ldapsearch -LLL` prints it: no version line and no
/// comments, lines wrapped at 76 columns, base64 for non-ASCII text, binary
/// values and passwords, an empty line after each entry.
@Suite("LDIF: ldapsearch -LLL output")
struct LDIFLDAPSearchOutputTests {
    @Test("A subtree search with people, a photo and non-ASCII names")
    func subtreeSearch() throws {
        let output = """
            dn: dc=example,dc=com
            objectClass: top
            objectClass: dcObject
            objectClass: organization
            o: Example
            dc: example

            dn: ou=people,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people

            dn: uid=ada,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: ada
            cn: Ada Lovelace
            sn: Lovelace
            mail: ada@example.com
            description: Mathematician and writer, chiefly known for her work on Charles
              Babbage's proposed mechanical general-purpose computer, the Analytical Eng
             ine.
            userPassword:: e1NTSEF9VzZwaDVNbTVQejhHZ2lVTGJQZ3pHMzdtajlnL2NFRm4=
            jpegPhoto:: /9j/4AAQSkZJRgABAQAAAQABAAAAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRob
             HB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/QEFCQ0RFRkdISUpLTE1OT//Z

            dn:: Y249Wm/DqyDDhW5nc3Ryw7ZtLG91PXBlb3BsZSxkYz1leGFtcGxlLGRjPWNvbQ==
            objectClass: inetOrgPerson
            cn:: Wm/DqyDDhW5nc3Ryw7Zt
            cn;lang-en: Zoe Angstrom
            sn:: w4VuZ3N0csO2bQ==
            displayName:: IFpvZQ==


            """
        let records = try LDIFReader(text: output).records()
        let people = try DistinguishedName(parsing: "ou=people,dc=example,dc=com")
        let photo: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)
            + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00] + (0..<80).map { UInt8($0) } + [0xFF, 0xD9]
        var ada = LDAPEntry(dn: people.child("uid", "ada"), [
            "objectClass": ["inetOrgPerson"],
            "uid": ["ada"],
            "cn": ["Ada Lovelace"],
            "sn": ["Lovelace"],
            "mail": ["ada@example.com"],
            "description": [
                "Mathematician and writer, chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.",
            ],
            "userPassword": ["{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g/cEFn"],
        ])
        ada.attributes.append(LDAPAttribute(name: "jpegPhoto", values: [LDAPValue(bytes: photo)]))
        #expect(records == [
            .content(LDAPEntry(dn: try DistinguishedName(parsing: "dc=example,dc=com"), [
                "objectClass": ["top", "dcObject", "organization"], "o": ["Example"], "dc": ["example"],
            ])),
            .content(LDAPEntry(dn: people, ["objectClass": ["organizationalUnit"], "ou": ["people"]])),
            .content(ada),
            .content(LDAPEntry(dn: people.child("cn", "Zoë Ångström"), [
                "objectClass": ["inetOrgPerson"],
                "cn": ["Zoë Ångström"],
                "cn;lang-en": ["Zoe Angstrom"],
                "sn": ["Ångström"],
                "displayName": [" Zoe"],
            ])),
        ])
    }

    @Test("DNs only (attribute 1.1), then the root DSE with operational attributes")
    func namesOnlyAndRootDSE() throws {
        let output = """
            dn: uid=ada,ou=people,dc=example,dc=com

            dn: uid=bob,ou=people,dc=example,dc=com

            dn:
            objectClass: top
            objectClass: OpenLDAProotDSE
            namingContexts: dc=example,dc=com
            supportedControl: 1.2.840.113556.1.4.319
            supportedControl: 1.3.6.1.1.12
            supportedLDAPVersion: 3
            entryDN:
            subschemaSubentry: cn=Subschema

            """
        let records = try LDIFReader(text: output).records()
        #expect(records == [
            .content(LDAPEntry(dn: try DistinguishedName(parsing: "uid=ada,ou=people,dc=example,dc=com"))),
            .content(LDAPEntry(dn: try DistinguishedName(parsing: "uid=bob,ou=people,dc=example,dc=com"))),
            .content(LDAPEntry(dn: .root, [
                "objectClass": ["top", "OpenLDAProotDSE"],
                "namingContexts": ["dc=example,dc=com"],
                "supportedControl": ["1.2.840.113556.1.4.319", "1.3.6.1.1.12"],
                "supportedLDAPVersion": ["3"],
                "entryDN": [""],
                "subschemaSubentry": ["cn=Subschema"],
            ])),
        ])
        let written = records.flatMap(LDIFWriter.write)
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("dn: uid=ada,ou=people,dc=example,dc=com\n\ndn: uid=bob"))
        #expect(try LDIFReader(bytes: written).records() == records)
    }
}
