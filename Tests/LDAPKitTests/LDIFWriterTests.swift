import Testing
@testable import LDAPKit

@Suite("LDIF: writing")
struct LDIFWriterTests {
    @Test("A content record: the dn line, a line per value, an empty line")
    func contentRecord() throws {
        let entry = LDAPEntry(dn: try DistinguishedName(parsing: "cn=Ada Lovelace,ou=people,dc=example,dc=com"), [
            "objectClass": ["top", "inetOrgPerson"],
            "cn;lang-en": ["Ada Lovelace"],
            "description": [],
            "mail": ["ada@example.com"],
        ])
        #expect(text(LDIFWriter.write(entry)) == """
            dn: cn=Ada Lovelace,ou=people,dc=example,dc=com
            objectClass: top
            objectClass: inetOrgPerson
            cn;lang-en: Ada Lovelace
            mail: ada@example.com


            """)
        #expect(LDIFWriter.write(.content(entry)) == LDIFWriter.write(entry))
    }

    @Test("Appending to a buffer: after what it holds, only the attributes asked for, the same lines as write")
    func appending() throws {
        let entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=ada,ou=people,dc=example,dc=com"), [
            "objectClass": ["inetOrgPerson"], "cn": ["Ada Lovelace"], "userPassword": ["{SSHA}x"],
            "entryUUID": ["5a2289e1-eada-406a-9edf-b89c54d15ddb"], "mail": ["ada@example.com"],
        ])
        var output = Array("# people\n".utf8)
        LDIFWriter.append(entry, to: &output) { !$0.isNamed("userPassword") && !$0.isNamed("entryUUID") }
        LDIFWriter.append(entry, to: &output)
        #expect(text(output) == "# people\n" + """
            dn: uid=ada,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            cn: Ada Lovelace
            mail: ada@example.com


            """ + text(LDIFWriter.write(entry)))
        // A changetype attribute first is moved behind the first other one, as write does.
        let tricky = LDAPEntry(dn: try DistinguishedName(parsing: "cn=x"), [
            "secret": ["s"], "changetype": ["add"], "cn": ["x"],
        ])
        var filtered: [UInt8] = []
        LDIFWriter.append(tricky, to: &filtered) { !$0.isNamed("secret") }
        #expect(text(filtered) == "dn: cn=x\ncn: x\nchangetype: add\n\n")
    }

    @Test("Attribute descriptions: a name or numeric OID, then options of letters, digits and hyphens", arguments: [
        ("cn", true), ("cn;lang-de", true), ("userCertificate;binary", true), ("cn;lang-de;x-1", true), ("2.5.4.3", true),
        ("2.5.4.3;binary", true), ("x-Custom-1", true), ("", false), ("cn;", false), (";binary", false), ("cn;;x", false),
        ("cn;la ng", false), ("c n", false), ("1cn", false), ("2.05.4", false), ("2.", false), ("2", false),
        ("cn\nmail", false), ("cn:", false), ("ç", false), ("cn;lang_de", false),
    ])
    func attributeDescriptions(description: String, valid: Bool) {
        #expect(StringRepresentation.isAttributeDescription(description) == valid)
    }

    @Test("The version line")
    func versionLine() {
        #expect(text(LDIFWriter.versionLine) == "version: 1\n\n")
    }

    static let valueLines: [(value: [UInt8], line: String)] = [
        (Array("plain text, with: a colon inside".utf8), "v: plain text, with: a colon inside"),
        ([], "v:"),
        (Array(" leading".utf8), "v:: IGxlYWRpbmc="),
        (Array("trailing ".utf8), "v:: dHJhaWxpbmcg"),
        (Array(":colon".utf8), "v:: OmNvbG9u"),
        (Array("<less".utf8), "v:: PGxlc3M="),
        (Array("#hash is fine".utf8), "v: #hash is fine"),
        (Array("tab\there".utf8), "v:: dGFiCWhlcmU="),
        (Array("Zoë".utf8), "v:: Wm/Dqw=="),
        (Array("line\nbreak".utf8), "v:: bGluZQpicmVhaw=="),
        (Array("nul\0byte".utf8), "v:: bnVsAGJ5dGU="),
        (Array("cr\rhere".utf8), "v:: Y3INaGVyZQ=="),
        (Array("del\u{7F}".utf8), "v:: ZGVsfw=="),
        ([0x30, 0x03, 0x02, 0x01, 0x05], "v:: MAMCAQU="),
    ]

    @Test("Values are written plainly only when that reads back unchanged", arguments: valueLines)
    func valueEncoding(value: [UInt8], line: String) throws {
        let entry = LDAPEntry(dn: .root, attributes: [LDAPAttribute(name: "v", values: [LDAPValue(bytes: value)])])
        #expect(text(LDIFWriter.write(entry)) == "dn:\n\(line)\n\n")
    }

    @Test("DNs and new RDNs that are not printable ASCII are written in base64")
    func distinguishedNamesInBase64() throws {
        let zoe = try DistinguishedName(parsing: "cn=Zoë Ångström,dc=example,dc=com")
        #expect(text(LDIFWriter.write(LDAPEntry(dn: zoe, ["cn": ["x"]]))) == """
            dn:: Y249Wm/DqyDDhW5nc3Ryw7ZtLGRjPWV4YW1wbGUsZGM9Y29t
            cn: x


            """)
        let rename = LDIFRecord.rename(
            try DistinguishedName(parsing: "cn=Zoe,dc=example"),
            newRDN: RelativeDistinguishedName(type: "cn", value: "Zoë"),
            deleteOldRDN: true
        )
        #expect(text(LDIFWriter.write(rename)).contains("\nnewrdn:: Y249Wm/Dqw==\n"))
    }

    @Test("Change records: controls, changetype, modification blocks ended by '-'")
    func changeRecords() throws {
        let dn = try DistinguishedName(parsing: "uid=ada,ou=people,dc=example,dc=com")
        let records: [LDIFRecord] = [
            .add(LDAPEntry(dn: dn, ["objectClass": ["inetOrgPerson"], "uid": ["ada"]]),
                 controls: [LDAPControl(oid: "1.3.6.1.1.13.2", isCritical: true, value: [0x30, 0x03, 0x02, 0x01, 0x05])]),
            .delete(dn, controls: [LDAPControl(oid: LDAPControl.OID.treeDelete, isCritical: true)]),
            .modify(dn, [
                .add("mail", "ada@example.com", "countess@example.com"),
                .delete("description"),
                .replace("telephoneNumber", "+44 20 7946 0000"),
                .increment("uidNumber", by: 2),
            ], controls: [LDAPControl(oid: "1.2.3.4", value: Array("text".utf8))]),
            .rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "lovelace"), deleteOldRDN: false,
                    newSuperior: try DistinguishedName(parsing: "ou=alumni,dc=example,dc=com")),
            .rename(dn, newRDN: RelativeDistinguishedName(type: "uid", value: "lovelace"), deleteOldRDN: true),
        ]
        #expect(text(records.flatMap(LDIFWriter.write)) == """
            dn: uid=ada,ou=people,dc=example,dc=com
            control: 1.3.6.1.1.13.2 true:: MAMCAQU=
            changetype: add
            objectClass: inetOrgPerson
            uid: ada

            dn: uid=ada,ou=people,dc=example,dc=com
            control: 1.2.840.113556.1.4.805 true
            changetype: delete

            dn: uid=ada,ou=people,dc=example,dc=com
            control: 1.2.3.4 false: text
            changetype: modify
            add: mail
            mail: ada@example.com
            mail: countess@example.com
            -
            delete: description
            -
            replace: telephoneNumber
            telephoneNumber: +44 20 7946 0000
            -
            increment: uidNumber
            uidNumber: 2
            -

            dn: uid=ada,ou=people,dc=example,dc=com
            changetype: modrdn
            newrdn: uid=lovelace
            deleteoldrdn: 0
            newsuperior: ou=alumni,dc=example,dc=com

            dn: uid=ada,ou=people,dc=example,dc=com
            changetype: modrdn
            newrdn: uid=lovelace
            deleteoldrdn: 1


            """)
        #expect(try LDIFReader(bytes: records.flatMap(LDIFWriter.write)).records() == records)
    }

    @Test("Long lines are folded at 76 bytes, continuations starting with one space")
    func folding() throws {
        let value = String((0..<300).map { Character(Unicode.Scalar(UInt8(0x21 + $0 % 90))) })
        let entry = LDAPEntry(dn: try DistinguishedName(parsing: "cn=x"), ["description": [value]])
        let written = text(LDIFWriter.write(entry))
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast(2)
        let logical = "description: " + value
        #expect(lines.map(\.utf8.count) == [76, 76, 76, 76, logical.utf8.count - 76 - 3 * 75 + 1])
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines.first! + lines.dropFirst().map { $0.dropFirst() }.joined() == logical)
        #expect(try LDIFReader(text: written).records() == [.content(entry)])
    }

    @Test("A line of exactly 76 bytes is not folded; one of 77 is")
    func foldingBoundary() throws {
        for (length, expectedLines) in [(76, 1), (77, 2)] {
            let value = String(repeating: "a", count: length - "description: ".count)
            let entry = LDAPEntry(dn: .root, ["description": [value]])
            let lines = text(LDIFWriter.write(entry)).split(separator: "\n")
            #expect(lines.count - 1 == expectedLines)
        }
    }

    @Test("Folding never splits a UTF-8 sequence")
    func foldingKeepsCharactersWhole() throws {
        for prefix in 0..<4 {
            var output = LDIFOutput()
            output.appendLine(String(repeating: "x", count: prefix) + String(repeating: "é€😀", count: 40))
            let lines = output.bytes.split(separator: UInt8(ascii: "\n"))
            #expect(lines.count > 2)
            for (index, line) in lines.enumerated() {
                #expect(line.count <= 76)
                let content = index == 0 ? line : line.dropFirst()
                #expect(String(validating: content, as: UTF8.self) != nil)
            }
        }
    }

    @Test("An attribute name that could break the LDIF apart stops the program instead")
    func invalidAttributeNames() async {
        await #expect(processExitsWith: .failure) {
            let entry = LDAPEntry(dn: .root, attributes: [LDAPAttribute(name: "cn\ndn: cn=injected", values: ["x"])])
            _ = LDIFWriter.write(entry)
        }
        await #expect(processExitsWith: .failure) {
            _ = LDIFWriter.write(.modify(.root, [.replace("mail: x", "y")]))
        }
        await #expect(processExitsWith: .failure) {
            _ = LDIFWriter.write(.delete(.root, controls: [LDAPControl(oid: "1.2.3 true\nchangetype: add")]))
        }
    }

    @Test("An entry whose changetype attribute would come first is written with another attribute first")
    func changeTypeAttributeIsNotFirst() throws {
        let entry = LDAPEntry(dn: try DistinguishedName(parsing: "changeNumber=7,cn=changelog"), [
            "changeType": ["delete"],
            "objectClass": ["changeLogEntry"],
            "changeNumber": ["7"],
        ])
        let written = LDIFWriter.write(entry)
        #expect(text(written) == """
            dn: changeNumber=7,cn=changelog
            objectClass: changeLogEntry
            changeType: delete
            changeNumber: 7


            """)
        let records = try LDIFReader(bytes: written).records()
        #expect(records.count == 1)
        guard case .content(let readBack) = records.first else {
            Issue.record("expected a content record, read \(records)")
            return
        }
        #expect(Set(readBack.attributes) == Set(entry.attributes))
    }
}

/// `bytes` as text, for comparing with expected LDIF.
private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}
