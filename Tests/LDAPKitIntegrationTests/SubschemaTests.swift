import LDAPKit
import SlapdKit
import Testing

@Suite("Reading a real slapd's schema")
struct SubschemaTests {
    static let directoryString = "1.3.6.1.4.1.1466.115.121.1.15"

    /// The shared server's schema, read over a connection of its own.
    private func schema() async throws -> LDAPSchema {
        let connection = try await TestDirectory.rootConnection(try await TestDirectory.shared())
        let schema = try await connection.schema()
        await connection.close()
        return schema
    }

    @Test("every definition of slapd's subschema parses, and they fit together")
    func wholeSubschemaParses() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let entry = try await connection.subschema()
        let schema = try LDAPSchema(subschema: entry)
        await connection.close()

        #expect(schema.attributeTypes.count == entry["attributeTypes"].count)
        #expect(schema.objectClasses.count == entry["objectClasses"].count)
        #expect(schema.syntaxes.count == entry["ldapSyntaxes"].count)
        #expect(schema.matchingRules.count == entry["matchingRules"].count)
        #expect(schema.attributeTypes.count > 250 && schema.objectClasses.count > 50)
        #expect(schema.syntaxes.count > 20 && schema.matchingRules.count > 20)

        // slapd checks its schema, so every chain and reference resolves,
        // except the attribute types of RFC 4512 that slapd does not
        // implement, which its own subentry and subschema classes name.
        let unimplemented: Set<String> = ["subtreeSpecification", "dITStructureRules", "nameForms", "dITContentRules"]
        for type in schema.attributeTypes {
            #expect(schema.resolvedSyntax(of: type) != nil, "\(type.name) has a syntax")
            if let superior = type.superior {
                #expect(schema.attributeType(named: superior) != nil, "\(type.name)'s supertype \(superior)")
            }
        }
        for objectClass in schema.objectClasses {
            for superior in objectClass.superiors {
                #expect(schema.objectClass(named: superior) != nil, "\(objectClass.name)'s superclass \(superior)")
            }
            for attribute in objectClass.must + objectClass.may where !unimplemented.contains(attribute) {
                #expect(schema.attributeType(named: attribute) != nil, "\(objectClass.name) lists \(attribute)")
            }
        }

        // Rendering gives back the same definitions.
        for type in schema.attributeTypes {
            #expect(try AttributeTypeDescription(parsing: type.definition) == type)
        }
        for objectClass in schema.objectClasses {
            #expect(try ObjectClassDescription(parsing: objectClass.definition) == objectClass)
        }
    }

    @Test("givenName takes its syntax and matching rules from name")
    func givenNameInheritsFromName() async throws {
        let schema = try await schema()
        let givenName = try #require(schema.attributeType(named: "givenName"))
        #expect(givenName.superior?.lowercased() == "name")
        #expect(givenName.syntax == nil && givenName.equality == nil)
        #expect(givenName.names.contains("gn"))
        #expect(schema.attributeType(named: "GN") == givenName)
        #expect(schema.attributeType(named: "2.5.4.42") == givenName)

        #expect(schema.resolvedSyntax(of: givenName) == Self.directoryString)
        #expect(schema.resolvedEquality(of: givenName) == "caseIgnoreMatch")
        #expect(schema.resolvedSubstring(of: givenName) == "caseIgnoreSubstringsMatch")
        #expect(schema.syntax(withOID: Self.directoryString)?.description == "Directory String")
        #expect(schema.matchingRule(named: "caseIgnoreMatch")?.syntax == Self.directoryString)
    }

    @Test("photos and certificates are binary, names are text")
    func binaryAttributes() async throws {
        let schema = try await schema()
        let jpegPhoto = try #require(schema.attributeType(named: "jpegPhoto"))
        #expect(schema.isBinary(jpegPhoto))
        #expect(schema.syntax(withOID: "1.3.6.1.4.1.1466.115.121.1.28")?.isHumanReadable == false)
        #expect(schema.isBinary(attributeNamed: "userCertificate;binary"))
        #expect(schema.isBinary(attributeNamed: "userPassword"))
        for name in ["cn", "givenName", "mail", "telephoneNumber", "entryUUID"] {
            #expect(!schema.isBinary(attributeNamed: name), "\(name)")
        }
    }

    @Test("inetOrgPerson's single-valued attributes")
    func singleValuedAttributes() async throws {
        let schema = try await schema()
        for name in ["employeeNumber", "preferredLanguage", "displayName"] {
            #expect(schema.attributeType(named: name)?.isSingleValued == true, "\(name)")
        }
        for name in ["cn", "mail", "telephoneNumber"] {
            #expect(schema.attributeType(named: name)?.isSingleValued == false, "\(name)")
        }
    }

    @Test("inetOrgPerson requires sn and cn through person and allows mail, jpegPhoto and roomNumber")
    func inetOrgPersonAttributes() async throws {
        let schema = try await schema()
        #expect(schema.superclasses(of: "inetOrgPerson").map(\.name)
                == ["inetOrgPerson", "organizationalPerson", "person", "top"])
        let required = schema.requiredAttributes(of: "inetOrgPerson")
        #expect(Set(required) == ["sn", "cn", "objectClass"])
        let allowed = schema.allowedAttributes(of: "inetOrgPerson")
        for name in ["mail", "jpegPhoto", "roomNumber", "givenName", "telephoneNumber", "title", "userPassword"] {
            #expect(allowed.contains(name), "\(name)")
        }
        #expect(!allowed.contains("sn") && !allowed.contains("cn"))
        #expect(schema.objectClass(named: "top")?.kind == .abstract)
        #expect(schema.objectClass(named: "inetOrgPerson")?.kind == .structural)
    }

    @Test("entryUUID and the timestamps are operational, cn is not")
    func operationalAttributes() async throws {
        let schema = try await schema()
        let entryUUID = try #require(schema.attributeType(named: "entryUUID"))
        #expect(entryUUID.isOperational && entryUUID.usage == .directoryOperation)
        #expect(!entryUUID.isUserModifiable)
        #expect(schema.attributeType(named: "modifyTimestamp")?.isOperational == true)
        #expect(schema.attributeType(named: "namingContexts")?.usage == .dSAOperation)
        #expect(schema.attributeType(named: "cn")?.isOperational == false)
    }

    @Test("an entry's schema is the one its subschemaSubentry names")
    func schemaForAnEntry() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "schema")
        let person = try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Lovelace")
        let forEntry = try await connection.schema(for: person)
        let forRoot = try await connection.schema()
        await connection.close()
        #expect(forEntry.attributeTypes == forRoot.attributeTypes)
        #expect(forEntry.objectClasses == forRoot.objectClasses)
    }
}
