import LDAPKit
import Testing

@Suite("LDIF: change records and controls")
struct LDIFChangeRecordTests {
    private let dn: DistinguishedName

    init() throws {
        dn = try DistinguishedName(parsing: "uid=ada,ou=people,dc=example,dc=com")
    }

    @Test("Keywords are read ignoring case, and moddn is modrdn")
    func keywordCase() throws {
        let ldif = """
            dn: uid=ada,ou=people,dc=example,dc=com
            changeType: Modify
            ADD: mail
            MAIL: ada@example.com
            -\u{20}\u{20}
            Increment: uidNumber
            uidNumber: 5
            -

            DN: uid=ada,ou=people,dc=example,dc=com
            CHANGETYPE: moddn
            NewRDN: uid=lovelace
            DeleteOldRDN: 0
            NewSuperior:: b3U9YWx1bW5pLGRjPWV4YW1wbGUsZGM9Y29t
            """
        #expect(try LDIFReader(text: ldif).records() == [
            .modify(dn, [.add("mail", "ada@example.com"), .increment("uidNumber", by: 5)]),
            .rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "lovelace"), deleteOldRDN: false,
                    newSuperior: try DistinguishedName(parsing: "ou=alumni,dc=example,dc=com")),
        ])
    }

    @Test("Control lines: criticality and values written plainly, in base64 or absent")
    func controls() throws {
        let ldif = """
            dn: uid=ada,ou=people,dc=example,dc=com
            control: 1.2.3
            control: 1.2.4 false
            control: 1.2.5 true: plain value
            control: 1.2.6:: AAEC
            control: 1.2.7 TRUE::AAEC
            control:1.2.8 False:
            changetype: delete
            """
        let records = try LDIFReader(text: ldif).records()
        #expect(records == [
            .delete(dn, controls: [
                LDAPControl(oid: "1.2.3"),
                LDAPControl(oid: "1.2.4", isCritical: false),
                LDAPControl(oid: "1.2.5", isCritical: true, value: Array("plain value".utf8)),
                LDAPControl(oid: "1.2.6", value: [0, 1, 2]),
                LDAPControl(oid: "1.2.7", isCritical: true, value: [0, 1, 2]),
                LDAPControl(oid: "1.2.8", value: []),
            ]),
        ])
        #expect(records.first?.controls.count == 6)
    }

    @Test("Control lines not followed by changetype are attribute values of a content record")
    func controlAttribute() throws {
        let ldif = "dn: uid=ada,ou=people,dc=example,dc=com\ncontrol: 1.2.3 true\ncn: Ada\n"
        #expect(try LDIFReader(text: ldif).records() == [
            .content(LDAPEntry(dn: dn, ["control": ["1.2.3 true"], "cn": ["Ada"]])),
        ])
    }

    @Test("Edge cases the grammar allows: no modifications, empty newsuperior, an add without attributes")
    func edgeCases() throws {
        let ldif = """
            dn: uid=ada,ou=people,dc=example,dc=com
            changetype: modify

            dn: uid=ada,ou=people,dc=example,dc=com
            changetype: modrdn
            newrdn: uid=ada
            deleteoldrdn: 1
            newsuperior:

            dn: uid=ada,ou=people,dc=example,dc=com
            changetype: add

            dn: uid=ada,ou=people,dc=example,dc=com
            changetype: modify
            replace: Mail
            mail: a@example.com
            MAIL: b@example.com
            -
            delete: jpegPhoto
            jpegPhoto:: /9j/
            -
            """
        #expect(try LDIFReader(text: ldif).records() == [
            .modify(dn, []),
            .rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "ada"), deleteOldRDN: true, newSuperior: .root),
            .add(LDAPEntry(dn: dn)),
            .modify(dn, [
                .replace("Mail", "a@example.com", "b@example.com"),
                .delete("jpegPhoto", LDAPValue(bytes: [0xFF, 0xD8, 0xFF])),
            ]),
        ])
    }

    @Test("A record's DN, controls and kind")
    func accessors() throws {
        let control = LDAPControl(oid: LDAPControl.OID.treeDelete, isCritical: true)
        let records: [LDIFRecord] = [
            .content(LDAPEntry(dn: dn)),
            .add(LDAPEntry(dn: dn), controls: [control]),
            .delete(dn, controls: [control]),
            .modify(dn, [.delete("mail")], controls: [control]),
            .rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "x"), deleteOldRDN: true, controls: [control]),
        ]
        #expect(records.map(\.dn) == Array(repeating: dn, count: 5))
        #expect(records.map(\.controls) == [[]] + Array(repeating: [control], count: 4))
        #expect(records.map(\.isChange) == [false, true, true, true, true])
    }

    @Test("Records are equal only with the same kind, parts and order")
    func equality() throws {
        let entry = LDAPEntry(dn: dn, ["cn": ["Ada"], "sn": ["Lovelace"]])
        let reordered = LDAPEntry(dn: dn, ["sn": ["Lovelace"], "cn": ["Ada"]])
        let uppercaseDN = LDAPEntry(dn: try DistinguishedName(parsing: "UID=ada,OU=people,DC=example,DC=com"),
                                    ["cn": ["Ada"], "sn": ["Lovelace"]])
        #expect(LDIFRecord.content(entry) == .content(uppercaseDN))
        #expect(Set([LDIFRecord.content(entry), .content(uppercaseDN)]).count == 1)
        #expect(LDIFRecord.content(entry) != .add(entry))
        #expect(LDIFRecord.content(entry) != .content(reordered))
        #expect(LDIFRecord.delete(dn) != .delete(dn, controls: [LDAPControl(oid: "1.2.3")]))
        #expect(LDIFRecord.modify(dn, [.delete("cn")]) != .modify(dn, [.delete("sn")]))
        #expect(LDIFRecord.rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "x"), deleteOldRDN: true)
            != .rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "x"), deleteOldRDN: false))
    }
}
