@testable import LDAPBook
import LDAPKit
import Testing

/// A small schema in the server's own words: enough of core, cosine,
/// inetorgperson and ldapbook's schema for name resolution.
func fieldTestSchema(withLDAPBook: Bool) throws -> LDAPSchema {
    var attributeTypes: [String] = [
        "( 2.5.4.41 NAME 'name' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{32768} )",
        "( 2.5.4.42 NAME ( 'givenName' 'gn' ) SUP name )",
        "( 2.5.4.4 NAME ( 'sn' 'surname' ) SUP name )",
        "( 2.5.4.3 NAME ( 'cn' 'commonName' ) SUP name )",
        "( 0.9.2342.19200300.100.1.3 NAME ( 'mail' 'rfc822Mailbox' ) EQUALITY caseIgnoreIA5Match SUBSTR caseIgnoreIA5SubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.26{256} )",
        "( 2.5.4.20 NAME 'telephoneNumber' EQUALITY telephoneNumberMatch SUBSTR telephoneNumberSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.50{32} )",
        "( 0.9.2342.19200300.100.1.41 NAME ( 'mobile' 'mobileTelephoneNumber' ) EQUALITY telephoneNumberMatch SUBSTR telephoneNumberSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.50 )",
        "( 0.9.2342.19200300.100.1.60 NAME 'jpegPhoto' SYNTAX 1.3.6.1.4.1.1466.115.121.1.28 )",
        "( 0.9.2342.19200300.100.1.7 NAME 'photo' SYNTAX 1.3.6.1.4.1.1466.115.121.1.23{25000} )",
        "( 0.9.2342.19200300.100.1.6 NAME 'roomNumber' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{256} )",
        "( 2.16.840.1.113730.3.1.241 NAME 'displayName' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )",
        "( 2.16.840.1.113730.3.1.3 NAME 'employeeNumber' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )",
        "( 0.9.2342.19200300.100.1.10 NAME 'manager' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )",
        "( 1.3.6.1.1.16.4 NAME 'entryUUID' EQUALITY UUIDMatch ORDERING UUIDOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE NO-USER-MODIFICATION USAGE directoryOperation )",
    ]
    var objectClasses = [
        "( 2.16.840.1.113730.3.2.2 NAME 'inetOrgPerson' SUP organizationalPerson STRUCTURAL MAY ( mail $ jpegPhoto $ photo $ roomNumber $ displayName $ employeeNumber $ manager $ mobile ) )",
    ]
    if withLDAPBook {
        let arc = "2.25.119809854302968221014165294092806872539"
        attributeTypes += [
            "( \(arc).1.1 NAME 'ldapbookNickname' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
            "( \(arc).1.2 NAME 'ldapbookBirthday' EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )",
            "( \(arc).1.3 NAME 'ldapbookAnniversary' EQUALITY caseExactIA5Match SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE )",
            "( \(arc).1.4 NAME 'ldapbookIM' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
            "( \(arc).1.5 NAME 'ldapbookRelatedName' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
            "( \(arc).1.6 NAME 'ldapbookCustomField' EQUALITY caseExactMatch SUBSTR caseExactSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
        ]
        objectClasses.append("( \(arc).2.1 NAME 'ldapbookPerson' SUP top AUXILIARY MAY ( ldapbookNickname $ ldapbookBirthday $ ldapbookAnniversary $ ldapbookIM $ ldapbookRelatedName $ ldapbookCustomField ) )")
    }
    var entry = LDAPEntry(dn: try DistinguishedName(parsing: "cn=Subschema"))
    entry["attributeTypes"] = attributeTypes.map { LDAPValue($0) }
    entry["objectClasses"] = objectClasses.map { LDAPValue($0) }
    return try LDAPSchema(subschema: entry)
}

@Suite("Resolving field names")
struct FieldRegistryTests {
    @Test("built-in names and aliases resolve case-insensitively to their attributes", arguments: [
        ("email", "mail", FieldKind.email), ("E-Mail", "mail", .email), ("phone", "telephoneNumber", .phone),
        ("TEL", "telephoneNumber", .phone), ("mobile", "mobile", .phone), ("photo", "jpegPhoto", .photo),
        ("display-name", "displayName", .text), ("manager", "manager", .distinguishedName),
        ("Birthday", "ldapbookBirthday", .date), ("nickname", "ldapbookNickname", .text),
        ("im", "ldapbookIM", .url),
    ])
    func builtInNames(_ name: String, _ attribute: String, _ kind: FieldKind) throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        let field = try registry.field(named: name)
        #expect(field.attribute == attribute)
        #expect(field.kind == kind)
        #expect(field.origin == .builtIn)
    }

    @Test("single-valuedness comes from the server's schema")
    func singleValued() throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        #expect(try registry.field(named: "display-name").isSingleValued)
        #expect(try registry.field(named: "employee-number").isSingleValued)
        #expect(try registry.field(named: "birthday").isSingleValued)
        #expect(try !registry.field(named: "email").isSingleValued)
    }

    @Test("any attribute of the server's schema works by any of its names")
    func schemaAttributes() throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        let room = try registry.field(named: "roomnumber")
        #expect(room.attribute == "roomNumber")
        #expect(room.origin == .directorySchema)
        #expect(room.kind == .text)
        #expect(room.presenceFilter == .present("roomNumber"))
        #expect(try registry.field(named: "rfc822Mailbox").attribute == "mail")
        #expect(try registry.field(named: "gn").attribute == "givenName")
    }

    @Test("anything else is a custom field kept as name=value")
    func customFields() throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        let shoe = try registry.field(named: "Shoe-Size")
        #expect(shoe.origin == .custom)
        #expect(shoe.attribute == "ldapbookCustomField")
        #expect(shoe.customKey == "shoe-size")
        #expect(shoe.needsLDAPBookClass)
        #expect(shoe.presenceFilter.rendered == "(ldapbookCustomField=shoe-size=*)")
        #expect(shoe.prefixFilter("4*").rendered == "(ldapbookCustomField=shoe-size=4\\2a*)")
        #expect(shoe.stored("44") == "shoe-size=44")

        var entry = LDAPEntry(dn: .root)
        entry["ldapbookCustomField"] = ["shoe-size=44", "shoe-size=45 (boots)", "hat=L", "shoe-sizes=no"]
        #expect(shoe.values(in: entry) == ["44", "45 (boots)"])
    }

    @Test("bad field names are refused", arguments: ["", "  ", "a=b", "shoe size", "-x", "x\u{0}", String(repeating: "x", count: 65)])
    func badNames(_ name: String) throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        #expect(throws: AddressBookError.self) { try registry.field(named: name) }
    }

    @Test("operational attributes and the custom-field attribute itself are not fields")
    func notFields() throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        let operational = #expect(throws: AddressBookError.self) { try registry.field(named: "entryUUID") }
        #expect(operational?.code == .invalidFieldName)
        #expect(throws: AddressBookError.self) { try registry.field(named: "ldapbookCustomField") }
    }

    @Test("without ldapbook's schema, standard fields work and custom ones say what to install")
    func schemaMissing() throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: false))
        #expect(!registry.hasLDAPBookSchema)
        #expect(try registry.field(named: "email").attribute == "mail")
        #expect(try registry.field(named: "roomNumber").attribute == "roomNumber")
        let custom = #expect(throws: AddressBookError.self) { try registry.field(named: "shoe-size") }
        #expect(custom?.code == .schemaMissing)
        #expect(custom?.message.contains("ldapbook.ldif") == true)
        let nickname = #expect(throws: AddressBookError.self) { try registry.field(named: "nickname") }
        #expect(nickname?.code == .schemaMissing)
    }

    @Test("without the schema, an entry's attributes are the built-in fields or known by their own names, never custom fields")
    func builtInRegistry() throws {
        func person(_ attributes: KeyValuePairs<String, String>) throws -> Person {
            var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=ada,dc=example,dc=com"))
            for (name, value) in attributes { entry[name] = [LDAPValue(value)] }
            return Person(entry: entry)
        }
        func json(_ person: Person, _ registry: FieldRegistry) -> String {
            var writer = JSONWriter()
            person.writeJSON(to: &writer, registry: registry)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        // What find shows as JSON without --field is the same with and without the schema
        // (the attributes the test schema has).
        let ada = try person(["givenName": "Ada", "sn": "Lovelace", "cn": "Ada Lovelace", "displayName": "Ada, Countess",
                              "mail": "ada@example.com", "roomNumber": "B-12"])
        let withSchema = json(ada, FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true)))
        #expect(json(ada, .builtIn) == withSchema, "\(json(ada, .builtIn))\n\(withSchema)")
        #expect(withSchema.contains(#""cn":["Ada Lovelace"]"#) && withSchema.contains(#""roomNumber":["B-12"]"#))
        let details = json(try person(["title": "Analyst", "ou": "Engines", "o": "Babbage & Co"]), .builtIn)
        #expect(details.contains(#""title":["Analyst"],"department":["Engines"],"organization":["Babbage & Co"]"#), "\(details)")
        guard case .unknown = FieldRegistry.builtIn.storedField("roomNumber") else {
            Issue.record("an attribute without the schema is no custom field")
            return
        }
        // A field typed by name is still a custom field without the schema.
        #expect(try FieldRegistry.builtIn.field(named: "shoe-size").origin == .custom)
    }

    @Test("the known fields list built-ins first, then the other attributes a person may have")
    func knownFields() throws {
        let fields = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true)).knownFields
        #expect(fields.first?.name == "email")
        #expect(fields.contains { $0.name == "roomNumber" && $0.origin == .directorySchema })
        #expect(!fields.contains { $0.attribute == "entryUUID" })
        #expect(fields.filter { $0.attribute == "mail" }.count == 1)
        let names = fields.map { $0.name.lowercased() }
        #expect(names.count == Set(names).count, "each name once: \(names)")
        #expect(fields.first { $0.name == "photo" }?.attribute == "jpegPhoto", "photo is the built-in, in jpegPhoto")
    }

    @Test("validation names the field and the rule, and counts values of single-valued fields")
    func validation() throws {
        let registry = FieldRegistry(schema: try fieldTestSchema(withLDAPBook: true))
        let email = try registry.field(named: "email")
        let invalid = #expect(throws: AddressBookError.self) { try email.validate(["ada@example.com", "not-an-address"]) }
        #expect(invalid?.code == .invalidValue)
        #expect(invalid?.message.hasPrefix("email:") == true)
        let birthday = try registry.field(named: "birthday")
        let two = #expect(throws: AddressBookError.self) { try birthday.validate(["1815-12-10", "1815-12-11"]) }
        #expect(two?.code == .tooManyValues)
        try birthday.validate(["1815-12-10"])
    }
}
