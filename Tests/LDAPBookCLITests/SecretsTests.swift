import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("Passwords stay secret")
struct SecretsTests {
    @Test("The bind password never appears in the output of dry runs, data commands or errors")
    func neverPrinted() async throws {
        let server = try await CLI.shared()
        let (_, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.org"])])
        let connection = CLI.connectionArguments(server, base: base)
        let password = server.rootPassword
        let runs: [[String]] = [
            ["set", "ada lovelace", "email=ada2@example.org", "--dry-run"],
            ["add", "--given", "Grace", "--surname", "Hopper", "email=grace@example.org", "--dry-run"],
            ["show", "ada lovelace", "--format", "ldif"],
            ["show", "ada lovelace", "--format", "json"],
            ["export", "--format", "ldif"],
            ["find", "ada", "--explain"],
        ]
        for arguments in runs {
            let result = try CLI.run(arguments + connection)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            #expect(!result.stdout.contains(password) && !result.stderr.contains(password), "\(arguments)")
        }
        // A wrong password: the error names the DN and the server, never the password.
        let wrongFile = server.directory.appendingPathComponent("wrong-password-\(UUID().uuidString.prefix(6))")
        #expect(FileManager.default.createFile(atPath: wrongFile.path, contents: Data("not-the-Password-42".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        let wrong = try CLI.run(["find", "ada", "-H", server.ldapURI, "-b", base.string, "-D", server.rootDN, "-y", wrongFile.path])
        #expect(wrong.status == 77)
        #expect(wrong.stderr.contains("wrong bind DN or password"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not-the-Password-42") && !wrong.stdout.contains("not-the-Password-42"))
    }
}
