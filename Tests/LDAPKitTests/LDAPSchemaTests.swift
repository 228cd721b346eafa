import Testing
@testable import LDAPKit

@Suite struct LDAPSchemaTests {
    static let directoryString = "1.3.6.1.4.1.1466.115.121.1.15"

    // MARK: RFC 4512 examples

    @Test("RFC 4512 attribute types", arguments: [
        ("( 2.5.4.0 NAME 'objectClass' EQUALITY objectIdentifierMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.38 )",
         AttributeTypeDescription(oid: "2.5.4.0", names: ["objectClass"], equality: "objectIdentifierMatch",
                                  syntax: "1.3.6.1.4.1.1466.115.121.1.38")),
        ("( 2.5.4.1 NAME 'aliasedObjectName' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 SINGLE-VALUE )",
         AttributeTypeDescription(oid: "2.5.4.1", names: ["aliasedObjectName"], equality: "distinguishedNameMatch",
                                  syntax: "1.3.6.1.4.1.1466.115.121.1.12", isSingleValued: true)),
        // RFC 4512 itself puts NO-USER-MODIFICATION before SINGLE-VALUE here.
        ("( 2.5.18.10 NAME 'subschemaSubentry' EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 NO-USER-MODIFICATION SINGLE-VALUE USAGE directoryOperation )",
         AttributeTypeDescription(oid: "2.5.18.10", names: ["subschemaSubentry"], equality: "distinguishedNameMatch",
                                  syntax: "1.3.6.1.4.1.1466.115.121.1.12", isSingleValued: true,
                                  isUserModifiable: false, usage: .directoryOperation)),
        ("( 2.5.21.6 NAME 'objectClasses' EQUALITY objectIdentifierFirstComponentMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.37 USAGE directoryOperation )",
         AttributeTypeDescription(oid: "2.5.21.6", names: ["objectClasses"],
                                  equality: "objectIdentifierFirstComponentMatch",
                                  syntax: "1.3.6.1.4.1.1466.115.121.1.37", usage: .directoryOperation)),
        ("( 1.3.6.1.4.1.1466.101.120.5 NAME 'namingContexts' SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 USAGE dSAOperation )",
         AttributeTypeDescription(oid: "1.3.6.1.4.1.1466.101.120.5", names: ["namingContexts"],
                                  syntax: "1.3.6.1.4.1.1466.115.121.1.12", usage: .dSAOperation)),
        ("( 2.5.4.41 NAME 'name' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
         AttributeTypeDescription(oid: "2.5.4.41", names: ["name"], equality: "caseIgnoreMatch",
                                  substring: "caseIgnoreSubstringsMatch", syntax: directoryString)),
    ])
    func rfcAttributeType(text: String, expected: AttributeTypeDescription) throws {
        let parsed = try AttributeTypeDescription(parsing: text)
        #expect(parsed == expected)
        #expect(parsed.definition == text.replacingOccurrences(
            of: "NO-USER-MODIFICATION SINGLE-VALUE", with: "SINGLE-VALUE NO-USER-MODIFICATION"))
    }

    @Test("RFC 4512 object classes", arguments: [
        ("( 2.5.6.0 NAME 'top' ABSTRACT MUST objectClass )",
         ObjectClassDescription(oid: "2.5.6.0", names: ["top"], kind: .abstract, must: ["objectClass"])),
        ("( 2.5.6.1 NAME 'alias' SUP top STRUCTURAL MUST aliasedObjectName )",
         ObjectClassDescription(oid: "2.5.6.1", names: ["alias"], superiors: ["top"], must: ["aliasedObjectName"])),
        ("( 1.3.6.1.4.1.1466.101.120.111 NAME 'extensibleObject' SUP top AUXILIARY )",
         ObjectClassDescription(oid: "1.3.6.1.4.1.1466.101.120.111", names: ["extensibleObject"],
                                superiors: ["top"], kind: .auxiliary)),
        ("( 2.5.20.1 NAME 'subschema' AUXILIARY MAY ( dITStructureRules $ nameForms $ ditContentRules $ objectClasses $ attributeTypes $ matchingRules $ matchingRuleUse ) )",
         ObjectClassDescription(oid: "2.5.20.1", names: ["subschema"], kind: .auxiliary, may: [
             "dITStructureRules", "nameForms", "ditContentRules", "objectClasses", "attributeTypes",
             "matchingRules", "matchingRuleUse",
         ])),
    ])
    func rfcObjectClass(text: String, expected: ObjectClassDescription) throws {
        let parsed = try ObjectClassDescription(parsing: text)
        #expect(parsed == expected)
        #expect(parsed.definition == text)
    }

    @Test func rfcSyntaxAndMatchingRule() throws {
        let syntax = try SyntaxDescription(parsing: "( 1.3.6.1.4.1.1466.115.121.1.15 DESC 'Directory String' )")
        #expect(syntax == SyntaxDescription(oid: Self.directoryString, description: "Directory String"))
        #expect(syntax.isHumanReadable)

        let rule = try MatchingRuleDescription(parsing: "( 2.5.13.2 NAME 'caseIgnoreMatch' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )")
        #expect(rule == MatchingRuleDescription(oid: "2.5.13.2", names: ["caseIgnoreMatch"], syntax: Self.directoryString))
        #expect(rule.name == "caseIgnoreMatch")
    }

    // MARK: Real OpenLDAP definitions

    /// Definitions as OpenLDAP's core, cosine and inetorgperson schemas and
    /// slapd's own subschema write them, line breaks and tabs included.
    static let openLDAPAttributeTypes = [
        "( 2.5.4.0 NAME 'objectClass' DESC 'RFC4512: object classes of the entity' EQUALITY objectIdentifierMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.38 )",
        """
        ( 2.5.4.41 NAME 'name'
        \tEQUALITY caseIgnoreMatch
        \tSUBSTR caseIgnoreSubstringsMatch
        \tSYNTAX 1.3.6.1.4.1.1466.115.121.1.15{32768} )
        """,
        """
        ( 2.5.4.42 NAME ( 'givenName' 'gn' )
          DESC 'RFC2256: first name(s) for which the entity is known by'
          SUP name )
        """,
        "( 2.5.4.4 NAME ( 'sn' 'surname' ) DESC 'RFC2256: last (family) name(s) for which the entity is known by' SUP name )",
        "( 2.5.4.3 NAME ( 'cn' 'commonName' ) DESC 'RFC4519: common name(s) for which the entity is known by' SUP name )",
        """
        ( 0.9.2342.19200300.100.1.3
          NAME ( 'mail' 'rfc822Mailbox' )
          DESC 'RFC1274: RFC822 Mailbox'
            EQUALITY caseIgnoreIA5Match
            SUBSTR caseIgnoreIA5SubstringsMatch
            SYNTAX 1.3.6.1.4.1.1466.115.121.1.26{256} )
        """,
        "( 0.9.2342.19200300.100.1.60 NAME 'jpegPhoto' DESC 'RFC2798: a JPEG image' SYNTAX 1.3.6.1.4.1.1466.115.121.1.28 )",
        """
        ( 2.5.4.20 NAME 'telephoneNumber'
        \tDESC 'RFC2256: Telephone Number'
        \tEQUALITY telephoneNumberMatch
        \tSUBSTR telephoneNumberSubstringsMatch
        \tSYNTAX 1.3.6.1.4.1.1466.115.121.1.50{32} )
        """,
        "( 2.5.4.35 NAME 'userPassword' DESC 'RFC4519/2307: password of user' EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40{128} )",
        "( 2.5.4.36 NAME 'userCertificate' DESC 'RFC2256: X.509 user certificate, use ;binary' EQUALITY certificateExactMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.8 )",
        "( 2.16.840.1.113730.3.1.241 NAME 'displayName' DESC 'RFC2798: preferred name to be used when displaying entries' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )",
        "( 2.5.4.13 NAME 'description' DESC 'RFC4519: descriptive information' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{1024} )",
        "( 0.9.2342.19200300.100.1.6 NAME 'roomNumber' DESC 'RFC1274: room number' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{256} )",
        "( 1.3.6.1.1.16.4 NAME 'entryUUID' DESC 'UUID of the entry' EQUALITY UUIDMatch ORDERING UUIDOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE NO-USER-MODIFICATION USAGE directoryOperation )",
        "( 1.3.6.1.4.1.4203.1.12.2.3.0.85 NAME 'olcLdapSyntaxes' DESC 'OpenLDAP ldapSyntax' EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 X-ORDERED 'VALUES' )",
    ]

    static let openLDAPObjectClasses = [
        "( 2.5.6.0 NAME 'top' DESC 'top of the superclass chain' ABSTRACT MUST objectClass )",
        """
        ( 2.5.6.6 NAME 'person'
          DESC 'RFC2256: a person'
          SUP top STRUCTURAL
          MUST ( sn $ cn )
          MAY ( userPassword $ telephoneNumber $ seeAlso $ description ) )
        """,
        """
        ( 2.5.6.7 NAME 'organizationalPerson'
        \tDESC 'RFC2256: an organizational person'
        \tSUP person STRUCTURAL
        \tMAY ( title $ x121Address $ registeredAddress $ destinationIndicator $
        \t\tpreferredDeliveryMethod $ telexNumber $ teletexTerminalIdentifier $
        \t\ttelephoneNumber $ internationaliSDNNumber $\u{20}
        \t\tfacsimileTelephoneNumber $ street $ postOfficeBox $ postalCode $
        \t\tpostalAddress $ physicalDeliveryOfficeName $ ou $ st $ l ) )
        """,
        "( 2.16.840.1.113730.3.2.2 NAME 'inetOrgPerson' DESC 'RFC2798: Internet Organizational Person' SUP organizationalPerson STRUCTURAL MAY ( audio $ businessCategory $ carLicense $ departmentNumber $ displayName $ employeeNumber $ employeeType $ givenName $ homePhone $ homePostalAddress $ initials $ jpegPhoto $ labeledURI $ mail $ manager $ mobile $ o $ pager $ photo $ roomNumber $ secretary $ uid $ userCertificate $ x500uniqueIdentifier $ preferredLanguage $ userSMIMECertificate $ userPKCS12 ) )",
    ]

    static let openLDAPSyntaxes = [
        "( 1.3.6.1.4.1.1466.115.121.1.15 DESC 'Directory String' )",
        "( 1.3.6.1.4.1.1466.115.121.1.28 DESC 'JPEG' X-NOT-HUMAN-READABLE 'TRUE' )",
        "( 1.3.6.1.4.1.1466.115.121.1.8 DESC 'Certificate' X-BINARY-TRANSFER-REQUIRED 'TRUE' X-NOT-HUMAN-READABLE 'TRUE' )",
        "( 1.3.6.1.4.1.4203.666.11.10.2.1 DESC 'X.509 AttributeCertificate' X-BINARY-TRANSFER-REQUIRED 'TRUE' X-NOT-HUMAN-READABLE 'TRUE' )",
        "( 1.3.6.1.1.16.1 DESC 'UUID' )",
    ]

    static let openLDAPMatchingRules = [
        "( 2.5.13.2 NAME 'caseIgnoreMatch' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )",
        "( 2.5.13.4 NAME 'caseIgnoreSubstringsMatch' SYNTAX 1.3.6.1.4.1.1466.115.121.1.58 )",
        "( 1.3.6.1.1.16.2 NAME 'UUIDMatch' SYNTAX 1.3.6.1.1.16.1 )",
    ]

    /// A subschema entry holding the OpenLDAP definitions above.
    static func openLDAPSubschema() -> LDAPEntry {
        LDAPEntry(dn: DistinguishedName.root.child("cn", "Subschema"), [
            "objectClass": ["top", "subentry", "subschema", "extensibleObject"],
            "ldapSyntaxes": openLDAPSyntaxes,
            "matchingRules": openLDAPMatchingRules,
            "attributeTypes": openLDAPAttributeTypes,
            "objectClasses": openLDAPObjectClasses,
            "matchingRuleUse": ["( 2.5.13.2 NAME 'caseIgnoreMatch' APPLIES ( name $ cn ) )"],
        ])
    }

    @Test func openLDAPSubschemaParses() throws {
        let schema = try LDAPSchema(subschema: Self.openLDAPSubschema())
        #expect(schema.attributeTypes.count == Self.openLDAPAttributeTypes.count)
        #expect(schema.objectClasses.count == Self.openLDAPObjectClasses.count)
        #expect(schema.syntaxes.count == Self.openLDAPSyntaxes.count)
        #expect(schema.matchingRules.count == Self.openLDAPMatchingRules.count)

        let name = try #require(schema.attributeType(named: "name"))
        #expect(name.syntax == Self.directoryString)
        #expect(name.syntaxLength == 32768)

        let givenName = try #require(schema.attributeType(named: "givenName"))
        #expect(givenName == AttributeTypeDescription(
            oid: "2.5.4.42", names: ["givenName", "gn"],
            description: "RFC2256: first name(s) for which the entity is known by", superior: "name"))
        #expect(givenName.name == "givenName")
        #expect(givenName.syntax == nil)
        #expect(schema.resolvedSyntax(of: givenName) == Self.directoryString)
        #expect(schema.resolvedEquality(of: givenName) == "caseIgnoreMatch")
        #expect(schema.resolvedSubstring(of: givenName) == "caseIgnoreSubstringsMatch")
        #expect(schema.resolvedOrdering(of: givenName) == nil)

        let mail = try #require(schema.attributeType(named: "rfc822Mailbox"))
        #expect(mail.name == "mail")
        #expect(mail.syntaxLength == 256)
        #expect(schema.attributeType(named: "MAIL") == mail)
        #expect(schema.attributeType(named: "0.9.2342.19200300.100.1.3") == mail)

        let telephoneNumber = try #require(schema.attributeType(named: "telephoneNumber"))
        #expect(telephoneNumber.syntax == "1.3.6.1.4.1.1466.115.121.1.50")
        #expect(telephoneNumber.syntaxLength == 32)
        #expect(telephoneNumber.description == "RFC2256: Telephone Number")

        let entryUUID = try #require(schema.attributeType(named: "entryUUID"))
        #expect(entryUUID.isOperational && !entryUUID.isUserModifiable && entryUUID.isSingleValued)
        #expect(entryUUID.ordering == "UUIDOrderingMatch")
        #expect(!givenName.isOperational && givenName.isUserModifiable && !givenName.isSingleValued)
        #expect(try #require(schema.attributeType(named: "displayName")).isSingleValued)

        let olcLdapSyntaxes = try #require(schema.attributeType(named: "olcLdapSyntaxes"))
        #expect(olcLdapSyntaxes.extensions == ["X-ORDERED": ["VALUES"]])

        #expect(schema.matchingRule(named: "caseignorematch")?.oid == "2.5.13.2")
        #expect(schema.syntax(withOID: "1.3.6.1.4.1.1466.115.121.1.28")?.description == "JPEG")
        #expect(schema.attributeType(named: "nonexistent") == nil)
        #expect(schema.objectClass(named: "subschema") == nil)
    }

    @Test func binaryAttributes() throws {
        let schema = try LDAPSchema(subschema: Self.openLDAPSubschema())
        func isBinary(_ name: String) throws -> Bool {
            schema.isBinary(try #require(schema.attributeType(named: name)))
        }
        #expect(try isBinary("jpegPhoto"))
        #expect(try isBinary("userPassword"))
        #expect(try isBinary("userCertificate"))
        #expect(try !isBinary("cn"))
        #expect(try !isBinary("mail"))
        #expect(try !isBinary("entryUUID"))

        // A syntax outside the well-known binary ones is binary when the
        // schema marks it not human-readable.
        let attributeCertificate = AttributeTypeDescription(oid: "1.2.3.4", syntax: "1.3.6.1.4.1.4203.666.11.10.2.1")
        #expect(schema.isBinary(attributeCertificate))
        // Unknown syntaxes and types without a syntax are text.
        #expect(!schema.isBinary(AttributeTypeDescription(oid: "1.2.3.5", syntax: "1.2.3.999")))
        #expect(!schema.isBinary(AttributeTypeDescription(oid: "1.2.3.6")))
        // Well-known binary syntaxes are binary even when the server lists no syntaxes.
        #expect(LDAPSchema().isBinary(AttributeTypeDescription(oid: "1.2.3.7", syntax: "1.3.6.1.4.1.1466.115.121.1.40")))

        #expect(schema.isBinary(attributeNamed: "jpegPhoto"))
        #expect(schema.isBinary(attributeNamed: "JPEGPHOTO;x-size-large"))
        #expect(schema.isBinary(attributeNamed: "userCertificate;binary"))
        #expect(schema.isBinary(attributeNamed: "unknownType;BINARY"))
        #expect(!schema.isBinary(attributeNamed: "cn;lang-de"))
        #expect(!schema.isBinary(attributeNamed: "unknownType"))
    }

    @Test func objectClassInheritance() throws {
        let schema = try LDAPSchema(subschema: Self.openLDAPSubschema())
        let inetOrgPerson = try #require(schema.objectClass(named: "inetorgperson"))
        #expect(inetOrgPerson.superiors == ["organizationalPerson"])
        #expect(inetOrgPerson.kind == .structural)
        #expect(inetOrgPerson.must.isEmpty)
        #expect(inetOrgPerson.may.count == 27)
        #expect(schema.objectClass(named: "top")?.kind == .abstract)

        #expect(schema.superclasses(of: "inetOrgPerson").map(\.name)
                == ["inetOrgPerson", "organizationalPerson", "person", "top"])
        #expect(schema.requiredAttributes(of: "inetOrgPerson") == ["sn", "cn", "objectClass"])
        #expect(schema.requiredAttributes(of: "2.16.840.1.113730.3.2.2") == ["sn", "cn", "objectClass"])
        let allowed = schema.allowedAttributes(of: "inetOrgPerson")
        #expect(allowed.starts(with: ["audio", "businessCategory", "carLicense"]))
        for name in ["mail", "jpegPhoto", "roomNumber", "title", "userPassword", "telephoneNumber", "description"] {
            #expect(allowed.contains(name), "\(name)")
        }
        #expect(!allowed.contains("sn") && !allowed.contains("cn") && !allowed.contains("objectClass"))
        #expect(Set(allowed).count == allowed.count, "each attribute once, though telephoneNumber is in two classes")
        #expect(allowed.count == 27 + 18 + 4 - 1)

        #expect(schema.requiredAttributes(of: "person") == ["sn", "cn", "objectClass"])
        #expect(schema.requiredAttributes(of: "noSuchClass").isEmpty)
        #expect(schema.allowedAttributes(of: "noSuchClass").isEmpty)
    }

    @Test func attributesAreListedByPreferredNameOnce() throws {
        let schema = LDAPSchema(
            attributeTypes: [
                try AttributeTypeDescription(parsing: "( 0.9.2342.19200300.100.1.3 NAME ( 'mail' 'rfc822Mailbox' ) SYNTAX 1.3.6.1.4.1.1466.115.121.1.26 )"),
                try AttributeTypeDescription(parsing: "( 2.5.4.3 NAME ( 'cn' 'commonName' ) SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )"),
            ],
            objectClasses: [
                try ObjectClassDescription(parsing: "( 1.1.1 NAME 'base' ABSTRACT MUST commonName MAY ( rfc822Mailbox $ x-custom ) )"),
                try ObjectClassDescription(parsing: "( 1.1.2 NAME 'left' SUP base AUXILIARY MAY ( mail $ CN ) )"),
                try ObjectClassDescription(parsing: "( 1.1.3 NAME 'right' SUP base AUXILIARY MAY X-CUSTOM )"),
                try ObjectClassDescription(parsing: "( 1.1.4 NAME 'both' SUP ( left $ right $ unknownClass ) MUST 2.5.4.3 )"),
            ])
        #expect(schema.superclasses(of: "both").map(\.name) == ["both", "left", "base", "right"])
        #expect(schema.requiredAttributes(of: "both") == ["cn"])
        #expect(schema.allowedAttributes(of: "both") == ["mail", "x-custom"])
    }

    // MARK: Active Directory's forms

    @Test func activeDirectoryDefinitions() throws {
        let sAMAccountName = try AttributeTypeDescription(parsing:
            "( 1.2.840.113556.1.4.221 NAME 'sAMAccountName' SYNTAX '1.3.6.1.4.1.1466.115.121.1.15' SINGLE-VALUE )")
        #expect(sAMAccountName == AttributeTypeDescription(
            oid: "1.2.840.113556.1.4.221", names: ["sAMAccountName"], syntax: Self.directoryString, isSingleValued: true))

        let subordinates = try AttributeTypeDescription(parsing:
            "( 1.2.840.113556.1.4.1669 NAME 'msDS-Approx-Immed-Subordinates' SYNTAX '1.3.6.1.4.1.1466.115.121.1.27' SINGLE-VALUE NO-USER-MODIFICATION )")
        #expect(subordinates.name == "msDS-Approx-Immed-Subordinates")
        #expect(subordinates.syntax == "1.3.6.1.4.1.1466.115.121.1.27")
        #expect(!subordinates.isUserModifiable)

        let person = try ObjectClassDescription(parsing:
            "( 2.5.6.6 NAME 'person' SUP top STRUCTURAL MUST (cn ) MAY (userPassword $ telephoneNumber $ seeAlso $ sn ) )")
        #expect(person == ObjectClassDescription(
            oid: "2.5.6.6", names: ["person"], superiors: ["top"], must: ["cn"],
            may: ["userPassword", "telephoneNumber", "seeAlso", "sn"]))

        let user = try ObjectClassDescription(parsing:
            "( 1.2.840.113556.1.5.9 NAME 'user' SUP ( mstop $organizationalPerson ) STRUCTURAL MAY (o $ businessCategory $ userCertificate $ givenName $msDS-PrimaryComputer ) )")
        #expect(user.superiors == ["mstop", "organizationalPerson"])
        #expect(user.may.last == "msDS-PrimaryComputer")

        let quotedSuperior = try ObjectClassDescription(parsing: "( 1.2.840.113556.1.5.8 NAME 'group' SUP 'top' STRUCTURAL MUST (groupType ) )")
        #expect(quotedSuperior.superiors == ["top"])
    }

    // MARK: Lenient forms

    @Test("Whitespace may be missing, doubled, tabs or line breaks", arguments: [
        "( 1.2.3 NAME ( 'a-b' 'c' ) DESC 'text' SUP name SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{64} SINGLE-VALUE )",
        "(1.2.3 NAME('a-b' 'c')DESC'text'SUP name SYNTAX 1.3.6.1.4.1.1466.115.121.1.15{64} SINGLE-VALUE)",
        "  (   1.2.3\tNAME\t(\t'a-b'   'c'\t)\r\n DESC 'text'\n\nSUP name\nSYNTAX '1.3.6.1.4.1.1466.115.121.1.15{64}'\nSINGLE-VALUE\n)\n",
        "( 1.2.3 single-value syntax 1.3.6.1.4.1.1466.115.121.1.15{64} Sup name desc 'text' name ('a-b''c') )",
    ])
    func lenientWhitespaceAndOrder(text: String) throws {
        let parsed = try AttributeTypeDescription(parsing: text)
        #expect(parsed == AttributeTypeDescription(
            oid: "1.2.3", names: ["a-b", "c"], description: "text", superior: "name",
            syntax: Self.directoryString, syntaxLength: 64, isSingleValued: true))
    }

    @Test func listsWithoutSpaces() throws {
        let parsed = try ObjectClassDescription(parsing: "( 1.2.3 NAME 'x' SUP(top)AUXILIARY MUST(cn$sn)MAY(a$b$c))")
        #expect(parsed == ObjectClassDescription(
            oid: "1.2.3", names: ["x"], superiors: ["top"], kind: .auxiliary, must: ["cn", "sn"], may: ["a", "b", "c"]))
    }

    @Test func quotedStringEscapes() throws {
        let parsed = try AttributeTypeDescription(parsing: #"( 1.2.3 NAME 'x' DESC 'Joe\27s \5Cshare\5c, \ and \x' )"#)
        #expect(parsed.description == #"Joe's \share\, \ and \x"#)
        #expect(parsed.definition == #"( 1.2.3 NAME 'x' DESC 'Joe\27s \5Cshare\5C, \5C and \5Cx' )"#)
        #expect(try AttributeTypeDescription(parsing: parsed.definition) == parsed)

        let unicode = try SyntaxDescription(parsing: "( 1.2.3 DESC 'Zeichenkette für Ämter' )")
        #expect(unicode.description == "Zeichenkette für Ämter")
        #expect(try SyntaxDescription(parsing: "( 1.2.3 DESC '' )").description == "")
    }

    @Test func extensionsAreKept() throws {
        let parsed = try AttributeTypeDescription(parsing: """
            ( 1.2.3 NAME 'x' SYNTAX 1.2.4 X-ORIGIN ( 'RFC 4519' 'user defined' ) X-ORDERED 'VALUES' \
            x-Deprecated 'TRUE' X-EMPTY ( ) X-ORIGIN 'again' X-SCHEMA_FILE '99user.ldif' )
            """)
        #expect(parsed.extensions == [
            "X-ORIGIN": ["RFC 4519", "user defined", "again"],
            "X-ORDERED": ["VALUES"],
            "x-Deprecated": ["TRUE"],
            "X-EMPTY": [],
            "X-SCHEMA_FILE": ["99user.ldif"],
        ])
        #expect(parsed.syntax == "1.2.4")
        #expect(try AttributeTypeDescription(parsing: parsed.definition) == parsed)
    }

    @Test("Keywords outside the grammar are skipped with their argument", arguments: [
        "( 1.2.3 NAME 'x' VENDOR-FLAG SYNTAX 1.2.4 SINGLE-VALUE )",
        "( 1.2.3 NAME 'x' VENDOR-STRING 'a (quoted) value' SYNTAX 1.2.4 SINGLE-VALUE )",
        "( 1.2.3 NAME 'x' VENDOR-LIST ( a $ 'b c' $ d ) SYNTAX 1.2.4 SINGLE-VALUE )",
        "( 1.2.3 NAME 'x' VENDOR-WORD value SYNTAX 1.2.4 SINGLE-VALUE )",
        "( 1.2.3 NAME 'x' SYNTAX 1.2.4 SINGLE-VALUE VENDOR-FLAG )",
        "( 1.2.3 NAME 'x' SYNTAX 1.2.4 VENDOR-FLAG X-MARK 'kept' SINGLE-VALUE )",
        // An object class keyword in an attribute type.
        "( 1.2.3 NAME 'x' MUST ( cn $ sn ) SYNTAX 1.2.4 SINGLE-VALUE )",
    ])
    func unknownKeywordsAreSkipped(text: String) throws {
        let parsed = try AttributeTypeDescription(parsing: text)
        #expect(parsed.oid == "1.2.3" && parsed.names == ["x"])
        #expect(parsed.syntax == "1.2.4")
        #expect(parsed.isSingleValued)
        #expect(parsed.extensions == (text.contains("X-MARK") ? ["X-MARK": ["kept"]] : [:]))
    }

    @Test func descriptorsInPlaceOfOIDs() throws {
        let parsed = try AttributeTypeDescription(parsing: "( nsAIMid-oid NAME 'nsAIMid' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )")
        #expect(parsed.oid == "nsAIMid-oid")
        let underscore = try AttributeTypeDescription(parsing: "( 1.2.3 NAME 'NDS_Name' SUP custom_base )")
        #expect(underscore.names == ["NDS_Name"] && underscore.superior == "custom_base")
        let syntaxOnly = try MatchingRuleDescription(parsing: "( 1.2.3 SYNTAX '1.2.4' )")
        #expect(syntaxOnly.names.isEmpty && syntaxOnly.name == "1.2.3" && syntaxOnly.syntax == "1.2.4")
        let emptyNames = try AttributeTypeDescription(parsing: "( 1.2.3 NAME ( ) SYNTAX 1.2.4 )")
        #expect(emptyNames.names.isEmpty)
        #expect(emptyNames.definition == "( 1.2.3 SYNTAX 1.2.4 )")
    }

    @Test func obsoleteAndCollective() throws {
        let type = try AttributeTypeDescription(parsing: "( 2.5.4.7.1 NAME 'c-l' SUP l COLLECTIVE OBSOLETE USAGE userApplications )")
        #expect(type.isCollective && type.isObsolete && type.usage == .userApplications)
        let objectClass = try ObjectClassDescription(parsing: "( 1.2.3 NAME 'old' OBSOLETE )")
        #expect(objectClass.isObsolete && objectClass.kind == .structural)
        let rule = try MatchingRuleDescription(parsing: "( 1.2.3 NAME 'oldMatch' DESC 'gone' OBSOLETE SYNTAX 1.2.4 )")
        #expect(rule.isObsolete && rule.description == "gone")
        #expect(rule.definition == "( 1.2.3 NAME 'oldMatch' DESC 'gone' OBSOLETE SYNTAX 1.2.4 )")
    }

    // MARK: Malformed definitions

    @Test("Malformed attribute types are rejected with the problem named", arguments: [
        ("", "the definition is empty"),
        ("   ", "the definition is empty"),
        ("1.2.3 NAME 'x'", "expected '(' at the start"),
        ("( 1.2.3 NAME 'x'", "missing ')' at the end"),
        ("( 1.2.3 NAME ( 'a' 'b' )", "missing ')' at the end"),
        ("( 1.2.3 NAME ( 'a' 'b' ) ) )", "unexpected ')' after the closing ')'"),
        ("( 1.2.3 NAME 'x' ) trailing", "unexpected 't' after the closing ')'"),
        ("( NAME 'x' SYNTAX 1.2.3 )", "expected the OID after '(', found 'NAME'"),
        ("( 'x' SYNTAX 1.2.3 )", "expected the OID after '(', found '''"),
        ("( )", "expected the OID after '(', found ')'"),
        ("( 1..2 NAME 'x' )", "expected the OID after '(', found '1..2'"),
        ("( 42 NAME 'x' )", "expected the OID after '(', found '42'"),
        ("( 1.2. NAME 'x' )", "expected the OID after '(', found '1.2.'"),
        ("( 1.2.3 SUP 42 )", "'42' is not an OID"),
        ("( 1.2.3 NAME x )", "expected a quoted name or '(' after NAME, found 'x'"),
        ("( 1.2.3 NAME ( 'a' b ) )", "expected a quoted name or ')' in the NAME list, found 'b'"),
        ("( 1.2.3 NAME ( 'a' $ 'b' ) )", "expected a quoted name or ')' in the NAME list, found '$'"),
        ("( 1.2.3 NAME 'a b' )", "'a b' is not a valid name"),
        ("( 1.2.3 NAME '1abc' )", "'1abc' is not a valid name"),
        ("( 1.2.3 NAME ( 'a' 'b' SYNTAX 1.2.4 )", "expected a quoted name or ')' in the NAME list, found 'S'"),
        ("( 1.2.3 NAME 'x' NAME 'y' )", "NAME appears twice"),
        ("( 1.2.3 DESC 'unterminated )", "unterminated quoted string"),
        ("( 1.2.3 DESC text )", "expected a quoted string, found 't'"),
        ("( 1.2.3 SUP ( a $ b ) )", "expected an OID, found '('"),
        ("( 1.2.3 EQUALITY )", "expected an OID, found ')'"),
        ("( 1.2.3 SYNTAX 1.2.3{abc} )", "'1.2.3{abc}' has an invalid length bound"),
        ("( 1.2.3 SYNTAX 1.2.3{64 )", "'1.2.3{64' has an invalid length bound"),
        ("( 1.2.3 SYNTAX 1.2.3{} )", "'1.2.3{}' has an invalid length bound"),
        ("( 1.2.3 SYNTAX {64} )", "expected a syntax OID before '{'"),
        ("( 1.2.3 USAGE everyone )", "'everyone' is not a usage"),
        ("( 1.2.3 NAME 'x' 'y' )", "expected a keyword or ')', found '''"),
        ("( 1.2.3 NAME 'x' $ )", "expected a keyword or ')', found '$'"),
        ("( 1.2.3 NAME 'x' 42 )", "expected a keyword or ')', found '42'"),
        ("( 1.2.3 X-ORIGIN RFC )", "expected a quoted value or '(' after X-ORIGIN, found 'R'"),
        ("( 1.2.3 X-ORIGIN ( 'a' b ) )", "expected a quoted value or ')' in the values of X-ORIGIN, found 'b'"),
        ("( 1.2.3 X-ORIGIN ( 'a' )", "missing ')' at the end"),
        ("( 1.2.3 VENDOR ( a ( b ) ) )", "unexpected '(' in the argument of VENDOR"),
        ("( 1.2.3 VENDOR ( a b )", "missing ')' at the end"),
        ("( 1.2.3 VENDOR ( a b", "missing ')' after the argument of VENDOR"),
    ])
    func malformedAttributeType(text: String, problem: String) {
        let error = #expect(throws: LDAPError.self) { try AttributeTypeDescription(parsing: text) }
        #expect(error?.code == .decodingError)
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.hasPrefix("invalid attribute type definition \"\(text)\"") == true)
        #expect(error?.message.contains("at offset") == true)
    }

    @Test("Malformed object classes, syntaxes and matching rules", arguments: [
        ("( 1.2.3 NAME 'x' MUST ( a b ) )", "expected '$' or ')' in the list of OIDs, found 'b'"),
        ("( 1.2.3 NAME 'x' MUST ( ) )", "expected an OID, found ')'"),
        ("( 1.2.3 NAME 'x' MUST ( a $ ) )", "expected an OID, found ')'"),
        ("( 1.2.3 NAME 'x' MUST ( $ a ) )", "expected an OID, found '$'"),
        ("( 1.2.3 NAME 'x' MAY ( a $ b )", "missing ')' at the end"),
        ("( 1.2.3 NAME 'x' MAY ( a $ b ", "missing ')' after the list of OIDs"),
        ("( 1.2.3 NAME 'x' MAY 'a b' )", "'a b' is not an OID"),
        ("( 1.2.3 NAME 'x' ABSTRACT STRUCTURAL )", "STRUCTURAL contradicts ABSTRACT"),
        ("( 1.2.3 NAME 'x' AUXILIARY AUXILIARY )", "AUXILIARY appears twice"),
        ("( 1.2.3 NAME 'x' SUP top SUP person )", "SUP appears twice"),
    ])
    func malformedObjectClass(text: String, problem: String) {
        let error = #expect(throws: LDAPError.self) { try ObjectClassDescription(parsing: text) }
        #expect(error?.code == .decodingError)
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.hasPrefix("invalid object class definition") == true)
    }

    @Test func malformedSyntaxAndMatchingRule() {
        let syntax = #expect(throws: LDAPError.self) { try SyntaxDescription(parsing: "( 1.2.3 DESC 'a' DESC 'b' )") }
        #expect(syntax?.code == .decodingError)
        #expect(syntax?.message == "invalid syntax definition \"( 1.2.3 DESC 'a' DESC 'b' )\": DESC appears twice at offset 17")

        let rule = #expect(throws: LDAPError.self) { try MatchingRuleDescription(parsing: "( 2.5.13.2 NAME 'caseIgnoreMatch' )") }
        #expect(rule?.code == .decodingError)
        #expect(rule?.message.contains("the matching rule has no SYNTAX") == true)
    }

    @Test func errorsGiveTheCharacterOffsetAndShortenLongDefinitions() {
        let error = #expect(throws: LDAPError.self) {
            try AttributeTypeDescription(parsing: "( 1.2.3 DESC 'ÄÖÜ' NAME x )")
        }
        #expect(error?.message.hasSuffix("at offset 24") == true, "\(error?.message ?? "")")

        let long = "( 1.2.3 DESC '" + String(repeating: "a", count: 200) + "' NAME x )"
        let longError = #expect(throws: LDAPError.self) { try AttributeTypeDescription(parsing: long) }
        #expect(longError?.message.contains(String(long.prefix(120)) + "…\"") == true)
        #expect(longError?.message.hasSuffix("at offset 221") == true)
    }

    @Test func aBadValueInTheSubschemaNamesItsDefinition() {
        var entry = Self.openLDAPSubschema()
        entry["objectClasses"] = entry["objectClasses"] + ["( 1.2.3 NAME 'broken' MUST ( a b ) )"]
        let error = #expect(throws: LDAPError.self) { try LDAPSchema(subschema: entry) }
        #expect(error?.code == .decodingError)
        #expect(error?.message.contains("invalid object class definition \"( 1.2.3 NAME 'broken' MUST ( a b ) )\"") == true)

        var notText = Self.openLDAPSubschema()
        notText["ldapSyntaxes"] = [LDAPValue(bytes: [0x28, 0x20, 0xFF, 0x20, 0x29])]
        let encoding = #expect(throws: LDAPError.self) { try LDAPSchema(subschema: notText) }
        #expect(encoding?.code == .decodingError)
        #expect(encoding?.message.contains("a value of ldapSyntaxes is not valid UTF-8") == true)
    }

    @Test("Truncated definitions never crash: they parse or throw decodingError", arguments: 0..<4)
    func truncatedDefinitions(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let definitions = Self.openLDAPAttributeTypes + Self.openLDAPObjectClasses
        for _ in 0..<300 {
            var bytes = Array(definitions.randomElement(using: &random)!.utf8)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
            case 1: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
            default:
                bytes.insert(Array("()$'{} \\X".utf8).randomElement(using: &random)!,
                             at: Int.random(in: 0...bytes.count, using: &random))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do throws(LDAPError) {
                _ = try AttributeTypeDescription(parsing: text)
                _ = try ObjectClassDescription(parsing: text)
            } catch {
                #expect(error.code == .decodingError, "\(text)")
            }
        }
    }

    // MARK: The schema value

    @Test func lookupsFollowChanges() throws {
        var schema = LDAPSchema()
        #expect(schema.attributeType(named: "cn") == nil)
        schema.attributeTypes.append(try AttributeTypeDescription(parsing: "( 2.5.4.3 NAME ( 'cn' 'commonName' ) SUP name )"))
        schema.attributeTypes.append(try AttributeTypeDescription(parsing: "( 2.5.4.41 NAME 'name' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )"))
        #expect(schema.attributeType(named: "COMMONNAME")?.oid == "2.5.4.3")
        #expect(schema.resolvedSyntax(of: try #require(schema.attributeType(named: "cn"))) == Self.directoryString)

        schema.attributeTypes[1].syntax = "1.3.6.1.4.1.1466.115.121.1.26"
        #expect(schema.resolvedSyntax(of: try #require(schema.attributeType(named: "cn"))) == "1.3.6.1.4.1.1466.115.121.1.26")

        schema.objectClasses = [try ObjectClassDescription(parsing: "( 2.5.6.0 NAME 'top' ABSTRACT MUST objectClass )")]
        schema.syntaxes = [try SyntaxDescription(parsing: "( 1.2.3 DESC 'Custom' X-NOT-HUMAN-READABLE 'true' )")]
        schema.matchingRules = [try MatchingRuleDescription(parsing: "( 2.5.13.2 NAME 'caseIgnoreMatch' SYNTAX 1.2.3 )")]
        #expect(schema.objectClass(named: "TOP")?.oid == "2.5.6.0")
        #expect(schema.syntax(withOID: "1.2.3")?.isHumanReadable == false)
        #expect(schema.matchingRule(named: "2.5.13.2")?.name == "caseIgnoreMatch")
    }

    @Test func theFirstDefinitionOfANameWins() throws {
        let schema = LDAPSchema(attributeTypes: [
            AttributeTypeDescription(oid: "1.1", names: ["shared", "first"]),
            AttributeTypeDescription(oid: "1.2", names: ["Shared", "second"]),
            AttributeTypeDescription(oid: "1.1", names: ["third"]),
        ])
        #expect(schema.attributeType(named: "SHARED")?.oid == "1.1")
        #expect(schema.attributeType(named: "second")?.oid == "1.2")
        #expect(schema.attributeType(named: "1.1")?.names == ["shared", "first"])
        #expect(schema.attributeType(named: "third")?.names == ["third"])
    }

    @Test func superiorChainsThatLoopOrBreakEnd() {
        let schema = LDAPSchema(attributeTypes: [
            AttributeTypeDescription(oid: "1.1", names: ["a"], superior: "b"),
            AttributeTypeDescription(oid: "1.2", names: ["b"], superior: "a"),
            AttributeTypeDescription(oid: "1.3", names: ["c"], superior: "missing"),
            AttributeTypeDescription(oid: "1.4", names: ["d"], superior: "c", equality: "own"),
        ])
        #expect(schema.resolvedSyntax(of: schema.attributeType(named: "a")!) == nil)
        #expect(schema.resolvedSyntax(of: schema.attributeType(named: "c")!) == nil)
        #expect(schema.resolvedEquality(of: schema.attributeType(named: "d")!) == "own")

        let classes = LDAPSchema(objectClasses: [
            ObjectClassDescription(oid: "2.1", names: ["x"], superiors: ["y"], must: ["p"]),
            ObjectClassDescription(oid: "2.2", names: ["y"], superiors: ["x"], must: ["q"]),
        ])
        #expect(classes.requiredAttributes(of: "x") == ["p", "q"])
    }

    @Test func renderingPutsKeywordsInTheGrammarsOrder() throws {
        let entryUUID = try AttributeTypeDescription(parsing:
            "( 1.3.6.1.1.16.4 USAGE directoryOperation NO-USER-MODIFICATION SINGLE-VALUE SYNTAX 1.3.6.1.1.16.1 ORDERING UUIDOrderingMatch EQUALITY UUIDMatch DESC 'UUID of the entry' NAME 'entryUUID' )")
        #expect(entryUUID.definition
                == "( 1.3.6.1.1.16.4 NAME 'entryUUID' DESC 'UUID of the entry' EQUALITY UUIDMatch ORDERING UUIDOrderingMatch SYNTAX 1.3.6.1.1.16.1 SINGLE-VALUE NO-USER-MODIFICATION USAGE directoryOperation )")

        let givenName = try AttributeTypeDescription(parsing: Self.openLDAPAttributeTypes[2])
        #expect(givenName.definition
                == "( 2.5.4.42 NAME ( 'givenName' 'gn' ) DESC 'RFC2256: first name(s) for which the entity is known by' SUP name )")

        let person = try ObjectClassDescription(parsing: Self.openLDAPObjectClasses[1])
        #expect(person.definition
                == "( 2.5.6.6 NAME 'person' DESC 'RFC2256: a person' SUP top STRUCTURAL MUST ( sn $ cn ) MAY ( userPassword $ telephoneNumber $ seeAlso $ description ) )")

        let certificate = try SyntaxDescription(parsing: Self.openLDAPSyntaxes[2])
        #expect(certificate.definition
                == "( 1.3.6.1.4.1.1466.115.121.1.8 DESC 'Certificate' X-BINARY-TRANSFER-REQUIRED 'TRUE' X-NOT-HUMAN-READABLE 'TRUE' )")
    }

    @Test func everyDefinitionSurvivesRenderingAndParsing() throws {
        let schema = try LDAPSchema(subschema: Self.openLDAPSubschema())
        for type in schema.attributeTypes {
            #expect(try AttributeTypeDescription(parsing: type.definition) == type)
        }
        for objectClass in schema.objectClasses {
            #expect(try ObjectClassDescription(parsing: objectClass.definition) == objectClass)
        }
        for syntax in schema.syntaxes {
            #expect(try SyntaxDescription(parsing: syntax.definition) == syntax)
        }
        for rule in schema.matchingRules {
            #expect(try MatchingRuleDescription(parsing: rule.definition) == rule)
        }
    }
}
