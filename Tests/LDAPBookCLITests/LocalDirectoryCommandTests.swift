import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("With no directory configured, ldapbook uses (and starts) the local directory")
struct LocalDirectoryCommandTests {
    @Test("a plain command starts it from nothing; local status, path and stop manage it")
    func localDirectory() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("lb-\(UUID().uuidString.prefix(6))")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "LDAPNOINIT": "1"]
        defer { _ = try? CLI.run(["local", "stop"], environment: environment) }

        let before = try CLI.run(["local", "status"], environment: environment)
        #expect(before.status == 1)
        #expect(before.stdout.contains("not created"))

        let created = try CLI.run(["reach", "email", "ada", "lovelace", "--value", "ada@example.com", "--yes", "--no-input"],
                                  environment: environment)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "ada@example.com\n")
        let again = try CLI.run(["reach", "email", "ada", "--yes", "--no-input"], environment: environment)
        #expect(again.stdout == "ada@example.com\n")

        let status = try CLI.run(["local", "status"], environment: environment)
        #expect(status.status == 0)
        #expect(status.stdout.contains("running"))
        let path = try CLI.run(["local", "path"], environment: environment)
        #expect(path.stdout.contains(home.path))

        #expect(try CLI.run(["local", "stop"], environment: environment).status == 0)
        #expect(try CLI.run(["local", "status"], environment: environment).stdout.contains("stopped"))
        // The next command starts it again, with the data kept.
        let kept = try CLI.run(["find", "ada", "--field", "email", "--format", "json"], environment: environment)
        #expect(kept.stdout.contains("ada@example.com"))
    }
}
