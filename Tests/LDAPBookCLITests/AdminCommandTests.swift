import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("ldapbook show, add, set, photo, query and fields against a real directory")
struct AdminCommandTests {
    private static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + (0...255).map { UInt8($0) } + [0xFF, 0xD9]

    @Test("add creates a person (and --dry-run only prints LDIF); show lists every field")
    func addAndShow() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [])
        let arguments = CLI.connectionArguments(server, base: base)
        let dry = try CLI.run(["add", "--given", "Grace", "--surname", "Hopper", "email=grace@example.com", "--dry-run"] + arguments)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("changetype: add"))
        #expect(dry.stdout.contains("mail: grace@example.com"))
        #expect(try await connection.search(base: base, filter: .equal("sn", "Hopper")).collect().isEmpty, "nothing written")

        let added = try CLI.run(["add", "--given", "Grace", "--surname", "Hopper", "email=grace@example.com",
                                 "phone=+1 555 0100", "shoe-size=37"] + arguments)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("uid=grace.hopper"))
        let shown = try CLI.run(["show", "grace", "hopper"] + arguments)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("email:"))
        #expect(shown.stdout.contains("grace@example.com"))
        #expect(shown.stdout.contains("shoe-size:"))
        let json = try CLI.run(["show", "grace", "--format", "json"] + arguments)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let fields = try #require(document["fields"] as? [String: Any])
        #expect(fields["phone"] as? [String] == ["+1 555 0100"])
        let card = try CLI.run(["show", "grace", "--format", "vcard"] + arguments)
        #expect(card.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
        #expect(card.stdout.contains("EMAIL:grace@example.com"))
        let ldif = try CLI.run(["show", "grace", "--format", "ldif"] + arguments)
        #expect(ldif.stdout.contains("sn: Hopper"))

        let invalid = try CLI.run(["add", "--given", "X", "--surname", "Y", "email=not-an-address"] + arguments)
        #expect(invalid.status == 65)
        let noSurname = try CLI.run(["add", "--given", "X"] + arguments)
        #expect(noSurname.status == 64)
    }

    @Test("set adds, replaces and removes values; bad input changes nothing")
    func set() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let arguments = CLI.connectionArguments(server, base: base)
        func mails() async throws -> Set<String> {
            Set(try await connection.search(base: base, filter: .equal("sn", "Lovelace")).collect().first?.strings("mail") ?? [])
        }
        #expect(try CLI.run(["set", "ada", "email=countess@example.com"] + arguments).status == 0)
        #expect(try await mails() == ["ada@example.com", "countess@example.com"])
        let dry = try CLI.run(["set", "ada", "--replace", "email", "email=only@example.com", "--dry-run"] + arguments)
        #expect(dry.stdout.contains("changetype: modify"))
        #expect(dry.stdout.contains("delete: mail"))
        #expect(try await mails() == ["ada@example.com", "countess@example.com"])
        #expect(try CLI.run(["set", "ada", "--replace", "email", "email=only@example.com"] + arguments).status == 0)
        #expect(try await mails() == ["only@example.com"])
        #expect(try CLI.run(["set", "ada", "email=second@example.com", "--remove", "email=only@example.com"] + arguments).status == 0)
        #expect(try await mails() == ["second@example.com"])
        let bad = try CLI.run(["set", "ada", "email=fine@example.com", "birthday=10/12/1815"] + arguments)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("birthday"))
        #expect(try await mails() == ["second@example.com"], "nothing of a refused change is written")
        let unreadable = try CLI.run(["set", "ada", "photo=@/nonexistent/face.jpg"] + arguments)
        #expect(unreadable.status == 66, "EX_NOINPUT: \(unreadable.stderr)")
        #expect(unreadable.stderr.contains("no such file or directory"))
    }

    @Test("photo writes the JPEG of the person meant; no photo is exit 1, never someone else's")
    func photo() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", []), ("Adam", "Smith", [])])
        let arguments = CLI.connectionArguments(server, base: base)
        let none = try CLI.run(["photo", "ada"] + arguments)
        #expect(none.status == 1)
        #expect(none.stderr.contains("no photo found for ada"))
        let file = server.directory.appendingPathComponent("face-\(UUID().uuidString.prefix(6)).jpg")
        try Data(Self.jpeg).write(to: file)
        let notJPEG = server.directory.appendingPathComponent("not.jpg")
        try Data("GIF89a".utf8).write(to: notJPEG)
        #expect(try CLI.run(["set", "adam", "photo=@\(notJPEG.path)"] + arguments).status == 65)
        #expect(try CLI.run(["set", "adam", "photo=@\(file.path)"] + arguments).status == 0)
        // "ada" means Ada, the one whose name it is whole: Adam's photo is not hers.
        #expect(try CLI.run(["photo", "ada"] + arguments).status == 1)
        let found = try CLI.run(["photo", "adam"] + arguments)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdoutBytes == Self.jpeg, "stdout is a pipe, so the bytes go there")
        let output = server.directory.appendingPathComponent("out.jpg")
        #expect(try CLI.run(["photo", "smith", "-o", output.path] + arguments).status == 0)
        #expect([UInt8](try Data(contentsOf: output)) == Self.jpeg)
    }

    @Test("query prints mutt's format (and aerc's), ranked; no match is exit 1")
    func query() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [
            ("Ada", "Lovelace", ["ada@example.com", "countess@example.com"]), ("Adam", "Smith", ["adam@example.com"]),
        ])
        let arguments = CLI.connectionArguments(server, base: base)
        let mutt = try CLI.run(["query", "ada"] + arguments)
        #expect(mutt.status == 0, "\(mutt.stderr)")
        let lines = mutt.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1] == "ada@example.com\tAda Lovelace\t")
        #expect(lines[3] == "adam@example.com\tAdam Smith\t")
        let aerc = try CLI.run(["query", "--format", "aerc", "ada"] + arguments)
        #expect(aerc.stdout.split(separator: "\n").count == 3)
        #expect(try CLI.run(["query", "zzz"] + arguments).status == 1)
        // The start of an address finds its owner, whatever their name.
        let address = try CLI.run(["query", "countess"] + arguments)
        #expect(address.stdout.split(separator: "\n").dropFirst().map(String.init) == ["countess@example.com\tAda Lovelace\t"],
                "\(address.stdout) \(address.stderr)")
    }

    @Test("delete and rename: confirmed with --yes, exit 3 without it and no terminal, the DN printed")
    func deleteAndRename() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"]),
                                                                           ("Edsger", "Dijkstra", [])])
        let arguments = CLI.connectionArguments(server, base: base)
        let unasked = try CLI.run(["rename", "ada", "--surname", "King"] + arguments)
        #expect(unasked.status == 3 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")
        let renamed = try CLI.run(["rename", "ada", "--surname", "King", "--yes"] + arguments)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == base.child("cn", "Ada King").string + "\n")
        let king = try await connection.read(base.child("cn", "Ada King"), attributes: ["sn", "cn", "givenName", "mail"])
        #expect(king?.strings("sn") == ["King"] && king?.strings("cn") == ["Ada King"] && king?.strings("mail") == ["ada@example.com"])
        #expect(try CLI.run(["rename", "ada"] + arguments).status == 64, "nothing to rename to")

        let kept = try CLI.run(["delete", "edsger"] + arguments)
        #expect(kept.status == 3, "\(kept.stderr)")
        #expect(try await connection.read(base.child("cn", "Edsger Dijkstra")) != nil, "nothing deleted without --yes")
        let deleted = try CLI.run(["delete", "edsger", "--yes"] + arguments)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try await connection.read(base.child("cn", "Edsger Dijkstra")) == nil)
        let container = try CLI.run(["delete", base.string, "--yes"] + arguments)
        #expect(container.status == 65 && container.stderr.contains("not subtrees"), "\(container.stderr)")
    }

    @Test("edit: the person in $EDITOR, saved as one change of the values edited; nothing written when unchanged, failed, invalid, or changed meanwhile")
    func edit() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        let ada = base.child("cn", "Ada Lovelace")
        try await connection.modify(ada, [.add("title", LDAPValue("Countess")), .add("description", LDAPValue("two\nlines"))])
        let arguments = CLI.connectionArguments(server, base: base)
        let scripts = server.directory.appendingPathComponent("editors-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        func editor(_ name: String, _ body: String) throws -> String {
            let file = scripts.appendingPathComponent(name)
            try ("#!/bin/sh\n" + body + "\n").write(to: file, atomically: true, encoding: .utf8)
            chmod(file.path, 0o755)
            return file.path
        }
        func stored() async throws -> LDAPEntry? {
            try await connection.read(ada, attributes: ["mail", "title", "description", "telephoneNumber", "cn", "sn"])
        }

        let saved = try editor("change", #"sed -i -e 's/^title: Countess$/title: Analyst/' -e '/^note:/d' "$1" && echo 'email: ada@engine.example' >> "$1""#)
        let changed = try CLI.run(["edit", "ada"] + arguments, environment: ["EDITOR": saved])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stderr.contains("- title: Countess") && changed.stderr.contains("+ email: ada@engine.example"), "\(changed.stderr)")
        var entry = try #require(try await stored())
        #expect(entry.strings("title") == ["Analyst"] && entry.strings("description").isEmpty)
        #expect(Set(entry.strings("mail")) == ["ada@example.com", "ada@engine.example"])
        #expect(entry.strings("cn") == ["Ada Lovelace"] && entry.strings("sn") == ["Lovelace"], "what was not edited stays")

        for (name, body, status) in [("same", "exit 0", Int32(1)), ("fail", "exit 3", 1),
                                     ("invalid", #"echo 'email: not-an-address' >> "$1""#, 65)] {
            let result = try CLI.run(["edit", "ada"] + arguments, environment: ["EDITOR": try editor(name, body)])
            #expect(result.status == status, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("nothing written"), "\(name): \(result.stderr)")
        }
        entry = try #require(try await stored())
        #expect(entry.strings("title") == ["Analyst"] && !entry.strings("mail").contains("not-an-address"))

        // Someone else changes the phone while the title is being edited: nothing of the edit is written.
        let meanwhile = try editor("meanwhile", ([CLI.executable.path] + arguments + ["set", "ada", "phone=+44 20 7946 0000"])
            .map { "'\($0)'" }.joined(separator: " ") + #" >/dev/null && sed -i 's/^title: Analyst$/title: Director/' "$1""#)
        let raced = try CLI.run(["edit", "ada"] + arguments, environment: ["EDITOR": meanwhile])
        #expect(raced.status == 1, "\(raced.stderr)")
        #expect(raced.stderr.contains("changed by someone else"), "\(raced.stderr)")
        entry = try #require(try await stored())
        #expect(entry.strings("title") == ["Analyst"] && entry.strings("telephoneNumber") == ["+44 20 7946 0000"])
    }

    @Test("query finds everyone at a mail domain: @domain, the start of one, or a domain with a dot")
    func queryByDomain() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [
            ("Ada", "Lovelace", ["ada@example.com", "countess@example.com"]), ("Adam", "Smith", ["adam@example.com"]),
            ("Charles", "Babbage", ["charles@analytical.example", "cb@example.com"]),
        ])
        let arguments = CLI.connectionArguments(server, base: base)
        func addresses(_ query: String) throws -> [String] {
            try CLI.run(["query", "--format", "aerc", query] + arguments).stdout.split(separator: "\n")
                .map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try addresses("@analytical") == ["charles@analytical.example"])
        #expect(try addresses("analytical.example") == ["charles@analytical.example"])
        #expect(Set(try addresses("@example.com")) == ["ada@example.com", "countess@example.com", "adam@example.com", "cb@example.com"])
        #expect(try CLI.run(["query", "@nowhere.example"] + arguments).status == 1)
    }

    @Test("query's third column is the title, department and organisation, or the fields --info names")
    func queryInfo() async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        try await connection.modify(base.child("cn", "Ada Lovelace"), [.add("title", LDAPValue("Countess")),
                                                                      .add("o", LDAPValue("Analytical Engines")),
                                                                      .add("mobile", LDAPValue("+44 7700 900000"))])
        let arguments = CLI.connectionArguments(server, base: base)
        #expect(try CLI.run(["query", "--format", "aerc", "ada"] + arguments).stdout
            == "ada@example.com\tAda Lovelace\tCountess, Analytical Engines\n")
        #expect(try CLI.run(["query", "--format", "aerc", "--info", "mobile", "ada"] + arguments).stdout
            == "ada@example.com\tAda Lovelace\t+44 7700 900000\n")
    }

    @Test("fields lists built-in names, then the person attributes of the schema")
    func fields() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [])
        let result = try CLI.run(["fields", "--format", "json"] + CLI.connectionArguments(server, base: base))
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let fields = try #require(document["fields"] as? [[String: Any]])
        #expect(fields.first?["name"] as? String == "email")
        #expect(fields.contains { $0["name"] as? String == "roomNumber" })
        #expect(!fields.contains { $0["name"] as? String == "olcAccess" })
        #expect(!fields.contains { $0["name"] as? String == "userPassword" })
        #expect(document["customFields"] as? Bool == true)
    }
}
