import Foundation
import Testing

@Suite("ldapbook server-config")
struct ServerConfigCommandTests {
    /// A password file in a fresh temporary directory.
    private func passwordFile(_ content: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("server-config-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("admin.pw")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data(content.utf8), attributes: [.posixPermissions: 0o600]))
        return file
    }

    @Test("A replicated node: server ID, consumers, hashed root password, never the password file's name or a clear root password")
    func replicatedNode() throws {
        let file = try passwordFile("node-pass\n")
        let result = try CLI.run(["server-config", "--suffix", "dc=example,dc=org", "--directory", "/var/lib/ldapbook",
                                  "--root-password-file", file.path, "--server-id", "3", "--peer", "ldap://ldap1",
                                  "--peer", "ldap://ldap2", "--ldapi-owner", "102:105"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("olcServerID: 3"))
        #expect(lines.filter { $0.hasPrefix("olcSyncrepl: ") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("olcRootPW: {SSHA}") })
        #expect(lines.contains { $0.hasPrefix("olcAuthzRegexp: ") && $0.contains("gidNumber=105\\+uidNumber=102,") })
        // The clear password appears only as the consumers' credentials, which slapd needs.
        #expect(lines.filter { $0.contains("node-pass") }.allSatisfy { $0.hasPrefix("olcSyncrepl: ") })
    }

    @Test("A single server with no password has no olcRootPW and no replication, and offers content synchronization")
    func singleServer() throws {
        let result = try CLI.run(["server-config", "--suffix", "o=Acme", "--directory", "/srv/ldap"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("olcSuffix: o=Acme\n"))
        #expect(!result.stdout.contains("olcRootPW"))
        #expect(!result.stdout.contains("olcSyncrepl"))
        #expect(!result.stdout.contains("accesslog"))
        // The local indexes of people ask it what changed (RFC 4533), deletions too.
        #expect(result.stdout.contains("olcOverlay: {0}syncprov") || result.stdout.contains("olcOverlay: syncprov"), "\(result.stdout)")
        #expect(result.stdout.contains("olcSpSessionLog: 10000"))
    }

    @Test("Bad options end with exit 64 or 65, a reason, and no LDIF", arguments: [
        (["--directory", "/srv/ldap"], 64, "--suffix must be given"),
        (["--suffix", "o=Acme", "--directory", "relative"], 64, "absolute path"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--server-id", "1"], 64, "at least one --peer"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--server-id", "5000", "--peer", "ldap://b"], 64, "--server-id"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--server-id", "1", "--peer", "ldap://b"], 64, "needs a password"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--root-password-file", "/nonexistent/pw"], 64, "cannot read /nonexistent/pw"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--ldapi-owner", "root"], 64, "numeric UID:GID"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--tls-key", "k.pem"], 64, "need --tls-certificate"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--root-password-hash", "{SSHA}x", "--server-id", "1",
          "--peer", "b:389", "--replication-password-file", "{private}"], 65, "is not an ldap://"),
        (["--suffix", "o=Acme", "--directory", "/srv/ldap", "--root-password-file", "{readable}"], 64, "chmod 600"),
    ] as [([String], Int32, String)])
    func badOptions(arguments: [String], status: Int32, reason: String) throws {
        let readable = try passwordFile("shared\n")
        _ = chmod(readable.path, 0o644)
        let files = ["{private}": try passwordFile("secret\n").path, "{readable}": readable.path]
        let result = try CLI.run(["server-config"] + arguments.map { files[$0] ?? $0 })
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
