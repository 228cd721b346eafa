@testable import LDAPBook
import LDAPKit
import Testing

/// A schema in the server's own words, with every attribute a person's card
/// touches: enough of core, cosine, inetorgperson and ldapbook's schema.
private func vCardTestRegistry(withLDAPBook: Bool = true) throws -> FieldRegistry {
    let directoryString = "EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15"
    let telephone = "EQUALITY telephoneNumberMatch SUBSTR telephoneNumberSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.50"
    var attributeTypes = [
        "( 2.5.4.41 NAME 'name' \(directoryString){32768} )",
        "( 2.5.4.3 NAME ( 'cn' 'commonName' ) SUP name )",
        "( 2.5.4.4 NAME ( 'sn' 'surname' ) SUP name )",
        "( 2.5.4.42 NAME ( 'givenName' 'gn' ) SUP name )",
        "( 2.5.4.10 NAME ( 'o' 'organizationName' ) SUP name )",
        "( 2.5.4.11 NAME ( 'ou' 'organizationalUnitName' ) SUP name )",
        "( 2.5.4.12 NAME 'title' SUP name )",
        "( 2.5.4.13 NAME 'description' \(directoryString){1024} )",
        "( 2.5.4.16 NAME 'postalAddress' EQUALITY caseIgnoreListMatch SUBSTR caseIgnoreListSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.41 )",
        "( 0.9.2342.19200300.100.1.39 NAME 'homePostalAddress' EQUALITY caseIgnoreListMatch SUBSTR caseIgnoreListSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.41 )",
        "( 2.5.4.20 NAME 'telephoneNumber' \(telephone){32} )",
        "( 2.5.4.23 NAME ( 'facsimileTelephoneNumber' 'fax' ) SYNTAX 1.3.6.1.4.1.1466.115.121.1.22 )",
        "( 0.9.2342.19200300.100.1.41 NAME ( 'mobile' 'mobileTelephoneNumber' ) \(telephone) )",
        "( 0.9.2342.19200300.100.1.20 NAME ( 'homePhone' 'homeTelephoneNumber' ) \(telephone) )",
        "( 0.9.2342.19200300.100.1.42 NAME ( 'pager' 'pagerTelephoneNumber' ) \(telephone) )",
        "( 0.9.2342.19200300.100.1.3 NAME ( 'mail' 'rfc822Mailbox' ) EQUALITY caseIgnoreIA5Match SUBSTR caseIgnoreIA5SubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.26{256} )",
        "( 0.9.2342.19200300.100.1.1 NAME ( 'uid' 'userid' ) \(directoryString){256} )",
        "( 0.9.2342.19200300.100.1.6 NAME 'roomNumber' \(directoryString){256} )",
        "( 0.9.2342.19200300.100.1.10 NAME 'manager' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )",
        "( 0.9.2342.19200300.100.1.60 NAME 'jpegPhoto' SYNTAX 1.3.6.1.4.1.1466.115.121.1.28 )",
        "( 1.3.6.1.4.1.250.1.57 NAME 'labeledURI' EQUALITY caseExactMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
        "( 2.16.840.1.113730.3.1.241 NAME 'displayName' \(directoryString) SINGLE-VALUE )",
        "( 2.16.840.1.113730.3.1.3 NAME 'employeeNumber' \(directoryString) SINGLE-VALUE )",
        "( 2.5.4.35 NAME 'userPassword' EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40{128} )",
        "( 1.3.6.1.1.16.4 NAME 'entryUUID' EQUALITY UUIDMatch ORDERING UUIDOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE NO-USER-MODIFICATION USAGE directoryOperation )",
    ]
    var objectClasses = [
        "( 2.16.840.1.113730.3.2.2 NAME 'inetOrgPerson' SUP organizationalPerson STRUCTURAL MAY ( mail $ jpegPhoto $ roomNumber $ displayName $ employeeNumber $ manager $ mobile $ homePhone $ pager $ labeledURI $ uid ) )",
    ]
    if withLDAPBook {
        let arc = "2.25.119809854302968221014165294092806872539"
        let ia5Date = "EQUALITY caseExactIA5Match SUBSTR caseExactIA5SubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 SINGLE-VALUE"
        attributeTypes += [
            "( \(arc).1.1 NAME 'ldapbookNickname' \(directoryString) )",
            "( \(arc).1.2 NAME 'ldapbookBirthday' \(ia5Date) )",
            "( \(arc).1.3 NAME 'ldapbookAnniversary' \(ia5Date) )",
            "( \(arc).1.4 NAME 'ldapbookIM' \(directoryString) )",
            "( \(arc).1.5 NAME 'ldapbookRelatedName' \(directoryString) )",
            "( \(arc).1.6 NAME 'ldapbookCustomField' EQUALITY caseExactMatch SUBSTR caseExactSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
        ]
        objectClasses.append("( \(arc).2.1 NAME 'ldapbookPerson' SUP top AUXILIARY MAY ( ldapbookNickname $ ldapbookBirthday $ ldapbookAnniversary $ ldapbookIM $ ldapbookRelatedName $ ldapbookCustomField ) )")
    }
    var subschema = LDAPEntry(dn: try DistinguishedName(parsing: "cn=Subschema"))
    subschema["attributeTypes"] = attributeTypes.map { LDAPValue($0) }
    subschema["objectClasses"] = objectClasses.map { LDAPValue($0) }
    return FieldRegistry(schema: try LDAPSchema(subschema: subschema))
}

/// JPEG-looking bytes with every byte value.
private let photoBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0...255).map(UInt8.init) + [0xFF, 0xD9]

/// Ada, with a value in every field a card holds.
private func ada(uuid: String? = "5A2289E1-EADA-406A-9EDF-B89C54D15DDB") throws -> Person {
    var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=ada.lovelace,ou=people,dc=example,dc=com"), [
        "objectClass": ["inetOrgPerson", "ldapbookPerson"],
        "uid": ["ada.lovelace"],
        "cn": ["Ada Lovelace"],
        "sn": ["Lovelace"],
        "givenName": ["Ada"],
        "displayName": ["Ada, Countess of Lovelace"],
        "mail": ["ada@example.com", "ada.lovelace@example.org"],
        "telephoneNumber": ["+44 20 7946 0000"],
        "mobile": ["+44 7700 900000"],
        "homePhone": ["+44 20 7946 0002"],
        "facsimileTelephoneNumber": ["+44 20 7946 0001"],
        "pager": ["+44 7700 900001"],
        "o": ["Analytical Engines Ltd", "Royal Society"],
        "ou": ["Research", "Mathematics; Poetry"],
        "title": ["Programmer", "Countess"],
        "labeledURI": ["https://example.com/ada Ada's page", "https://example.org/"],
        "description": ["First programmer, and a poet; of sorts.", "Notes\\on the Engine"],
        "postalAddress": ["12 St James's Square$London SW1Y 4JH$United Kingdom"],
        "homePostalAddress": ["Ockham Park$Ockham, Surrey$Tea costs \\2410 \\5C cup"],
        "ldapbookNickname": ["Ada", "The Enchantress of Numbers"],
        "ldapbookBirthday": ["1815-12-10"],
        "ldapbookAnniversary": ["--07-08"],
        "ldapbookIM": ["xmpp:ada@jabber.example", "matrix:u/ada:example.com"],
        "ldapbookRelatedName": ["spouse=William King", "parent=Lord Byron"],
        "manager": ["uid=babbage,ou=people,dc=example,dc=com"],
        "employeeNumber": ["1815"],
        "roomNumber": ["42"],
        "ldapbookCustomField": ["shoe-size=38", "Hat=L, or XL", "email=not the email field"],
    ])
    entry["jpegPhoto"] = [LDAPValue(bytes: photoBytes)]
    entry["userPassword"] = ["{SSHA}secret"]
    if let uuid { entry["entryUUID"] = [LDAPValue(uuid)] }
    return Person(entry: entry)
}

/// The attributes a new person's values go to, with their values as stored
/// (custom fields as `key=value`), keyed by lowercase attribute name.
private func storedAttributes(_ person: NewPerson) -> [String: [LDAPValue]] {
    var attributes: [String: [LDAPValue]] = [:]
    for (field, values) in person.values {
        attributes[field.attribute.lowercased(), default: []] += values.map(field.stored)
    }
    return attributes
}

/// A new person's values as text, keyed by field name.
private func fieldValues(_ person: NewPerson) -> [String: [String]] {
    Dictionary(person.values.map { ($0.field.name, $0.values.map(\.lossyString)) }, uniquingKeysWith: +)
}

/// The only card in `text`, mapped to a new person.
private func importOnly(_ text: String, registry: FieldRegistry? = nil) throws -> NewPerson {
    let results = VCardParser.newPeople(in: text, registry: try registry ?? vCardTestRegistry())
    try #require(results.count == 1)
    return try results[0].get()
}

/// The rendered content lines of a card's properties.
private func contentLines(_ card: VCard) -> [String] {
    card.properties.map { String(decoding: VCardWriter.contentLine($0), as: UTF8.self) }
}

@Suite("People as vCards")
struct VCardPersonTests {
    @Test("a person as a vCard 4.0 card")
    func version4() throws {
        let card = VCard(person: try ada(), registry: try vCardTestRegistry())
        let lines = contentLines(card)
        #expect(card.version == .v4)
        #expect(Array(lines.prefix(4)) == [#"FN:Ada\, Countess of Lovelace"#, "N:Lovelace;Ada;;;", "X-LDAPBOOK-CN:Ada Lovelace",
                                           #"X-LDAPBOOK-DISPLAY-NAME:Ada\, Countess of Lovelace"#])
        for expected in [
            "NICKNAME:Ada", "NICKNAME:The Enchantress of Numbers", "BDAY:18151210", "ANNIVERSARY:--0708",
            #"ORG:Analytical Engines Ltd;Research;Mathematics\; Poetry"#, "ORG:Royal Society", "TITLE:Programmer",
            "EMAIL:ada@example.com", "TEL;TYPE=work,voice:+44 20 7946 0000", "TEL;TYPE=cell:+44 7700 900000",
            "TEL;TYPE=home,voice:+44 20 7946 0002", "TEL;TYPE=work,fax:+44 20 7946 0001",
            "TEL;TYPE=pager:+44 7700 900001",
            #"ADR;TYPE=work;LABEL=12 St James's Square^nLondon SW1Y 4JH^nUnited Kingdom:;;12 St James's Square\nLondon SW1Y 4JH\nUnited Kingdom;;;;"#,
            #"ADR;TYPE=home;LABEL="Ockham Park^nOckham, Surrey^nTea costs $10 \ cup":;;Ockham Park\nOckham\, Surrey\nTea costs $10 \\ cup;;;;"#,
            "URL;X-LDAPBOOK-LABEL=Ada's page:https://example.com/ada", "URL:https://example.org/", "IMPP:xmpp:ada@jabber.example",
            "RELATED;TYPE=spouse;VALUE=text:William King", "RELATED;TYPE=parent;VALUE=text:Lord Byron",
            #"NOTE:First programmer\, and a poet\; of sorts."#, #"NOTE:Notes\\on the Engine"#,
            #"X-LDAPBOOK-MANAGER:uid=babbage\,ou=people\,dc=example\,dc=com"#, "X-LDAPBOOK-EMPLOYEE-NUMBER:1815",
            // Custom fields by their names, which other address books show; KEY keeps the name's case.
            "X-LDAPBOOK-ROOMNUMBER:42", "X-SHOE-SIZE;KEY=shoe-size:38", #"X-HAT;KEY=Hat:L\, or XL"#,
            "X-EMAIL;KEY=email:not the email field", "UID:urn:uuid:5a2289e1-eada-406a-9edf-b89c54d15ddb",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
        #expect(lines.contains { $0.hasPrefix("PHOTO;VALUE=uri:data:image/jpeg;base64,/9j/4AABAgMEBQYH") })
        #expect(!lines.contains { $0.contains("secret") || $0.hasPrefix("X-LDAPBOOK-UID") || $0.hasPrefix("LABEL") })
        #expect(card.properties(named: "PHOTO").first?.binaryValue == photoBytes)
    }

    @Test("a person as a vCard 3.0 card: uppercase types, TYPE=INTERNET, LABEL, X-ANNIVERSARY and X-EVOLUTION-ANNIVERSARY with a year, ENCODING=b")
    func version3() throws {
        let card = VCard(person: try ada(), registry: try vCardTestRegistry(), version: .v3)
        let lines = contentLines(card)
        #expect(card.version == .v3)
        for expected in [
            "BDAY:1815-12-10", "X-ANNIVERSARY;X-APPLE-OMIT-YEAR=1604:1604-07-08",
            "X-EVOLUTION-ANNIVERSARY;X-APPLE-OMIT-YEAR=1604:1604-07-08", "EMAIL;TYPE=INTERNET:ada@example.com",
            "TEL;TYPE=WORK,VOICE:+44 20 7946 0000", "TEL;TYPE=CELL:+44 7700 900000",
            #"ADR;TYPE=WORK:;;12 St James's Square\nLondon SW1Y 4JH\nUnited Kingdom;;;;"#,
            #"LABEL;TYPE=WORK:12 St James's Square\nLondon SW1Y 4JH\nUnited Kingdom"#,
            "RELATED;TYPE=SPOUSE;VALUE=text:William King", "UID:5a2289e1-eada-406a-9edf-b89c54d15ddb",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
        #expect(lines.contains { $0.hasPrefix("PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AABAgMEBQYH") })
        #expect(!lines.contains { $0.hasPrefix("ANNIVERSARY") })
    }

    @Test("a date without a year: --MMDD in vCard 4.0, Apple's X-APPLE-OMIT-YEAR in 3.0, and back", arguments: [
        ("--02-29", VCardVersion.v3, "BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29"),
        ("--10-15", .v3, "BDAY;X-APPLE-OMIT-YEAR=1604:1604-10-15"),
        ("--02-29", .v4, "BDAY:--0229"),
        ("1987-02-28", .v3, "BDAY:1987-02-28"),
        ("1987-02-28", .v4, "BDAY:19870228"),
    ])
    func yearlessDates(stored: String, version: VCardVersion, line: String) {
        let property = VCardDate.property(named: "BDAY", stored: stored, version: version)
        #expect(String(decoding: VCardWriter.contentLine(property), as: UTF8.self) == line)
        #expect(VCardDate.ldapValue(of: property) == stored)
    }

    @Test("what khard and Evolution need: VERSION right after BEGIN, FN, a five-part N, CRLF, UTF-8",
          arguments: VCardVersion.allCases)
    func readableElsewhere(_ version: VCardVersion) throws {
        var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=zoe,ou=people,dc=example,dc=com"))
        entry["sn"] = ["Ångström"]
        let text = VCardWriter.write(VCard(person: Person(entry: entry), registry: try vCardTestRegistry(), version: version))
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:\(version.rawValue)\r\nFN:Ångström\r\nN:Ångström;;;;\r\n"))
        #expect(text.hasSuffix("\r\nEND:VCARD\r\n"))
        #expect(!text.replacing("\r\n", with: "").contains("\n"))
    }

    @Test("without entryUUID, the UID is the entry's DN as text")
    func uidFromDN() throws {
        let person = try ada(uuid: nil)
        let v4 = contentLines(VCard(person: person, registry: try vCardTestRegistry()))
        #expect(v4.contains(#"UID;VALUE=text:uid=ada.lovelace\,ou=people\,dc=example\,dc=com"#))
        let v3 = contentLines(VCard(person: person, registry: try vCardTestRegistry(), version: .v3))
        #expect(v3.contains(#"UID:uid=ada.lovelace\,ou=people\,dc=example\,dc=com"#))
    }

    @Test("a person comes back field for field from a card of either version", arguments: VCardVersion.allCases)
    func roundTrip(_ version: VCardVersion) throws {
        let registry = try vCardTestRegistry()
        let person = try ada()
        let text = VCardWriter.write(VCard(person: person, registry: registry, version: version))
        let newPerson = try importOnly(text, registry: registry)

        #expect(newPerson.givenName == "Ada")
        #expect(newPerson.surname == "Lovelace")
        #expect(newPerson.commonNames == person.entry.strings("cn"))
        var expected: [String: [LDAPValue]] = [:]
        // The manager is a reference to another entry: an import writes it only when told to.
        let notFields: Set<String> = ["objectclass", "uid", "cn", "sn", "givenname", "entryuuid", "userpassword", "manager"]
        for attribute in person.entry.attributes where !notFields.contains(attribute.name.lowercased()) {
            expected[attribute.name.lowercased()] = attribute.values
        }
        let stored = storedAttributes(newPerson)
        #expect(stored == expected)
        #expect(Set(stored.keys) == Set(expected.keys))
        for key in expected.keys.sorted() {
            #expect(stored[key] == expected[key], "\(key)")
        }
        #expect(stored["jpegphoto"] == [LDAPValue(bytes: photoBytes)])

        let card = try VCardParser.cards(in: text)[0].get()
        let record = try card.importRecord(registry: registry)
        #expect(record.skipped == [SkippedAttribute("manager", .restricted(.reference), property: "X-LDAPBOOK-MANAGER")])
        #expect(record.cardUID == (version == .v4 ? "urn:uuid:5a2289e1-eada-406a-9edf-b89c54d15ddb" : "5a2289e1-eada-406a-9edf-b89c54d15ddb"))
        let withManager = try card.importRecord(registry: registry, writableReferences: ["manager"])
        #expect(withManager.skipped.isEmpty)
        #expect(storedAttributes(withManager.person)["manager"] == person.entry["manager"])
    }

    @Test("non-ASCII names survive the trip, and a family-first name stays the full name")
    func nonASCIINames() throws {
        let registry = try vCardTestRegistry()
        var yamada = LDAPEntry(dn: try DistinguishedName(parsing: "uid=yamada,ou=people,dc=example,dc=com"))
        yamada["cn"] = ["山田 太郎"]
        yamada["sn"] = ["山田"]
        yamada["givenName"] = ["太郎"]
        yamada["description"] = [LDAPValue(String(repeating: "山田太郎は東京に住んでいます。", count: 8))]
        for version in VCardVersion.allCases {
            let text = VCardWriter.write(VCard(person: Person(entry: yamada), registry: registry, version: version))
            #expect(text.contains("\r\nFN:山田 太郎\r\nN:山田;太郎;;;\r\n"))
            let person = try importOnly(text, registry: registry)
            #expect(person.givenName == "太郎")
            #expect(person.surname == "山田")
            #expect(person.commonNames == ["山田 太郎"], "the full name as stored, family name first")
            #expect(fieldValues(person)["display-name"] == nil)
            #expect(storedAttributes(person)["description"] == yamada["description"])
        }

        var zoe = LDAPEntry(dn: try DistinguishedName(parsing: "uid=zoe,ou=people,dc=example,dc=com"))
        zoe["cn"] = ["Zoë Ångström"]
        zoe["sn"] = ["Ångström"]
        zoe["givenName"] = ["Zoë"]
        let text = VCardWriter.write(VCard(person: Person(entry: zoe), registry: registry, version: .v3))
        let person = try importOnly(text, registry: registry)
        #expect(person.givenName == "Zoë")
        #expect(person.surname == "Ångström")
        #expect(person.commonName == "Zoë Ångström")
        #expect(person.values.isEmpty)
    }
}

@Suite("vCards as new people")
struct VCardNewPersonTests {
    @Test("the RFC 6350 example card as a new person")
    func rfc6350Example() throws {
        let person = try importOnly(VCardParserTests.rfc6350Example)
        #expect(person.givenName == "Simon")
        #expect(person.surname == "Perreault")
        #expect(fieldValues(person) == [
            "birthday": ["--02-03"],
            "anniversary": ["2009-08-08"],
            "organization": ["Viagenie"],
            "address": ["Suite D2-630$2875 Laurier$Quebec QC G1V 2M2$Canada"],
            "phone": ["+1-418-656-9254 ext. 102"],
            "mobile": ["+1-418-262-6501"],
            "email": ["simon.perreault@viagenie.ca"],
            "url": ["http://nomis80.org"],
        ])
    }

    @Test("Evolution's card as a new person: preferred email first, LABEL without ADR, Evolution's X- properties")
    func evolutionCard() throws {
        let person = try importOnly(VCardParserTests.evolutionCard)
        #expect(person.givenName == "Ada Augusta")
        #expect(person.surname == "Lovelace")
        #expect(person.commonNames == ["Ada Lovelace"], "FN is the full name")
        #expect(fieldValues(person) == [
            "nickname": ["Ada"],
            "email": ["ada@example.com", "ada@home.example"],
            "phone": ["+44 20 7946 0000"],
            "mobile": ["+44 7700 900000"],
            "fax": ["+44 20 7946 0001"],
            "address": ["12 St James's Square$London SW1Y 4JH$United Kingdom"],
            "home-address": ["Ockham Park$Surrey"],
            "organization": ["Analytical Engines Ltd"],
            "department": ["Research"],
            "title": ["Programmer"],
            "categories": ["Friends", "Mathematicians"],
            "im": ["xmpp:ada@jabber.example"],
            "related": ["spouse=William King"],
            "anniversary": ["1835-07-08"],
            "birthday": ["1815-12-10"],
            "note": ["First programmer.\nWrote the notes on the Analytical Engine."],
            "shoe-size": ["38"],
        ])
        #expect(person.values.first { $0.field.name == "shoe-size" }?.field.origin == .custom)
    }

    @Test("other writers' forms: tel: URIs, vCard 4.0 dates, Apple's year-less birthday and related names, bare URLs")
    func otherForms() throws {
        let person = try importOnly("""
            BEGIN:VCARD
            VERSION:3.0
            N:Hopper;Grace;Brewster Murray;;
            FN:Grace Hopper
            BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-09
            item2.X-ABRELATEDNAMES:Vincent Hopper
            item2.X-ABLabel:_$!<Spouse>!$_
            X-ABRELATEDNAMES:Mary Murray
            URL:www.navy.mil
            EMAIL;TYPE=INTERNET:mailto:grace@example.com
            TEL;VALUE=uri;TYPE=home:tel:+1-555-0100
            TEL;TYPE=IPHONE:+1 555 0101
            X-SKYPE:amazing.grace
            ORG:;Computing
            EMAIL:
            TITLE:  
            X-ABUID:1234
            X-MANAGER:Admiral
            X-SHOE-SIZE;TYPE=pref:7
            END:VCARD
            """)
        #expect(person.givenName == "Grace Brewster Murray")
        #expect(fieldValues(person) == [
            "birthday": ["--12-09"],
            "related": ["spouse=Vincent Hopper", "contact=Mary Murray"],
            "url": ["http://www.navy.mil"],
            "email": ["grace@example.com"],
            "home-phone": ["+1-555-0100"],
            "mobile": ["+1 555 0101"],
            "im": ["skype:amazing.grace"],
            "department": ["Computing"],
            "x-manager": ["Admiral"],
            "shoe-size": ["7"],
        ])
    }

    @Test("without a family name, FN's last word is the surname; without either, the card is refused")
    func surnameFallback() throws {
        let cher = try importOnly("BEGIN:VCARD\nVERSION:4.0\nFN:Cher\nN:;Cher;;;\nEND:VCARD\n")
        #expect(cher.givenName == nil)
        #expect(cher.surname == "Cher")
        #expect(cher.values.isEmpty)
        let zoe = try importOnly("BEGIN:VCARD\nVERSION:4.0\nFN:Zoë Marie Ångström\nEND:VCARD\n")
        #expect(zoe.givenName == "Zoë Marie")
        #expect(zoe.surname == "Ångström")

        let card = try VCardParser.cards(in: "BEGIN:VCARD\nVERSION:4.0\nN:;;;;\nEMAIL:a@example.com\nEND:VCARD\n")[0].get()
        let error = #expect(throws: AddressBookError.self) { try card.newPerson(registry: try vCardTestRegistry()) }
        #expect(error?.code == .invalidName)
        #expect(error?.message.hasPrefix("line 3: ") == true)
    }

    @Test("an email a directory cannot hold rejects its card, naming the property and line; the next card is still read")
    func invalidEmail() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Ada Lovelace
            EMAIL:ådå@example.com
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Charles Babbage
            EMAIL:charles@example.com
            END:VCARD
            """
        let results = VCardParser.newPeople(in: text, registry: try vCardTestRegistry())
        #expect(results.count == 2)
        #expect(throws: VCardError.self) { try results[0].get() }
        if case .failure(let error) = results[0] {
            #expect(error.line == 4)
            #expect(error.message.hasPrefix("EMAIL: email: \"ådå@example.com\" must be ASCII (IA5)"))
        }
        #expect(try results[1].get().surname == "Babbage")

        let card = try VCardParser.cards(in: text)[0].get()
        let error = #expect(throws: AddressBookError.self) { try card.newPerson(registry: try vCardTestRegistry()) }
        #expect(error?.code == .invalidValue)
        #expect(error?.message.hasPrefix("line 4: EMAIL: email: ") == true)
    }

    @Test("values the fields refuse reject the card with the property's line", arguments: [
        ("BDAY:19531015\nBDAY:1953-10-16", 4, "BDAY: birthday holds a single value", AddressBookError.Code.tooManyValues),
        ("BDAY;VALUE=text:über", 3, "BDAY: birthday: \"über\" must be ASCII", .invalidValue),
        ("PHOTO:data:image/png;base64,iVBORw0KGgo=", 3, "PHOTO: photo: a 8-byte value must be a JPEG image", .invalidValue),
        ("TEL:+1 555 0100 #2", 3, "TEL: phone: ", .invalidValue),
        ("X-LDAPBOOK-FIELD:44", 3, "X-LDAPBOOK-FIELD: needs a KEY parameter", .invalidFieldName),
        ("X-LDAPBOOK-EMPLOYEE-NUMBER:1\nX-LDAPBOOK-EMPLOYEE-NUMBER:2", 4,
         "X-LDAPBOOK-EMPLOYEE-NUMBER: employee-number holds a single value", .tooManyValues),
    ])
    func refusedValues(_ lines: String, _ line: Int, _ message: String, _ code: AddressBookError.Code) throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\n\(lines)\nFN:Ada Lovelace\nEND:VCARD\n"
        let results = VCardParser.newPeople(in: text, registry: try vCardTestRegistry())
        let error = #expect(throws: VCardError.self) { try results.first?.get() }
        #expect(error?.line == line)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        let card = try VCardParser.cards(in: text)[0].get()
        #expect(throws: AddressBookError.self) { try card.newPerson(registry: try vCardTestRegistry()) }
        do {
            _ = try card.newPerson(registry: try vCardTestRegistry())
        } catch let thrown as AddressBookError {
            #expect(thrown.code == code)
        }
    }

    @Test("what a directory holds is taken as it is: control characters, line breaks, a year alone, an address with a ;")
    func storedValues() throws {
        let person = try importOnly("BEGIN:VCARD\nVERSION:4.0\nFN:Bob \u{1B}[2J Byte\nN:Byte;Bob;;;\nNOTE:tab\tinside\\nand a line\n"
                                    + "BDAY:1953\nEMAIL:a\\;b@example.com\nTITLE:  spaced  \nEND:VCARD\n")
        #expect(person.commonNames == ["Bob \u{1B}[2J Byte"])
        #expect(fieldValues(person) == ["note": ["tab\tinside\nand a line"], "birthday": ["1953"], "email": ["a;b@example.com"],
                                        "title": ["  spaced  "]])
    }

    @Test("standard properties no field holds, and photos by reference, are listed as left out; bookkeeping is not")
    func unmappedProperties() throws {
        let card = try VCardParser.cards(in: "BEGIN:VCARD\nVERSION:4.0\nPRODID:-//Phone//EN\nREV:20260101T000000Z\nFN:Ada Lovelace\n"
            + "ROLE:Programmer\nCATEGORIES:friends,work\nGEO:geo:51.5,-0.1\nPHOTO:https://example.com/ada.jpg\nUID:abc\nEND:VCARD\n")[0].get()
        let record = try card.importRecord(registry: try vCardTestRegistry())
        #expect(record.skipped.map(\.attribute) == ["ROLE", "GEO", "PHOTO"], "CATEGORIES go in the custom field categories")
        #expect(record.skipped.first?.description == "ROLE (no address-book field holds it)")
        #expect(record.cardUID == "abc")
    }

    @Test("a reference to another entry is left out and listed, unless the import may write it; then it must be a DN")
    func references() throws {
        let card = try VCardParser.cards(in: "BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nX-LDAPBOOK-MANAGER:Charles\nEND:VCARD\n")[0].get()
        let record = try card.importRecord(registry: try vCardTestRegistry())
        #expect(record.person.values.isEmpty)
        #expect(record.skipped.map(\.description) == ["X-LDAPBOOK-MANAGER (manager: a reference to another entry; --write-reference manager writes it)"])
        let error = #expect(throws: AddressBookError.self) {
            try card.importRecord(registry: try vCardTestRegistry(), writableReferences: ["manager"])
        }
        #expect(error?.message.hasPrefix("line 4: X-LDAPBOOK-MANAGER: manager: \"Charles\" must be a distinguished name") == true)
    }

    @Test("a directory without ldapbook's schema takes standard fields and refuses ldapbook's, naming the property")
    func withoutLDAPBookSchema() throws {
        let registry = try vCardTestRegistry(withLDAPBook: false)
        let plain = try importOnly("BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nEMAIL:ada@example.com\nEND:VCARD\n",
                                   registry: registry)
        #expect(fieldValues(plain) == ["email": ["ada@example.com"]])
        for property in ["NICKNAME:Ada", "X-SHOE-SIZE:38", "X-LDAPBOOK-FIELD;KEY=hat:L"] {
            let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\n\(property)\nEND:VCARD\n"
            let error = #expect(throws: VCardError.self) { try VCardParser.newPeople(in: text, registry: registry)[0].get() }
            #expect(error?.line == 4)
            #expect(error?.message.contains("ldapbook's schema") == true)
        }
    }

    @Test("CATEGORIES become the custom field categories, one value each, and are written back as CATEGORIES")
    func categories() throws {
        let registry = try vCardTestRegistry()
        let person = try importOnly("BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nCATEGORIES:Family,Friends\\, old\nEND:VCARD\n")
        #expect(fieldValues(person)["categories"] == ["Family", "Friends, old"])
        var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=ada,dc=example,dc=com"), [
            "objectClass": ["inetOrgPerson", "ldapbookPerson"], "cn": ["Ada Lovelace"], "sn": ["Lovelace"],
        ])
        entry["ldapbookCustomField"] = ["categories=Family", "categories=Friends, old"]
        let card = VCard(person: Person(entry: entry), registry: registry)
        #expect(contentLines(card).contains(#"CATEGORIES:Family,Friends\, old"#), "\(contentLines(card))")
        let plain = try VCardParser.cards(in: "BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nCATEGORIES:Family\nEND:VCARD\n")[0].get()
            .importRecord(registry: try vCardTestRegistry(withLDAPBook: false))
        #expect(plain.skipped.map(\.attribute) == ["CATEGORIES"], "without custom fields, said to be left out")
    }

    @Test("a card for an organisation or a group is refused, saying what it is", arguments: [
        ("KIND:org", "an organisation"), ("KIND:group", "a group"), ("X-ADDRESSBOOKSERVER-KIND:group", "a group"),
    ])
    func notAPerson(_ kind: String, _ what: String) throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:ACME Helpdesk\n\(kind)\nEND:VCARD\n"
        let error = #expect(throws: VCardError.self) { try VCardParser.newPeople(in: text, registry: try vCardTestRegistry())[0].get() }
        #expect(error?.line == 4)
        #expect(error?.message.contains("the card is \(what) (ACME Helpdesk), not a person") == true, "\(String(describing: error))")
        #expect(try importOnly("BEGIN:VCARD\nVERSION:4.0\nFN:Ada Lovelace\nKIND:individual\nEND:VCARD\n").surname == "Lovelace")
    }

    @Test("an email address's TYPE, which the directory cannot keep, is said to be left out")
    func emailTypes() throws {
        let record = try VCardParser.cards(in: "BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nEMAIL;TYPE=INTERNET,HOME:ada@home.example\n"
            + "EMAIL;TYPE=INTERNET,PREF:ada@example.com\nEND:VCARD\n")[0].get().importRecord(registry: try vCardTestRegistry())
        #expect(fieldValues(record.person)["email"]?.count == 2)
        #expect(record.skipped.map(\.attribute) == ["EMAIL;TYPE=home"])
    }
}
