import Foundation
import Glibc
import Testing
@testable import SlapdKit

@Suite("Local directory")
struct LocalDirectoryTests {
    // MARK: Creating and starting

    @Test("Starts from nothing: a private data directory, the owner is the root DN, people and schema exist")
    func startFromNothing() async throws {
        try await Self.withLocalDirectory { directory in
            #expect(directory.status() == .notCreated)
            #expect(!FileManager.default.fileExists(atPath: directory.dataDirectory.path))

            let started = try await directory.start()
            let processIdentifier = try #require(started.processIdentifier)
            #expect(directory.status() == .running(pid: processIdentifier))
            #expect(try Self.mode(of: directory.dataDirectory) == 0o700)
            #expect(directory.socketPath == directory.dataDirectory.appendingPathComponent("ldapi").path)

            let whoami = await Self.whoami(directory)
            #expect(whoami.status == .exited(0), "\(whoami.errors)")
            #expect(whoami.output.trimmingTrailingWhitespace().lowercased() == "dn:" + LocalDirectory.rootDN)

            let suffix = await Self.search(directory, base: LocalDirectory.suffix)
            #expect(suffix.output.contains("dn: dc=ldapbook,dc=local"), "\(suffix.errors)")
            #expect(suffix.output.contains("objectClass: dcObject"))
            let people = await Self.search(directory, base: directory.peopleBase)
            #expect(people.output.contains("dn: ou=people,dc=ldapbook,dc=local"), "\(people.errors)")
            #expect(people.output.contains("objectClass: organizationalUnit"))
            let schema = await Self.search(directory, base: "cn=Subschema", filter: "(objectClass=subschema)", attributes: ["objectClasses"])
            #expect(schema.output.contains("NAME '\(LDAPBookSchema.objectClass)'"), "\(schema.errors)")

            try await directory.stop()
        }
    }

    @Test("Listens on its ldapi socket and on no TCP port")
    func socketOnly() async throws {
        try await Self.withLocalDirectory { directory in
            let processIdentifier = try #require(try await directory.start().processIdentifier)
            let arguments = try Self.commandLine(of: processIdentifier)
            let listeners = try #require(arguments.firstIndex(of: "-h").map { arguments[$0 + 1] })
            #expect(listeners == directory.ldapiURI + "/")

            var information = stat()
            #expect(lstat(directory.socketPath, &information) == 0)
            #expect(information.st_mode & S_IFMT == S_IFSOCK)
            let sockets = try Self.socketInodes(of: processIdentifier)
            #expect(!sockets.isEmpty)
            #expect(sockets.isDisjoint(with: try Self.listeningTCPInodes()), "slapd listens on TCP")
            try await directory.stop()
        }
    }

    @Test("Starting again finds the running server, from the same value or another one")
    func startIsIdempotent() async throws {
        try await Self.withLocalDirectory { directory in
            let first = try await directory.start()
            let second = try await directory.start()
            let third = try await LocalDirectory(dataDirectory: directory.dataDirectory, environment: [:]).start()
            #expect(first.isRunning)
            #expect(second == first)
            #expect(third == first)
            #expect(try Self.servers(of: directory).count == 1)
            try await directory.stop()
        }
    }

    @Test("Concurrent starts create and run a single server")
    func concurrentStarts() async throws {
        try await Self.withLocalDirectory { directory in
            let statuses = try await withThrowingTaskGroup(of: LocalDirectory.Status.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await LocalDirectory(dataDirectory: directory.dataDirectory, environment: [:]).start()
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 4)
            #expect(Set(statuses).count == 1)
            let processIdentifier = try #require(statuses.first?.processIdentifier)
            #expect(try Self.servers(of: directory) == [processIdentifier])
            let people = await Self.search(directory, base: directory.peopleBase, scope: "one")
            #expect(people.status == .exited(0), "\(people.errors)")
            #expect(Tool.entryCount(people.output) == 0)
            try await directory.stop()
        }
    }

    @Test("The server is detached: it outlives its manager, in its own session, outside the exit registry")
    func detachedServer() async throws {
        try await Self.withLocalDirectory { directory in
            let processIdentifier: pid_t = try await {
                let manager = LocalDirectory(dataDirectory: directory.dataDirectory, environment: [:])
                return try #require(try await manager.start().processIdentifier)
            }()
            #expect(directory.status() == .running(pid: processIdentifier))

            let stat = try Self.statFields(of: processIdentifier)
            #expect(stat.session == processIdentifier, "slapd does not lead its own session")
            #expect(stat.session != getsid(0))
            #expect(!ProcessRegistry.shared.contains(processIdentifier))

            let descriptors = "/proc/\(processIdentifier)/fd"
            let fileManager = FileManager.default
            #expect(try fileManager.destinationOfSymbolicLink(atPath: "\(descriptors)/0") == "/dev/null")
            #expect(try fileManager.destinationOfSymbolicLink(atPath: "\(descriptors)/1") == directory.logFile.path)
            #expect(try fileManager.destinationOfSymbolicLink(atPath: "\(descriptors)/2") == directory.logFile.path)
            let openFiles = try fileManager.contentsOfDirectory(atPath: descriptors)
                .compactMap { try? fileManager.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)") }
            #expect(!openFiles.contains(directory.lockFile.path), "slapd inherited the lock")
            let ourPipesAndSockets = try fileManager.contentsOfDirectory(atPath: "/proc/self/fd")
                .compactMap { try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
                .filter { $0.hasPrefix("pipe:") || $0.hasPrefix("socket:") }
            #expect(Set(openFiles).isDisjoint(with: ourPipesAndSockets), "slapd inherited descriptors: \(openFiles)")
            #expect(try fileManager.destinationOfSymbolicLink(atPath: "/proc/\(processIdentifier)/cwd") == directory.dataDirectory.path)

            let whoami = await Self.whoami(directory)
            #expect(whoami.status == .exited(0), "\(whoami.errors)")
            try await directory.stop()
        }
    }

    @Test("Descriptors another thread opens while the server is being spawned stay out of it")
    func noDescriptorsOpenedDuringTheSpawn() async throws {
        try await Self.withLocalDirectory { directory in
            let opener = PipeOpener()
            opener.start()
            let processIdentifier = try await {
                defer { opener.stop() }
                return try #require(try await directory.start().processIdentifier)
            }()
            #expect(opener.pipesOpened > 0)
            let fileManager = FileManager.default
            let descriptors = "/proc/\(processIdentifier)/fd"
            let openFiles = try fileManager.contentsOfDirectory(atPath: descriptors)
                .compactMap { try? fileManager.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)") }
            let inherited = Set(openFiles).intersection(opener.pipeNames)
            #expect(inherited.isEmpty, "slapd inherited \(inherited)")
            opener.closeAll()
            try await directory.stop()
        }
    }

    // MARK: Stopping

    @Test("Stop ends the server and removes its socket and pid file; starting again keeps the data")
    func stopAndStartAgain() async throws {
        try await Self.withLocalDirectory { directory in
            let first = try #require(try await directory.start().processIdentifier)
            let add = try await Self.add(directory, ldif: """
            dn: cn=Ada Lovelace,\(directory.peopleBase)
            objectClass: inetOrgPerson
            objectClass: \(LDAPBookSchema.objectClass)
            cn: Ada Lovelace
            sn: Lovelace
            ldapbookNickname: Ada

            """)
            #expect(add.status == .exited(0), "\(add.errors)")

            try await directory.stop()
            #expect(directory.status() == .stopped)
            #expect(!FileManager.default.fileExists(atPath: directory.socketPath))
            #expect(!FileManager.default.fileExists(atPath: directory.layout.pidFile.path))
            #expect(!directory.isServer(first))
            try await directory.stop()
            #expect(directory.status() == .stopped)

            let second = try #require(try await directory.start().processIdentifier)
            #expect(second != first)
            let found = await Self.search(directory, base: directory.peopleBase, scope: "one", filter: "(ldapbookNickname=Ada)", attributes: ["cn"])
            #expect(found.output.contains("cn: Ada Lovelace"), "\(found.errors)")
            try await directory.stop()
        }
    }

    @Test("Stopping a directory that was never created does nothing and creates nothing")
    func stopWithoutDirectory() async throws {
        try await Self.withLocalDirectory { directory in
            try await directory.stop()
            #expect(directory.status() == .notCreated)
            #expect(!FileManager.default.fileExists(atPath: directory.dataDirectory.path))
        }
    }

    @Test("A stale pid file and socket left by a crash, or a pid file naming another process, are ignored")
    func stalePidFile() async throws {
        try await Self.withLocalDirectory { directory in
            let crashed = try #require(try await directory.start().processIdentifier)
            kill(crashed, SIGKILL)
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(5)
            while directory.status() != .stopped, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(directory.status() == .stopped)
            #expect(FileManager.default.fileExists(atPath: directory.layout.pidFile.path))
            #expect(FileManager.default.fileExists(atPath: directory.socketPath))

            try "\(getpid())\n".write(to: directory.layout.pidFile, atomically: true, encoding: .utf8)
            #expect(directory.status() == .stopped)

            let restarted = try #require(try await directory.start().processIdentifier)
            #expect(restarted != crashed)
            #expect(restarted != getpid())
            let whoami = await Self.whoami(directory)
            #expect(whoami.status == .exited(0), "\(whoami.errors)")
            try await directory.stop()
        }
    }

    @Test("A running server whose socket was deleted is restarted on a new one")
    func deletedSocket() async throws {
        try await Self.withLocalDirectory { directory in
            let first = try #require(try await directory.start().processIdentifier)
            try FileManager.default.removeItem(atPath: directory.socketPath)
            let second = try #require(try await directory.start().processIdentifier)
            #expect(second != first)
            #expect(!directory.isServer(first))
            let whoami = await Self.whoami(directory)
            #expect(whoami.status == .exited(0), "\(whoami.errors)")
            try await directory.stop()
        }
    }

    @Test("A server that exits during startup is reported with its log, and the directory stays stopped")
    func startupFailure() async throws {
        try await Self.withLocalDirectory { directory in
            var broken = directory
            broken.configuration.slapdExecutable = URL(fileURLWithPath: "/bin/sh")
            let error = await #expect(throws: SlapdError.self) { try await broken.start() }
            #expect(error?.kind == .exitedDuringStartup)
            #expect(error?.description.contains("exit status 2") == true, "\(String(describing: error))")
            #expect(error?.output.contains("-d") == true, "the log of the failed start is not quoted")
            #expect(directory.status() == .stopped)

            #expect(try await directory.start().isRunning)
            try await directory.stop()
        }
    }

    // MARK: Access

    @Test("Anonymous clients see nothing, not even the root DSE or the schema, and the root DN has no password")
    func anonymousSeesNothing() async throws {
        try await Self.withLocalDirectory { directory in
            try await directory.start()
            for (base, scope) in [(LocalDirectory.suffix, "sub"), ("", "base"), ("cn=Subschema", "base")] {
                let search = await Self.search(directory, base: base, scope: scope, attributes: ["*", "+"], anonymous: true)
                #expect(Tool.entryCount(search.output) == 0, "anonymous read \(base): \(search.output)")
            }
            let passwordFile = directory.dataDirectory.appendingPathComponent("guess")
            _ = FileManager.default.createFile(atPath: passwordFile.path, contents: Data("secret".utf8), attributes: [.posixPermissions: 0o600])
            let simpleBind = await Tool.run(
                "/usr/bin/ldapwhoami",
                ["-x", "-H", directory.ldapiURI, "-D", LocalDirectory.rootDN, "-y", passwordFile.path]
            )
            #expect(simpleBind.status == .exited(49), "\(simpleBind.output) \(simpleBind.errors)")
            try await directory.stop()
        }
    }

    @Test("The configuration maps only the owner's uid and gid and grants nothing to anyone else")
    func generatedConfiguration() async throws {
        try await Self.withTemporaryDirectory { root in
            let directory = LocalDirectory(
                dataDirectory: root.appendingPathComponent("ldapbook"),
                socketFile: root.appendingPathComponent("ldapbook/ldapi"),
                userID: 1234,
                groupID: 5678
            )
            try directory.prepareDirectories()
            try await directory.createIfNeeded()
            #expect(directory.status() == .stopped)
            #expect(try Self.mode(of: directory.dataDirectory) == 0o700)

            let ldif = try String(contentsOf: directory.layout.configurationLDIF, encoding: .utf8)
            let lines = ldif.split(separator: "\n").map(String.init)
            let rootDN = LocalDirectory.rootDN
            #expect(lines.contains(#"olcAuthzRegexp: {0}"^gidNumber=5678\+uidNumber=1234,cn=peercred,cn=external,cn=auth$" "\#(rootDN)""#))
            #expect(lines.filter { $0.hasPrefix("olcAuthzRegexp:") }.count == 1)
            let ownerOnly = #"olcAccess: {0}to * by dn.exact="\#(rootDN)" manage by * none"#
            #expect(lines.filter { $0 == ownerOnly }.count == 2, "database and frontend")
            #expect(lines.filter { $0.hasPrefix("olcAccess:") }.count == 3, "the config database adds its own rule")
            #expect(!lines.contains { $0.hasPrefix("olcRootPW") })
            #expect(lines.contains("olcSuffix: \(LocalDirectory.suffix)"))
        }
    }

    @Test("A directory created for another user answers that user as the root DN, and nobody else")
    func anotherOwner() async throws {
        let nobody: UInt32 = 65534
        try await Self.withTemporaryDirectory { root in
            let directory = LocalDirectory(
                dataDirectory: root,
                socketFile: root.appendingPathComponent("ldapi"),
                userID: nobody,
                groupID: nobody
            )
            try directory.prepareDirectories()
            try await directory.createIfNeeded()
            let chown = await Tool.run("/bin/chown", ["-R", "\(nobody):\(nobody)", root.path])
            #expect(chown.status == .exited(0), "\(chown.errors)")

            let asNobody = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]
            let slapd = ChildProcess(
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: asNobody + [
                    "/usr/sbin/slapd", "-d", "none",
                    "-F", directory.layout.configurationDirectory.path,
                    "-h", directory.layout.listenerURLs(tcpPort: nil),
                ],
                diesWithThisProcess: true
            )
            try slapd.launch()
            defer { slapd.send(SIGKILL) }

            let whoamiArguments = ["/usr/bin/ldapwhoami", "-Q", "-Y", "EXTERNAL", "-H", directory.ldapiURI]
            var owner = await Tool.run("/usr/bin/setpriv", asNobody + whoamiArguments)
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            while owner.status != .exited(0), !slapd.hasExited, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                owner = await Tool.run("/usr/bin/setpriv", asNobody + whoamiArguments)
            }
            #expect(owner.output.trimmingTrailingWhitespace().lowercased() == "dn:" + LocalDirectory.rootDN,
                    "\(owner.errors) \(slapd.standardError.text)")
            let ownersPeople = await Tool.run("/usr/bin/setpriv", asNobody + [
                "/usr/bin/ldapsearch", "-Q", "-Y", "EXTERNAL", "-LLL", "-H", directory.ldapiURI,
                "-b", directory.peopleBase, "-s", "base", "1.1",
            ])
            #expect(Tool.entryCount(ownersPeople.output) == 1, "\(ownersPeople.errors)")

            let stranger = await Self.whoami(directory)
            #expect(stranger.output.trimmingTrailingWhitespace() == "dn:gidNumber=\(getgid())+uidNumber=\(getuid()),cn=peercred,cn=external,cn=auth")
            let strangersSearch = await Self.search(directory, base: LocalDirectory.suffix, scope: "sub")
            #expect(strangersSearch.status != .exited(0))
            #expect(Tool.entryCount(strangersSearch.output) == 0, "another user read \(strangersSearch.output)")

            slapd.send(SIGTERM)
            #expect(await slapd.waitForExit(timeout: .seconds(10)) != nil)
        }
    }

    // MARK: Locations

    @Test("The data directory follows XDG_DATA_HOME, else HOME; the socket moves out only when its path is too long")
    func locations() {
        let xdg = LocalDirectory(environment: ["XDG_DATA_HOME": "/data/ada", "HOME": "/home/ada"])
        #expect(xdg.dataDirectory.path == "/data/ada/ldapbook")
        #expect(xdg.socketPath == "/data/ada/ldapbook/ldapi")
        #expect(xdg.ldapiURI == "ldapi://%2Fdata%2Fada%2Fldapbook%2Fldapi")
        #expect(xdg.logFile.path == "/data/ada/ldapbook/slapd.log")
        #expect(xdg.peopleBase == "ou=people,dc=ldapbook,dc=local")

        #expect(LocalDirectory(environment: ["HOME": "/home/ada"]).dataDirectory.path == "/home/ada/.local/share/ldapbook")
        #expect(LocalDirectory(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ada"]).dataDirectory.path == "/home/ada/.local/share/ldapbook")
        #expect(LocalDirectory(environment: ["XDG_DATA_HOME": "", "HOME": "/home/ada"]).dataDirectory.path == "/home/ada/.local/share/ldapbook")
        #expect(LocalDirectory(environment: [:]).dataDirectory.path.hasSuffix("/.local/share/ldapbook"))

        let longHome = "/home/" + String(repeating: "a", count: 100)
        let runtime = LocalDirectory(environment: ["HOME": longHome, "XDG_RUNTIME_DIR": "/run/user/1000"])
        let hash = LocalDirectory.pathHash(longHome + "/.local/share/ldapbook")
        #expect(hash.count == 16)
        #expect(runtime.socketPath == "/run/user/1000/ldapbook/ldapi-\(hash)")
        let temporary = LocalDirectory(environment: ["HOME": longHome])
        #expect(temporary.socketPath == "/tmp/ldapbook-\(getuid())/ldapi-\(hash)")
        let other = LocalDirectory(environment: ["HOME": longHome + "b"])
        #expect(other.socketPath != temporary.socketPath)
        let longRuntime = LocalDirectory(environment: ["HOME": longHome, "XDG_RUNTIME_DIR": "/" + String(repeating: "r", count: 100)])
        #expect(longRuntime.socketPath == temporary.socketPath)
    }

    @Test("A data directory too deep for a socket path runs with its socket in the runtime directory")
    func socketInRuntimeDirectory() async throws {
        try await Self.withTemporaryDirectory { root in
            let runtime = root.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false)
            let deep = root.appendingPathComponent(String(repeating: "d", count: 60)).appendingPathComponent(String(repeating: "e", count: 60))
            let directory = LocalDirectory(dataDirectory: deep, environment: ["XDG_RUNTIME_DIR": runtime.path])
            try await Self.stoppingAfterwards(directory) {
                #expect(directory.socketPath.hasPrefix(runtime.path + "/ldapbook/ldapi-"))
                let started = try await directory.start()
                #expect(started.isRunning)
                #expect(try Self.mode(of: runtime.appendingPathComponent("ldapbook")) == 0o700)
                let whoami = await Self.whoami(directory)
                #expect(whoami.status == .exited(0), "\(whoami.errors)")
                try await directory.stop()
                #expect(!FileManager.default.fileExists(atPath: directory.socketPath))
            }
        }
    }

    @Test("A socket directory that belongs to someone else is refused")
    func foreignSocketDirectory() async throws {
        try await Self.withTemporaryDirectory { root in
            let runtime = root.appendingPathComponent("run")
            let foreign = runtime.appendingPathComponent("ldapbook")
            try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
            #expect(chown(foreign.path, 65534, 65534) == 0)
            let deep = root.appendingPathComponent(String(repeating: "f", count: 60)).appendingPathComponent(String(repeating: "g", count: 60))
            let directory = LocalDirectory(dataDirectory: deep, environment: ["XDG_RUNTIME_DIR": runtime.path])
            let error = await #expect(throws: SlapdError.self) { try await directory.start() }
            #expect(error?.kind == .fileSystem)
            #expect(error?.message.contains("uid 65534") == true, "\(String(describing: error))")
            #expect(directory.status() == .notCreated)
        }
    }
}

// MARK: - Directories, processes and client tools

extension LocalDirectoryTests {
    /// Runs `body` with a fresh directory under /tmp (short enough for socket paths), then
    /// removes it.
    static func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
        var template = Array("/tmp/ldapbook-test-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        try #require(created)
        let root = URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await body(root)
    }

    /// Runs `body` with a local directory in a fresh temporary directory, then stops its
    /// server (these servers are detached, so nothing else would) and removes it.
    static func withLocalDirectory(_ body: (LocalDirectory) async throws -> Void) async throws {
        try await withTemporaryDirectory { root in
            let directory = LocalDirectory(dataDirectory: root.appendingPathComponent("ldapbook"), environment: [:])
            try await stoppingAfterwards(directory) {
                try await body(directory)
            }
        }
    }

    /// Runs `body`, then kills every slapd still serving `directory`, whether `body`
    /// succeeded or not.
    static func stoppingAfterwards(_ directory: LocalDirectory, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await killServers(of: directory)
            throw error
        }
        await killServers(of: directory)
    }

    /// Kills every slapd serving `directory` and waits until they are gone.
    static func killServers(of directory: LocalDirectory) async {
        try? await directory.stop()
        for processIdentifier in (try? servers(of: directory)) ?? [] {
            kill(processIdentifier, SIGKILL)
            _ = try? await directory.waitForExit(of: processIdentifier, timeout: .seconds(5))
        }
    }

    /// The processes in `/proc` that are slapd serving `directory`.
    static func servers(of directory: LocalDirectory) throws -> [pid_t] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc")
            .compactMap { pid_t($0) }
            .filter { directory.isServer($0) }
    }

    /// The command-line arguments of `processIdentifier`.
    static func commandLine(of processIdentifier: pid_t) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(processIdentifier)/cmdline"))
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The process group and session of `processIdentifier`, from `/proc/<pid>/stat`.
    static func statFields(of processIdentifier: pid_t) throws -> (group: pid_t, session: pid_t) {
        let stat = try String(contentsOfFile: "/proc/\(processIdentifier)/stat", encoding: .utf8)
        let end = try #require(stat.lastIndex(of: ")"))
        // After "(comm)": state, ppid, pgrp, session.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return (try #require(pid_t(fields[2])), try #require(pid_t(fields[3])))
    }

    /// The permission bits of `url`.
    static func mode(of url: URL) throws -> mode_t {
        var information = stat()
        try #require(stat(url.path, &information) == 0)
        return information.st_mode & 0o7777
    }

    /// The inodes of the sockets `processIdentifier` holds.
    static func socketInodes(of processIdentifier: pid_t) throws -> Set<String> {
        let descriptors = "/proc/\(processIdentifier)/fd"
        let targets = try FileManager.default.contentsOfDirectory(atPath: descriptors)
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)") }
        return Set(targets.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
    }

    /// The inodes of the TCP sockets listening in this network namespace.
    static func listeningTCPInodes() throws -> Set<String> {
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = try String(contentsOfFile: table, encoding: .utf8)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                if fields.count > 9, fields[3] == "0A" {
                    inodes.insert(String(fields[9]))
                }
            }
        }
        return inodes
    }

    /// `ldapwhoami` over the socket with SASL EXTERNAL.
    static func whoami(_ directory: LocalDirectory) async -> Tool.Result {
        await Tool.run("/usr/bin/ldapwhoami", ["-Q", "-Y", "EXTERNAL", "-H", directory.ldapiURI])
    }

    /// `ldapsearch` over the socket, with SASL EXTERNAL or anonymously.
    static func search(
        _ directory: LocalDirectory,
        base: String,
        scope: String = "base",
        filter: String = "(objectClass=*)",
        attributes: [String] = [],
        anonymous: Bool = false
    ) async -> Tool.Result {
        let authentication = anonymous ? ["-x"] : ["-Q", "-Y", "EXTERNAL"]
        return await Tool.run(
            "/usr/bin/ldapsearch",
            authentication + ["-LLL", "-o", "ldif_wrap=no", "-H", directory.ldapiURI, "-b", base, "-s", scope, filter] + attributes
        )
    }

    /// `ldapadd` over the socket with SASL EXTERNAL.
    static func add(_ directory: LocalDirectory, ldif: String) async throws -> Tool.Result {
        let file = directory.dataDirectory.appendingPathComponent("add-\(UUID().uuidString).ldif")
        try ldif.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return await Tool.run("/usr/bin/ldapadd", ["-Q", "-Y", "EXTERNAL", "-H", directory.ldapiURI, "-f", file.path])
    }
}

/// A thread that opens pipes without close-on-exec, as Foundation does, until stopped, and
/// keeps them open so that a child spawned meanwhile could inherit them.
private final class PipeOpener: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var descriptors: [Int32] = []
    private var opened = 0
    private var names: Set<String> = []
    private let finished = DispatchSemaphore(value: 0)

    /// How many pipes were opened.
    var pipesOpened: Int { lock.withLock { opened } }

    /// The `/proc` names of every pipe opened, as `readlink` shows them.
    var pipeNames: Set<String> { lock.withLock { names } }

    func start() {
        Thread { [self] in
            while lock.withLock({ running }) {
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { break }
                let name = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[0])")) ?? ""
                lock.withLock {
                    descriptors += ends
                    names.insert(name)
                    opened += 1
                    // A bounded number stay open; a child that inherited one keeps it anyway.
                    if descriptors.count > 200 {
                        descriptors.prefix(2).forEach { close($0) }
                        descriptors.removeFirst(2)
                    }
                }
            }
            finished.signal()
        }.start()
    }

    func stop() {
        lock.withLock { running = false }
        finished.wait()
    }

    func closeAll() {
        lock.withLock {
            descriptors.forEach { close($0) }
            descriptors = []
        }
    }
}
