@testable import LDAPBook
import LDAPKit
import Testing

/// The schema a CSV export meets: names, a built-in field, a schema attribute, uid, a
/// reference, a photo, a password, and ldapbook's custom fields.
private func csvRegistry() throws -> FieldRegistry {
    let text = "EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15"
    var entry = LDAPEntry(dn: try DistinguishedName(parsing: "cn=Subschema"))
    entry["attributeTypes"] = [String]([
        "( 2.5.4.41 NAME 'name' \(text) )", "( 2.5.4.42 NAME ( 'givenName' 'gn' ) SUP name )",
        "( 2.5.4.4 NAME ( 'sn' 'surname' ) SUP name )", "( 2.5.4.3 NAME ( 'cn' 'commonName' ) SUP name )",
        "( 0.9.2342.19200300.100.1.3 NAME 'mail' EQUALITY caseIgnoreIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 )",
        "( 2.5.4.20 NAME 'telephoneNumber' EQUALITY telephoneNumberMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.50 )",
        "( 0.9.2342.19200300.100.1.1 NAME ( 'uid' 'userid' ) \(text) )",
        "( 0.9.2342.19200300.100.1.6 NAME 'roomNumber' \(text) )", "( 2.5.4.9 NAME ( 'street' 'streetAddress' ) \(text) )",
        "( 0.9.2342.19200300.100.1.10 NAME 'manager' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )",
        "( 0.9.2342.19200300.100.1.60 NAME 'jpegPhoto' SYNTAX 1.3.6.1.4.1.1466.115.121.1.28 )",
        "( 2.5.4.35 NAME 'userPassword' EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 )",
        "( 1.3.6.1.1.16.4 NAME 'entryUUID' EQUALITY UUIDMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE NO-USER-MODIFICATION USAGE directoryOperation )",
        "( 2.25.119809854302968221014165294092806872539.1.6 NAME 'ldapbookCustomField' EQUALITY caseExactMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
    ]).map { LDAPValue($0) }
    entry["objectClasses"] = [
        "( 2.16.840.1.113730.3.2.2 NAME 'inetOrgPerson' SUP top STRUCTURAL MAY ( cn $ sn $ givenName $ mail $ telephoneNumber $ uid $ roomNumber $ street $ manager $ jpegPhoto $ userPassword ) )",
        "( 2.25.119809854302968221014165294092806872539.2.1 NAME 'ldapbookPerson' SUP top AUXILIARY MAY ldapbookCustomField )",
    ]
    return FieldRegistry(schema: try LDAPSchema(subschema: entry))
}

private func person(_ dn: String, _ attributes: KeyValuePairs<String, [String]>) throws -> Person {
    Person(entry: LDAPEntry(dn: try DistinguishedName(parsing: dn), attributes))
}

/// The CSV of `people`, as an export writes it: rows first, then the header and the lines.
private func csv(_ people: [Person], registry: FieldRegistry) -> String {
    var table = CSVExport(registry: registry)
    var rows: [[UInt8]] = []
    for person in people {
        var row: [UInt8] = []
        table.appendRow(person, to: &row)
        rows.append(row)
    }
    var text = table.header()
    let positions = table.positions()
    for row in rows { CSVExport.appendLine(row: row[...], positions: positions, to: &text) }
    return String(decoding: text, as: UTF8.self)
}

@Suite("People as CSV")
struct CSVExportTests {
    @Test("a column for each text field anyone has: built-in fields in their order, then other attributes and custom fields by name")
    func columns() throws {
        let registry = try csvRegistry()
        let people = [
            try person("uid=ada,ou=people,dc=example", [
                "objectClass": ["inetOrgPerson", "ldapbookPerson"], "uid": ["ada"], "cn": ["Ada Lovelace"], "sn": ["Lovelace"],
                "roomNumber": ["42"], "ldapbookCustomField": ["shoe-size=38", "vcard-uid=urn:uuid:1", "Hat=L"],
                "userPassword": ["{SSHA}secret"], "jpegPhoto": ["\u{FF}"], "manager": ["uid=babbage,ou=people,dc=example"],
                "entryUUID": ["5a2289e1-eada-406a-9edf-b89c54d15ddb"],
            ]),
            try person("uid=alan,ou=people,dc=example", [
                "cn": ["Alan Turing"], "sn": ["Turing"], "mail": ["alan@example.org", "at@example.org"],
                "telephoneNumber": ["+44 1908 640404"], "street": ["Bletchley Park, Sherwood Drive"],
                "ldapbookCustomField": ["bike=yes", "shoe-size=44"],
            ]),
        ]
        let text = csv(people, registry: registry)
        #expect(text == """
            dn,email,phone,surname,cn,roomNumber,street,hat,bike,shoe-size\r
            "uid=ada,ou=people,dc=example",,,Lovelace,Ada Lovelace,42,,,,38\r
            "uid=alan,ou=people,dc=example",alan@example.org; at@example.org,"'+44 1908 640404",Turing,Alan Turing,,"Bletchley Park, Sherwood Drive",,yes,44\r

            """)
        #expect(!text.contains("secret") && !text.contains("babbage") && !text.contains("5a2289e1"))
    }

    @Test("cells: quotes doubled and quoted, line breaks quoted, formulas made text with a leading '", arguments: [
        ("plain", "plain"), ("a, b", "\"a, b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("=1+1", "\"'=1+1\""), ("-1", "\"'-1\""), ("@SUM(1)", "\"'@SUM(1)\""), ("+x", "\"'+x\""), ("\tx", "\"'\tx\""),
        ("=\"a\"", "\"'=\"\"a\"\"\""), ("", ""),
    ])
    func cells(value: String, cell: String) throws {
        let registry = try csvRegistry()
        let text = csv([try person("uid=x,dc=example", ["roomNumber": [value]])], registry: registry)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines[1] == "\"uid=x,dc=example\",\(cell)")
    }

    @Test("nobody: the dn column alone")
    func nobody() throws {
        #expect(csv([], registry: try csvRegistry()) == "dn\r\n")
    }
}
