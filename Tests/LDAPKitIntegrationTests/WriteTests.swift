import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("Writing to a real slapd")
struct WriteTests {
    @Test("add, modify, rename and delete an entry")
    func addModifyRenameDelete() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "crud")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Byron")

        try await connection.modify(dn, [
            .add("mail", "ada@example.com", "countess@example.com"),
            .replace("sn", "Lovelace", "Byron"),
            .add("telephoneNumber", "+44 20 7946 0000"),
        ])
        var entry = try #require(try await connection.read(dn))
        #expect(Set(entry.strings("mail")) == ["ada@example.com", "countess@example.com"])
        #expect(Set(entry.strings("sn")) == ["Lovelace", "Byron"])

        try await connection.modify(dn, [.delete("mail", "countess@example.com"), .delete("telephoneNumber")])
        entry = try #require(try await connection.read(dn, attributes: ["mail", "telephoneNumber"]))
        #expect(entry.strings("mail") == ["ada@example.com"])
        #expect(!entry.has("telephoneNumber"))

        let renamedRDN = RelativeDistinguishedName(type: "cn", value: "Ada Lovelace")
        try await connection.rename(dn, to: renamedRDN)
        let renamed = container.child(renamedRDN)
        #expect(try await connection.read(dn) == nil)
        entry = try #require(try await connection.read(renamed, attributes: ["cn"]))
        #expect(entry.strings("cn") == ["Ada Lovelace"], "the old RDN value was deleted")

        let elsewhere = try await TestDirectory.makeContainer(connection, "moved")
        try await connection.rename(renamed, to: renamedRDN, under: elsewhere)
        #expect(try await connection.read(elsewhere.child(renamedRDN)) != nil)
        #expect(try await connection.read(renamed) == nil)

        try await connection.delete(elsewhere.child(renamedRDN))
        #expect(try await connection.read(elsewhere.child(renamedRDN)) == nil)
    }

    @Test("adding an existing entry is entryAlreadyExists; deleting a parent is notAllowedOnNonLeaf")
    func structuralErrors() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "errors")
        try await TestDirectory.addPerson(connection, under: container, given: "Alan", surname: "Turing")
        let duplicate = await #expect(throws: LDAPError.self) {
            try await TestDirectory.addPerson(connection, under: container, given: "Alan", surname: "Turing")
        }
        #expect(duplicate?.code == .entryAlreadyExists)
        #expect(duplicate?.isAlreadyExists == true)

        let nonLeaf = await #expect(throws: LDAPError.self) { try await connection.delete(container) }
        #expect(nonLeaf?.code == .notAllowedOnNonLeaf)

        let missingSurname = await #expect(throws: LDAPError.self) {
            try await connection.add(LDAPEntry(dn: container.child("cn", "Nobody"), [
                "objectClass": ["inetOrgPerson"], "cn": ["Nobody"],
            ]))
        }
        #expect(missingSurname?.code == .objectClassViolation)
        #expect(missingSurname?.message.contains("sn") == true, "the server's diagnostic names the attribute")
    }

    @Test("binary values round-trip byte for byte")
    func binaryRoundTrip() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "binary")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Grace", surname: "Hopper")
        var generator = SystemRandomNumberGenerator()
        var photo: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00]
        photo += (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        photo += [0x00, 0x00, 0xFF, 0xD9]
        try await connection.modify(dn, [.replace("jpegPhoto", LDAPValue(bytes: photo))])
        let entry = try #require(try await connection.read(dn, attributes: ["jpegPhoto"]))
        #expect(entry["jpegPhoto"].count == 1)
        #expect(entry["jpegPhoto"].first?.bytes == photo)
    }

    @Test("a duplicate value is attributeOrValueExists, and permissive modify lets it pass")
    func duplicateValueAndPermissiveModify() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "duplicate")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Lovelace",
                                                   extra: ["mail": ["ada@example.com"]])
        let error = await #expect(throws: LDAPError.self) {
            try await connection.modify(dn, [.add("mail", "ada@example.com")])
        }
        #expect(error?.code == .attributeOrValueExists)

        try await connection.modify(dn, [.add("mail", "ada@example.com", "second@example.com")],
                                    controls: [.permissiveModify])
        let entry = try #require(try await connection.read(dn, attributes: ["mail"]))
        #expect(entry.strings("mail").sorted() == ["ada@example.com", "second@example.com"])

        // OpenLDAP 2.5 applies the control to adds only: deleting a value
        // that is not there still fails, and still changes nothing.
        let absent = await #expect(throws: LDAPError.self) {
            try await connection.modify(dn, [.add("mail", "third@example.com"), .delete("mail", "absent@example.com")],
                                        controls: [.permissiveModify])
        }
        #expect(absent?.code == .noSuchAttribute)
        #expect(try await connection.read(dn, attributes: ["mail"])?.strings("mail").count == 2)
    }

    @Test("a failed assertion leaves the entry untouched")
    func assertionFailureChangesNothing() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "assertion")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Alan", surname: "Turing",
                                                   extra: ["mail": ["alan@example.com"]])
        let error = await #expect(throws: LDAPError.self) {
            try await connection.modify(dn, [.replace("mail", "someone-else@example.com")],
                                        controls: [.assertion(.equal("mail", "old@example.com"))])
        }
        #expect(error?.code == .assertionFailed)
        #expect(error?.isAssertionFailed == true)
        #expect(try await connection.read(dn)?.strings("mail") == ["alan@example.com"])

        try await connection.modify(dn, [.replace("mail", "turing@example.com")],
                                    controls: [.assertion(.equal("mail", "alan@example.com"))])
        #expect(try await connection.read(dn)?.strings("mail") == ["turing@example.com"])
    }

    @Test("pre-read and post-read controls return the entry before and after the change")
    func preAndPostRead() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "readcontrols")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Grace", surname: "Hopper",
                                                   extra: ["mail": ["grace@example.com"]])
        let response = try await connection.modify(dn, [.add("mail", "hopper@example.com")],
                                                   controls: [.preRead(["mail"]), .postRead(["mail", "sn"])])
        let before = try #require(try response.preReadEntry())
        let after = try #require(try response.postReadEntry())
        #expect(before.dn == dn)
        #expect(before.strings("mail") == ["grace@example.com"])
        #expect(Set(after.strings("mail")) == ["grace@example.com", "hopper@example.com"])
        #expect(after.strings("sn") == ["Hopper"])
    }

    @Test("compare answers true and false, and reports a missing attribute")
    func compare() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "compare")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Lovelace",
                                                   extra: ["mail": ["ada@example.com"]])
        #expect(try await connection.compare(dn, attribute: "mail", value: "ADA@example.com"))
        #expect(try await connection.compare(dn, attribute: "sn", value: "Turing") == false)
        let error = await #expect(throws: LDAPError.self) {
            _ = try await connection.compare(dn, attribute: "telephoneNumber", value: "1")
        }
        #expect(error?.code == .noSuchAttribute)
    }

    @Test("a value that violates the syntax is rejected and nothing changes")
    func syntaxViolation() async throws {
        let server = try await TestDirectory.shared()
        let connection = try await TestDirectory.rootConnection(server)
        let container = try await TestDirectory.makeContainer(connection, "syntax")
        let dn = try await TestDirectory.addPerson(connection, under: container, given: "Ada", surname: "Lovelace",
                                                   extra: ["mail": ["ada@example.com"]])
        let error = await #expect(throws: LDAPError.self) {
            try await connection.modify(dn, [.add("mail", "x@example.com"), .add("mail", LDAPValue("ä@é"))])
        }
        #expect(error?.isSchemaViolation == true)
        #expect(try await connection.read(dn)?.strings("mail") == ["ada@example.com"], "all or nothing")
        let single = await #expect(throws: LDAPError.self) {
            try await connection.modify(dn, [.add("preferredLanguage", "en", "fr")])
        }
        #expect(single?.code == .constraintViolation)
    }
}
