import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("Writes whose request or reply is lost are checked, never sent blindly twice")
struct LostReplyTests {
    private func proxy(_ server: Slapd) throws -> WriteLosingProxy {
        try WriteLosingProxy(to: UInt16(server.port))
    }

    @Test("A new person whose add reply was lost is found added, and added once", arguments: [WriteLosingProxy.Loss.reply, .request])
    func addWithLostHalf(_ loss: WriteLosingProxy.Loss) async throws {
        let server = try await BookDirectory.shared()
        let proxy = try proxy(server)
        defer { proxy.stop() }
        for naming in [EntryNaming.generatedUID, .commonName] {
            let book = try await proxy.book(server, naming: naming)
            let email = try await book.field(named: "email")
            _ = try await book.add(NewPerson(givenName: "Grace", surname: "Hopper"))
            let before = proxy.writesForwarded
            let lostBefore = proxy.writesLost

            proxy.loseNextWrite(loss)
            let added = try await book.add(NewPerson(givenName: "Ada", surname: "Lovelace", values: [(email, ["ada@example.org"])]))

            #expect(proxy.writesLost - lostBefore == 1)
            // A lost reply: the add reached the server once and was found there. A lost
            // request: it never did, and was sent once more.
            #expect(proxy.writesForwarded - before == 1)
            #expect(added.strings(of: email) == ["ada@example.org"])
            let people = try await BookDirectory.stored(book, server, attributes: ["sn", "mail"])
            let adas = people.filter { $0.strings("sn") == ["Lovelace"] }
            #expect(adas.count == 1, "added once: \(adas.map(\.dn))")
            #expect(adas.first?.dn == added.dn)
        }
    }

    @Test("Values added whose reply was lost are found written; a lost request is sent once more",
          arguments: [WriteLosingProxy.Loss.reply, .request])
    func addValuesWithLostHalf(_ loss: WriteLosingProxy.Loss) async throws {
        let server = try await BookDirectory.shared()
        let proxy = try proxy(server)
        defer { proxy.stop() }
        let book = try await proxy.book(server)
        let email = try await book.field(named: "email")
        let nickname = try await book.field(named: "nickname")
        let person = try await book.add(NewPerson(givenName: "Alan", surname: "Turing", values: [(email, ["alan@example.org"])]))
        let before = proxy.writesForwarded

        proxy.loseNextWrite(loss)
        let updated = try await book.add(["turing@example.org"], to: email, of: person)
        #expect(proxy.writesLost == 1)
        #expect(proxy.writesForwarded - before == 1)
        #expect(Set(updated.strings(of: email)) == ["alan@example.org", "turing@example.org"])

        // A value that needs ldapbook's class adds the class in the same change.
        proxy.loseNextWrite(loss)
        let named = try await book.add(["Prof"], to: nickname, of: updated)
        #expect(proxy.writesLost == 2)
        #expect(named.strings(of: nickname) == ["Prof"])
        let entry = try #require(try await BookDirectory.stored(book, server, attributes: ["mail", "objectClass", "ldapbookNickname"]).first)
        #expect(Set(entry.strings("mail")) == ["alan@example.org", "turing@example.org"])
        #expect(entry.strings("ldapbookNickname") == ["Prof"])
    }

    @Test("A replacement whose reply was lost is found made, and one whose request was lost is made once",
          arguments: [WriteLosingProxy.Loss.reply, .request])
    func replaceWithLostHalf(_ loss: WriteLosingProxy.Loss) async throws {
        let server = try await BookDirectory.shared()
        let proxy = try proxy(server)
        defer { proxy.stop() }
        let book = try await proxy.book(server)
        let phone = try await book.field(named: "phone")
        let person = try await book.add(NewPerson(givenName: "Edsger", surname: "Dijkstra", values: [(phone, ["+31 40 247 1111"])]))
        let before = proxy.writesForwarded

        proxy.loseNextWrite(loss)
        let updated = try await book.update(person, with: PersonChange(replacing: [(phone, ["+31 40 247 2222"])]))
        #expect(proxy.writesLost == 1)
        #expect(proxy.writesForwarded - before == 1)
        #expect(updated.strings(of: phone) == ["+31 40 247 2222"])
        #expect(try await BookDirectory.stored(book, server, attributes: ["telephoneNumber"]).first?.strings("telephoneNumber") == ["+31 40 247 2222"])
    }

    @Test("When someone else changes the field after the request was lost, nothing is sent again and their value stays")
    func changedMeanwhile() async throws {
        let server = try await BookDirectory.shared()
        let proxy = try proxy(server)
        defer { proxy.stop() }
        let book = try await proxy.book(server)
        let phone = try await book.field(named: "phone")
        let person = try await book.add(NewPerson(givenName: "Barbara", surname: "Liskov", values: [(phone, ["+1 617 000 0001"])]))
        let before = proxy.writesForwarded

        let dn = person.dn
        proxy.loseNextWrite(.request) {
            // Someone else's write lands between the lost request and the check.
            let direct = SpawnedProcess()
            direct.executableURL = URL(fileURLWithPath: "/usr/bin/ldapmodify")
            direct.arguments = ["-H", server.ldapiURI, "-Y", "EXTERNAL", "-Q"]
            let input = Pipe()
            direct.standardInput = input
            direct.standardOutput = FileHandle.nullDevice
            try? direct.run()
            input.fileHandleForWriting.write(Data("dn: \(dn.string)\nchangetype: modify\nreplace: telephoneNumber\ntelephoneNumber: +1 617 000 0003\n".utf8))
            try? input.fileHandleForWriting.close()
            direct.waitUntilExit()
        }
        await #expect {
            try await book.update(person, with: PersonChange(replacing: [(phone, ["+1 617 000 0002"])]))
        } throws: { error in
            (error as? AddressBookError)?.code == .changedMeanwhile
        }
        #expect(proxy.writesForwarded == before, "the change was not sent again")
        #expect(try await BookDirectory.stored(book, server, attributes: ["telephoneNumber"]).first?.strings("telephoneNumber") == ["+1 617 000 0003"])
    }

    @Test("When the server cannot be read after a lost reply, the error says the write may have been made")
    func cannotCheck() async throws {
        let server = try await BookDirectory.shared()
        let proxy = try proxy(server)
        let book = try await proxy.book(server)
        let email = try await book.field(named: "email")
        let person = try await book.add(NewPerson(givenName: "Frances", surname: "Allen"))

        proxy.loseNextWrite(.reply) { proxy.stop() }
        await #expect {
            try await book.add(["fran@example.org"], to: email, of: person)
        } throws: { error in
            guard let error = error as? LDAPError else { return false }
            return error.isServerDown && error.description.contains("whether it was written could not be checked")
        }
        #expect(try await BookDirectory.stored(book, server, attributes: ["mail"]).first?.strings("mail") == ["fran@example.org"],
                "the write was in fact made")
    }
}
