import Foundation
import LDAPKit
import SlapdKit
import Testing

/// The local index of people as it lives between runs: made once, kept current from the
/// server, never the judge of whom a write goes to.
@Suite("The local index between runs: sync, changes on the server, writes")
struct LocalIndexCommandTests {
    /// A container of people and a cache folder of its own, kept between the runs of one test.
    private func office(_ people: [(String, String, [String])], on given: Slapd? = nil) async throws
        -> (connection: LDAPConnection, base: DistinguishedName, arguments: [String], environment: [String: String], cache: URL)
    {
        let server: Slapd
        if let given { server = given } else { server = try await CLI.shared() }
        let (connection, base) = try await CLI.container(server, people: people)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-cache-\(UUID().uuidString.prefix(8))")
        return (connection, base, CLI.connectionArguments(server, base: base), ["XDG_CACHE_HOME": cache.path], cache)
    }

    /// The names `find` lists for `words`.
    private func names(_ words: [String], _ arguments: [String], _ environment: [String: String]) throws -> [String] {
        let result = try CLI.run(["find"] + words + ["--format", "json"] + arguments, environment: environment)
        guard result.status == 0 else { return [] }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (json["matches"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test("sync makes the index, private to the user; --status says what it holds without the server")
    func syncAndStatus() async throws {
        let (_, _, arguments, environment, cache) = try await office([("Ada", "Lovelace", ["ada@example.org"]), ("Alan", "Turing", [])])
        defer { try? FileManager.default.removeItem(at: cache) }
        let never = try CLI.run(["sync", "--status"] + arguments, environment: environment)
        #expect(never.status == 0 && never.stdout.contains("people: 0") && never.stdout.contains("synced: never"), "\(never.stdout)")
        let synced = try CLI.run(["sync"] + arguments, environment: environment)
        #expect(synced.status == 0 && synced.stdout.contains("read everyone") && synced.stdout.contains("people: 2"), "\(synced.stdout) \(synced.stderr)")
        let status = try CLI.run(["sync", "--status"] + arguments, environment: environment)
        #expect(status.stdout.contains("people: 2") && status.stdout.contains("seconds ago") && status.stdout.contains("bytes a person"),
                "\(status.stdout)")
        let folder = cache.appendingPathComponent("ldapbook/index")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int == 0o700)
        for file in files {
            #expect(try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file).path)[.posixPermissions] as? Int == 0o600,
                    "\(file)")
        }
        // No secret reaches the file: the bind password is not in it.
        let password = try String(contentsOfFile: arguments[arguments.firstIndex(of: "-y")! + 1], encoding: .utf8)
        for file in files {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(bytes.range(of: Data(password.utf8)) == nil)
        }
        let off = try CLI.run(["sync", "--no-cache"] + arguments, environment: environment)
        #expect(off.status == 64 && off.stderr.contains("turned off"), "\(off.stderr)")
        let both = try CLI.run(["sync", "--status", "--rebuild"] + arguments, environment: environment)
        #expect(both.status == 64)
    }

    @Test("a person added, changed, renamed or deleted on the server is seen so after a sync, by RFC 4533 or by polling",
          arguments: [true, false])
    func changesOnTheServer(contentSynchronization: Bool) async throws {
        // The shared server offers content synchronization; a plain slapd does not.
        var plain: Slapd?
        if !contentSynchronization {
            plain = try Slapd(configuration: SlapdConfiguration(suffix: CLI.suffix))
            try await plain!.start()
        }
        defer { plain?.cleanup() }
        let (connection, base, arguments, environment, cache) = try await office([
            ("Ada", "Lovelace", ["ada@example.org"]), ("Alan", "Turing", ["alan@example.org"]), ("Grace", "Hopper", []),
            ("Edsger", "Dijkstra", []),
        ], on: plain)
        defer { try? FileManager.default.removeItem(at: cache) }
        let method = contentSynchronization ? "rfc4533" : "poll"
        #expect(try names(["ada"], arguments, environment) == ["Ada Lovelace"])
        let status = try CLI.run(["sync", "--status"] + arguments, environment: environment)
        #expect(status.stdout.contains("method: \(method)"), "\(status.stdout)")
        // Someone else changes the directory.
        try await connection.add(LDAPEntry(dn: base.child("cn", "Barbara Liskov"), [
            "objectClass": ["inetOrgPerson"], "cn": ["Barbara Liskov"], "givenName": ["Barbara"], "sn": ["Liskov"],
        ]))
        try await connection.modify(base.child("cn", "Ada Lovelace"), [.replace("sn", values: ["King"]), .add("cn", values: ["Ada King"])])
        try await connection.rename(base.child("cn", "Grace Hopper"), to: RelativeDistinguishedName(type: "cn", value: "Grace Murray Hopper"),
                                    deletingOldRDN: true)
        try await connection.modify(base.child("cn", "Grace Murray Hopper"), [.replace("givenName", values: ["Amazing Grace"])])
        try await connection.delete(base.child("cn", "Edsger Dijkstra"))
        let synced = try CLI.run(["sync"] + arguments, environment: environment)
        #expect(synced.status == 0 && synced.stdout.contains("people: 4") && synced.stdout.contains("1 gone")
                    && synced.stdout.contains("synced (\(method), "), "\(synced.stdout) \(synced.stderr)")
        // Nothing changed since: nothing is filed again.
        let again = try CLI.run(["sync"] + arguments, environment: environment)
        #expect(again.stdout.contains(contentSynchronization ? "0 changed, 0 gone" : "0 gone"), "\(again.stdout)")
        #expect(try names(["barbara"], arguments, environment) == ["Barbara Liskov"])
        #expect(try names(["ada", "king"], arguments, environment) == ["Ada King"] || names(["ada", "king"], arguments, environment) == ["Ada Lovelace"])
        #expect(try names(["lovelace"], arguments, environment).isEmpty || names(["lovelace"], arguments, environment) == ["Ada Lovelace"],
                "only through her cn")
        #expect(try names(["king"], arguments, environment).count == 1)
        #expect(try names(["amazing"], arguments, environment).count == 1)
        #expect(try names(["dijkstra"], arguments, environment).isEmpty)
        // The renamed entry is shown and acted on at its new DN.
        let shown = try CLI.run(["show", "amazing", "grace", "--format", "ldif"] + arguments, environment: environment)
        #expect(shown.stdout.contains("dn: cn=Grace Murray Hopper,"), "\(shown.stdout) \(shown.stderr)")
        // --rebuild reads everyone again, to the same people.
        let rebuilt = try CLI.run(["sync", "--rebuild"] + arguments, environment: environment)
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("read everyone") && rebuilt.stdout.contains("people: 4"), "\(rebuilt.stdout)")
    }

    @Test("someone added meanwhile is found before reach offers a new entry, even with a young index")
    func missIsAskedAgain() async throws {
        let (connection, base, arguments, environment, cache) = try await office([("Ada", "Lovelace", ["ada@example.org"])])
        defer { try? FileManager.default.removeItem(at: cache) }
        #expect(try CLI.run(["sync"] + arguments, environment: environment).status == 0)
        try await connection.add(LDAPEntry(dn: base.child("cn", "Niklaus Wirth"), [
            "objectClass": ["inetOrgPerson"], "cn": ["Niklaus Wirth"], "givenName": ["Niklaus"], "sn": ["Wirth"],
            "mail": ["wirth@example.org"],
        ]))
        // The index, seconds old, has not heard of him; reach asks the server before concluding nobody.
        let reached = try CLI.run(["reach", "email", "niklaus", "wirth", "--yes", "--no-input", "--value", "other@example.org"] + arguments,
                                  environment: environment)
        #expect(reached.status == 0, "\(reached.stderr)")
        var wirths: [LDAPEntry] = []
        for try await entry in connection.search(base: base, filter: .equal("sn", "Wirth"), attributes: ["mail"]) { wirths.append(entry) }
        #expect(wirths.count == 1, "no second Niklaus Wirth: \(wirths)")
    }

    @Test("a stale index never sends a write to the wrong person")
    func staleIndexNeverWritesToTheWrongPerson() async throws {
        let (connection, base, arguments, environment, cache) = try await office([("Ada", "Lovelace", [])])
        defer { try? FileManager.default.removeItem(at: cache) }
        #expect(try CLI.run(["sync"] + arguments, environment: environment).status == 0)
        // Ada's entry is deleted, and someone else is added at the same DN.
        let dn = base.child("cn", "Ada Lovelace")
        try await connection.delete(dn)
        try await connection.add(LDAPEntry(dn: dn, [
            "objectClass": ["inetOrgPerson"], "cn": ["Ada Lovelace"], "givenName": ["Mallory"], "sn": ["Impostor"],
        ]))
        // The young index still has Ada there, without a title: reach would fill hers in.
        let reached = try CLI.run(["reach", "title", "ada", "lovelace", "--value", "Countess", "--yes", "--no-input"] + arguments,
                                  environment: environment)
        #expect(reached.status != 0 && reached.stderr.contains("nothing was written"), "\(reached.status) \(reached.stderr)")
        let entry = try #require(try await connection.read(dn, attributes: ["title", "givenName"]))
        #expect(entry.strings("title").isEmpty && entry.strings("givenName") == ["Mallory"])
        // The next lookup asks the server again, and sees who is there now.
        let found = try names(["ada", "lovelace"], arguments, environment)
        #expect(found.isEmpty || found == ["Ada Lovelace"])
        let mallory = try names(["mallory"], arguments, environment)
        #expect(mallory == ["Ada Lovelace"] || mallory == ["Mallory Impostor"], "\(mallory)")
    }

    @Test("one sync at a time: while another holds the index, a lookup asks the server and sync waits its turn")
    func oneSyncAtATime() async throws {
        let (_, _, arguments, environment, cache) = try await office([("Ada", "Lovelace", ["ada@example.org"]), ("Alan", "Turing", [])])
        defer { try? FileManager.default.removeItem(at: cache) }
        let status = try CLI.run(["sync", "--status"] + arguments, environment: environment)
        let path = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("index: ") }).dropFirst("index: ".count)
        // Another ldapbook syncing holds this lock, as this test does now.
        let other = open(String(path) + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        #expect(other >= 0)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
        // An index being made stands for nobody: the server answers, and the user is told why
        // (on a terminal, or with --verbose).
        let found = try CLI.run(["find", "lovelace", "--verbose"] + arguments, environment: environment)
        #expect(found.status == 0 && found.stdout.contains("Ada Lovelace"), "\(found.stdout) \(found.stderr)")
        #expect(found.stderr.contains("another ldapbook is making the local index"), "\(found.stderr)")
        #expect(try CLI.run(["sync", "--status"] + arguments, environment: environment).stdout.contains("people: 0"),
                "the lookup made no index of its own meanwhile")
        // sync waits for the other to end, then runs.
        let (waiting, out, err) = try CLI.start(["sync", "--verbose"] + arguments, environment: environment)
        try await Task.sleep(nanoseconds: 500_000_000)
        #expect(waiting.isRunning, "sync waits while another holds the index")
        flock(other, LOCK_UN)
        let synced = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0 && synced.contains("people: 2"), "\(synced)")
        #expect(said.contains("waiting for another ldapbook"), "the wait is not silent: \(said)")
        let fromIndex = try CLI.run(["find", "lovelace", "--verbose"] + arguments, environment: environment)
        #expect(fromIndex.status == 0 && !fromIndex.stderr.contains("another ldapbook"), "\(fromIndex.stderr)")

        // A holder that is stopped halfway (kill -STOP): a real process holds the lock, its
        // number in the file as a sync writes it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-x", String(path) + ".lock", "/bin/sleep", "60"]
        try holder.run()
        defer { holder.terminate() }
        while flock(other, LOCK_EX | LOCK_NB) == 0 {
            flock(other, LOCK_UN)
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let number = Array("\(holder.processIdentifier)\n".utf8)
        #expect(ftruncate(other, 0) == 0 && pwrite(other, number, number.count, 0) == number.count)
        kill(holder.processIdentifier, SIGSTOP)
        defer { kill(holder.processIdentifier, SIGCONT) }
        // sync says who is stopped, and gives up; nothing waits without end.
        let stopped = try CLI.run(["sync"] + arguments, environment: environment)
        #expect(stopped.status != 0 && stopped.stderr.contains("process \(holder.processIdentifier)), which is stopped")
                && stopped.stderr.contains("kill -CONT"), "\(stopped.stderr)")
        // reach never waits for it: a miss is asked of the server, forgiving, before a new entry.
        let typo = try CLI.run(["reach", "phone", "turnig", "--no-input"] + arguments, environment: environment)
        #expect(typo.status == 3 && typo.stderr.contains("Alan Turing"), "\(typo.stderr)")
        let nobody = try CLI.run(["reach", "phone", "zzzzzz", "--no-input"] + arguments, environment: environment)
        #expect(nobody.status == 3 && nobody.stderr.contains("new entry's"), "\(nobody.stderr)")
    }

    @Test("with the server stopped, a made index still answers, and says how old it is")
    func serverDown() async throws {
        let server = try Slapd(configuration: SlapdConfiguration(suffix: "dc=down,dc=example"))
        try await server.start()
        defer { server.cleanup() }
        let connection = try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI], base: try DistinguishedName(parsing: "dc=down,dc=example"),
            authentication: .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)),
            systemDefaults: .ignored))
        let base = try DistinguishedName(parsing: "dc=down,dc=example")
        try await connection.add(LDAPEntry(dn: base.child("cn", "Ada Lovelace"), [
            "objectClass": ["inetOrgPerson"], "cn": ["Ada Lovelace"], "givenName": ["Ada"], "sn": ["Lovelace"], "mail": ["ada@example.org"],
        ]))
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-cache-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["XDG_CACHE_HOME": cache.path]
        let arguments = CLI.connectionArguments(server, base: base)
        #expect(try CLI.run(["sync"] + arguments, environment: environment).status == 0)
        _ = await server.stop()
        // A config file ages the index at once, so the lookup must try the server first.
        let config = cache.appendingPathComponent("config")
        try "cache-max-age = 0\n".write(to: config, atomically: true, encoding: .utf8)
        let found = try CLI.run(["--config", config.path, "find", "lovelace"] + arguments, environment: environment)
        #expect(found.status == 0 && found.stdout.contains("Ada Lovelace"), "\(found.stdout) \(found.stderr)")
        #expect(found.stderr.contains("did not answer") && found.stderr.contains("ago"), "\(found.stderr)")
    }
}
