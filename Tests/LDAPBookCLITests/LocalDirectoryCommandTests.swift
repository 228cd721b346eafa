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

@Suite("The local directory of an unprivileged user")
struct UnprivilegedLocalDirectoryTests {
    /// `nobody`, whom the test runs ldapbook as when it runs as root.
    static let nobody: UInt32 = 65534

    @Test("a plain add as an unprivileged user creates it from nothing, owner-only, and local stop ends it")
    func firstCommandAsUnprivilegedUser() async throws {
        let isRoot = getuid() == 0
        let userID = isRoot ? Self.nobody : getuid()
        let groupID = isRoot ? Self.nobody : getgid()
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("lb-user-\(UUID().uuidString.prefix(8))")
        let dataHome = home.appendingPathComponent("data"), configHome = home.appendingPathComponent("config")
        for directory in [home, dataHome, configHome] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        defer { try? FileManager.default.removeItem(at: home) }
        let launcher = isRoot ? ["/usr/bin/setpriv", "--reuid=\(userID)", "--regid=\(groupID)", "--clear-groups", "--"] : []

        // The build directory may not be open to that user: then run a copy they can read.
        var binary = CLI.executable
        if isRoot {
            let probe = SpawnedProcess()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            probe.arguments = Array(launcher.dropFirst()) + ["/usr/bin/test", "-x", binary.path]
            try probe.run()
            probe.waitUntilExit()
            if probe.terminationStatus != 0 {
                let copy = home.appendingPathComponent("bin/ldapbook")
                try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: binary, to: copy)
                binary = copy
            }
            for path in [home, dataHome, configHome, home.appendingPathComponent("bin")] + (binary == CLI.executable ? [] : [binary]) {
                if FileManager.default.fileExists(atPath: path.path) {
                    #expect(chown(path.path, userID, groupID) == 0, "chown \(path.path)")
                }
            }
        }
        let environment = ["HOME": home.path, "XDG_DATA_HOME": dataHome.path, "XDG_CONFIG_HOME": configHome.path,
                           "XDG_RUNTIME_DIR": "", "LDAPNOINIT": "1", "USER": isRoot ? "nobody" : NSUserName()]
        // Run from the user's home: the checkout, the test's working directory, may be closed to them.
        func ldapbook(_ arguments: [String]) throws -> CLI.Result {
            try CLI.run(arguments, environment: environment, launcher: launcher, binary: binary, directory: home)
        }
        defer { _ = try? ldapbook(["local", "stop"]) }

        let added = try ldapbook(["add", "--given", "Ada", "--surname", "Lovelace", "email=ada@example.org"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "uid=ada.lovelace,ou=people,\(LocalDirectory.suffix)\n")

        let found = try ldapbook(["find", "ada", "--field", "email", "--format", "json"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("ada@example.org"))
        #expect(found.stdout.contains("\"Lovelace\""))

        let status = try ldapbook(["local", "status"])
        #expect(status.status == 0, "\(status.stderr)")
        let pid = try #require(status.stdout.split(separator: "pid ").last?.prefix { $0.isNumber }).description
        let processStatus = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let uidLine = processStatus.split(separator: "\n").first { $0.hasPrefix("Uid:") }
        #expect(uidLine?.split(whereSeparator: \.isWhitespace).dropFirst().allSatisfy { $0 == "\(userID)" } == true,
                "slapd runs as uid \(userID): \(uidLine ?? "")")

        let data = dataHome.appendingPathComponent("ldapbook")
        var information = stat()
        #expect(stat(data.path, &information) == 0)
        #expect(information.st_uid == userID)
        #expect(information.st_mode & 0o777 == 0o700, "owner-only: \(String(information.st_mode & 0o777, radix: 8))")
        let contents = try FileManager.default.subpathsOfDirectory(atPath: data.path)
        #expect(contents.contains("slapd.d"))
        for path in contents {
            var entry = stat()
            #expect(lstat(data.appendingPathComponent(path).path, &entry) == 0)
            #expect(entry.st_uid == userID, "\(path) belongs to uid \(userID)")
        }

        let stopped = try ldapbook(["local", "stop"])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(try ldapbook(["local", "status"]).stdout == "stopped\n")
        // Gone, or a zombie waiting for whoever adopted it to reap it.
        func isRunning() -> Bool {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
            return !text.contains("State:\tZ")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while isRunning() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!isRunning(), "no slapd left running")
    }
}
