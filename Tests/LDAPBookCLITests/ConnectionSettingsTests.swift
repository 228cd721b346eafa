import Foundation
import LDAPKit
import SlapdKit
import Testing

/// ldapbook connects as ldapsearch does: libldap's own files and variables, each one
/// overridden by flags and the configuration file; TLS failures that say what failed; one
/// timeout that holds; a hung server left for the next.
@Suite("Connecting as ldapsearch does")
struct ConnectionSettingsTests {
    /// libldap's variables, none of which may leak in from the machine running the tests.
    static let libldapVariables = ["LDAPNOINIT", "LDAPURI", "LDAPBASE", "LDAPBINDDN", "LDAPRC", "LDAPCONF",
                                   "LDAPTLS_CACERT", "LDAPTLS_CACERTDIR", "LDAPTLS_REQCERT", "LDAPTLS_CERT",
                                   "LDAPTLS_KEY", "LDAPSASL_MECH", "LDAPTIMEOUT", "LDAPNETWORK_TIMEOUT"]

    /// A home directory with an `.ldaprc`, an `ldap.conf` named by `LDAPCONF`, and an
    /// ldapbook configuration file, each empty until written.
    struct Settings {
        let directory: URL
        var home: URL { directory.appendingPathComponent("home") }
        var ldapConf: URL { directory.appendingPathComponent("ldap.conf") }
        var ldaprc: URL { home.appendingPathComponent(".ldaprc") }
        var config: URL { directory.appendingPathComponent("config") }
        var passwordFile: URL { directory.appendingPathComponent("password") }

        init(password: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-conf-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
            for file in [ldapConf, ldaprc, config] { try Data().write(to: file) }
            _ = FileManager.default.createFile(atPath: passwordFile.path, contents: Data(password.utf8),
                                               attributes: [.posixPermissions: 0o600])
        }

        func write(ldapConf text: String = "", ldaprc rc: String = "", config configText: String = "") throws {
            try Data(text.utf8).write(to: ldapConf)
            try Data(rc.utf8).write(to: ldaprc)
            try Data(configText.utf8).write(to: config)
        }

        /// Runs ldapbook with these files as libldap's, and `environment` besides.
        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Result {
            var variables = ["HOME": home.path, "LDAPCONF": ldapConf.path]
            for (key, value) in environment { variables[key] = value }
            return try CLI.run(["--config", config.path] + arguments, environment: variables,
                               unsetting: ConnectionSettingsTests.libldapVariables.filter { variables[$0] == nil })
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// A server holding one person, Lena Confield, in a container of her own.
    private func serverWithPerson() async throws -> (Slapd, DistinguishedName) {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Lena", "Confield", ["lena@example.org"])])
        await connection.close()
        return (server, base)
    }

    @Test("URI and BASE come from ldap.conf; the configuration file and the flags override them")
    func uriAndBase() async throws {
        let (server, base) = try await serverWithPerson()
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        try settings.write(ldapConf: "URI \(server.ldapURI)\nBASE \(base)\n")
        let found = try settings.run(["find", "lena"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.contains("Lena Confield"))

        let dead = "ldap://127.0.0.1:\(try Slapd.freeLoopbackPort())"
        try settings.write(ldapConf: "URI \(server.ldapURI)\nBASE \(base)\n", config: "uri = \(dead)\n")
        #expect(try settings.run(["find", "lena"]).status == 69, "the configuration file's uri wins over ldap.conf's")
        let flagged = try settings.run(["-H", server.ldapURI, "find", "lena"])
        #expect(flagged.status == 0 && flagged.stdout.contains("Lena Confield"), "-H wins over both")

        try settings.write(ldapConf: "URI \(server.ldapURI)\nBASE \(base)\n", config: "base = ou=nowhere,\(CLI.suffix)\n")
        #expect(!(try settings.run(["find", "lena"]).stdout.contains("Lena Confield")), "the configuration's base wins")
        try settings.write(ldapConf: "BASE ou=nowhere,\(CLI.suffix)\n")
        #expect(!(try settings.run(["-H", server.ldapURI, "find", "lena"]).stdout.contains("Lena Confield")))
        let switchedOff = try settings.run(["-v", "-H", server.ldapURI, "find", "lena"], environment: ["LDAPNOINIT": "1"])
        #expect(switchedOff.stdout.contains("Lena Confield"), "LDAPNOINIT: no BASE, so the naming context: \(switchedOff.stderr)")
        #expect(switchedOff.stderr.contains("the server's only naming context"))

        try settings.write(ldapConf: "URI \(server.ldapURI)\nBASE \(base)\n", config: "base = ou=nowhere,\(CLI.suffix)\n")
        let verbose = try settings.run(["-v", "-b", base.string, "find", "lena"])
        #expect(verbose.stdout.contains("Lena Confield"), "-b wins over both")
        #expect(verbose.stderr.contains("base \(base), from -b"), "\(verbose.stderr)")
        #expect(verbose.stderr.contains("connected to \(server.ldapURI)"), "\(verbose.stderr)")
    }

    @Test("BINDDN comes from .ldaprc or LDAPBINDDN, with the password of -y; LDAPNOINIT switches it off")
    func bindDN() async throws {
        let (server, base) = try await serverWithPerson()
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        let write = ["-H", server.ldapURI, "-b", base.string, "-y", settings.passwordFile.path, "-v",
                     "set", "lena confield", "phone=+1 555 0100"]
        try settings.write(ldaprc: "# who I am\nBINDDN \(server.rootDN)\n")
        let fromRC = try settings.run(write)
        #expect(fromRC.status == 0, "\(fromRC.stderr)")
        #expect(fromRC.stderr.lowercased().contains("as dn:\(server.rootDN.lowercased())"), "\(fromRC.stderr)")

        try settings.write()
        let fromVariable = try settings.run(write, environment: ["LDAPBINDDN": server.rootDN])
        #expect(fromVariable.status == 0, "\(fromVariable.stderr)")

        try settings.write(ldaprc: "BINDDN \(server.rootDN)\n")
        let switchedOff = try settings.run(write, environment: ["LDAPNOINIT": "1"])
        #expect(switchedOff.status == 64)
        #expect(switchedOff.stderr.contains("needs a bind DN"), "\(switchedOff.stderr)")

        try settings.write(ldaprc: "BINDDN cn=nobody,\(CLI.suffix)\n")
        let overridden = try settings.run(["-D", server.rootDN] + write)
        #expect(overridden.status == 0, "-D wins over BINDDN: \(overridden.stderr)")
    }

    @Test("SASL_MECH EXTERNAL of ldap.conf binds over ldapi; -x binds simply (here: anonymously) instead")
    func saslMechanism() async throws {
        let (server, base) = try await serverWithPerson()
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        try settings.write(ldapConf: "SASL_MECH EXTERNAL\n")
        let write = ["-H", server.ldapiURI, "-b", base.string, "-v", "set", "lena confield", "title=Engineer"]
        let external = try settings.run(write)
        #expect(external.status == 0, "\(external.stderr)")
        #expect(external.stderr.contains("SASL EXTERNAL"), "\(external.stderr)")
        let simple = try settings.run(["-x"] + write.dropLast() + ["title=Architect"])
        #expect(simple.status == 77, "an anonymous write is refused: \(simple.stderr)")

        try settings.write(ldapConf: "SASL_MECH GSSAPI\n")
        let unsupported = try settings.run(write)
        #expect(unsupported.status == 64)
        #expect(unsupported.stderr.contains("SASL_MECH of ldap.conf: only the EXTERNAL mechanism"), "\(unsupported.stderr)")
        #expect(try settings.run(["-x", "-H", server.ldapiURI, "-b", base.string, "find", "lena"]).status == 0)
    }

    @Test("TIMEOUT of ldap.conf, the configuration's timeout and --timeout, in that order of strength, bound a stopped server")
    func operationTimeout() async throws {
        let server = try await TestServers.make()
        defer { server.resume(); server.cleanup() }
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        server.pause()
        let find = ["-H", server.ldapURI, "-b", CLI.suffix, "find", "lena"]
        try settings.write(ldapConf: "TIMEOUT 1\n")
        let fromConf = try settings.run(find)
        #expect(fromConf.status == 69)
        #expect(fromConf.stderr.contains("within 1s"), "\(fromConf.stderr)")
        try settings.write(ldapConf: "TIMEOUT 1\n", config: "timeout = 2\n")
        #expect(try settings.run(find).stderr.contains("within 2s"))
        #expect(try settings.run(["--timeout", "3"] + find).stderr.contains("within 3s"))
        let bad = try settings.run(["--timeout", "soon"] + find)
        #expect(bad.status == 64 && bad.stderr.contains("--timeout must be a whole number of seconds"), "\(bad.stderr)")
    }

    @Test("NETWORK_TIMEOUT of ldap.conf bounds a connection that is never accepted")
    func networkTimeout() async throws {
        let listener = try UnacceptingListener()
        defer { listener.close() }
        let settings = try Settings(password: "")
        defer { settings.remove() }
        try settings.write(ldapConf: "NETWORK_TIMEOUT 1\n")
        let clock = ContinuousClock()
        let started = clock.now
        let result = try settings.run(["-H", "ldap://127.0.0.1:\(listener.port)", "-b", CLI.suffix, "find", "lena"])
        let elapsed = started.duration(to: clock.now)
        #expect(result.status == 69, "\(result.stderr)")
        // The default is 10 seconds: far from 1, whatever the machine's load.
        #expect(elapsed < .seconds(8), "took \(elapsed)")
    }

    @Test("Every command against a stopped server ends after one timeout, with exit 69",
          arguments: [["find", "lena"], ["show", "lena"], ["reach", "email", "lena", "--no-input"], ["query", "lena"],
                      ["fields"], ["export"], ["photo", "lena", "-o", "/dev/null"], ["set", "lena", "title=x"],
                      ["add", "--surname", "Stopped"], ["import", "@vcard"], ["schema", "install"], ["edit", "lena"],
                      ["rename", "lena", "--surname", "X", "--yes"], ["delete", "lena", "--yes"]])
    func everyCommandTimesOut(_ command: [String]) async throws {
        let server = try await TestServers.stopped()
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        let card = settings.directory.appendingPathComponent("one.vcf")
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Tim Out\r\nN:Out;Tim;;;\r\nEND:VCARD\r\n".utf8).write(to: card)
        let arguments = command.map { $0 == "@vcard" ? card.path : $0 }
        let clock = ContinuousClock()
        let started = clock.now
        let result = try settings.run(["--timeout", "2", "-H", server.ldapURI, "-b", CLI.suffix, "-D", server.rootDN,
                                       "-y", settings.passwordFile.path] + arguments)
        let elapsed = started.duration(to: clock.now)
        #expect(result.status == 69, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("timeout"), "\(command): \(result.stderr)")
        // One timeout, not several: a second would end at 4 seconds at the earliest.
        #expect(elapsed < .milliseconds(3900), "\(command) took \(elapsed)")
    }

    @Test("A hung server of -H is left for the next one after the timeout; writes go to the one that answers")
    func hungServerIsLeft() async throws {
        let hung = try await TestServers.stopped()
        let (server, base) = try await serverWithPerson()
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        let result = try settings.run(["--timeout", "1", "-v", "-H", "\(hung.ldapURI) \(server.ldapURI)", "-b", base.string,
                                       "-D", server.rootDN, "-y", settings.passwordFile.path,
                                       "set", "lena confield", "mobile=+1 555 0199"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("connected to \(server.ldapURI)"), "\(result.stderr)")
        let shown = try settings.run(["-H", server.ldapURI, "-b", base.string, "show", "lena confield"])
        #expect(shown.stdout.contains("+1 555 0199"))
    }

    @Test("With no base anywhere, the server's one naming context is used (and -v says so); several are listed in the error")
    func baseDiscovery() async throws {
        let server = try await TestServers.make()
        defer { server.cleanup() }
        let settings = try Settings(password: server.rootPassword)
        defer { settings.remove() }
        let one = try settings.run(["-v", "-H", server.ldapURI, "fields"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.contains("base \(CLI.suffix): the server's only naming context"), "\(one.stderr)")

        let second = server.directory.appendingPathComponent("second-db")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try await server.apply(ldif: """
            dn: olcDatabase=mdb,cn=config
            objectClass: olcDatabaseConfig
            objectClass: olcMdbConfig
            olcDatabase: mdb
            olcSuffix: dc=second,dc=example
            olcDbDirectory: \(second.path)
            olcDbMaxSize: 10485760

            """)
        let several = try settings.run(["-H", server.ldapURI, "find", "lena"])
        #expect(several.status == 64)
        #expect(several.stderr.contains("offers several: \(CLI.suffix), dc=second,dc=example"), "\(several.stderr)")
        #expect(several.stderr.contains("-b BASE"))
        await server.stop()
    }
}

/// Private servers of these tests, apart from the shared one.
enum TestServers {
    /// A new server with the tests' suffix.
    static func make() async throws -> Slapd {
        let server = try Slapd(configuration: SlapdConfiguration(suffix: CLI.suffix))
        try await server.start()
        return server
    }

    /// One server, started once and stopped (SIGSTOP) for good: every connection to it
    /// is accepted by the kernel and never answered.
    static func stopped() async throws -> Slapd {
        try await StoppedServer.instance.server()
    }

    private actor StoppedServer {
        static let instance = StoppedServer()
        private var started: Task<Slapd, any Error>?

        func server() async throws -> Slapd {
            if let started { return try await started.value }
            let task = Task {
                let server = try await TestServers.make()
                server.pause()
                return server
            }
            started = task
            return try await task.value
        }
    }
}

/// A TCP socket on the loopback interface that listens and never accepts, its one-place
/// queue filled: the kernel drops further connection attempts, which then hang until the
/// client's connection timeout.
final class UnacceptingListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptors.append(listener)
        // Fill the accept queue (a backlog of 0 still holds one or two connections).
        for _ in 0..<4 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            descriptors.append(client)
        }
        usleep(100_000)
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
        descriptors.removeAll()
    }
}
