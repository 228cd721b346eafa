import Foundation
import Glibc
import Testing
@testable import SlapdKit

@Suite("Running slapd")
struct SlapdLifecycleTests {
    private static let person = """
    dn: cn=Ada Lovelace,dc=example,dc=com
    objectClass: inetOrgPerson
    cn: Ada Lovelace
    givenName: Ada
    sn: Lovelace
    mail: ada@example.com

    """

    @Test("Answers over ldapi as the root DN and over TCP with a simple bind")
    func startAndAnswer() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()
        #expect(slapd.isRunning)
        let processIdentifier = try #require(slapd.processIdentifier)
        let command = try String(contentsOfFile: "/proc/\(processIdentifier)/comm", encoding: .utf8)
        #expect(command.trimmingTrailingWhitespace() == "slapd")
        #expect(slapd.ldapURI == "ldap://127.0.0.1:\(slapd.port)")
        #expect(slapd.ldapiURI.hasPrefix("ldapi://%2Ftmp%2Fslapd-"))

        let whoami = await Tool.run("/usr/bin/ldapwhoami", ["-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI])
        #expect(whoami.status == .exited(0))
        #expect(whoami.output.trimmingTrailingWhitespace().lowercased() == "dn:" + slapd.rootDN.lowercased())

        let search = await Tool.search(slapd, scope: "base")
        #expect(search.status == .exited(0), "\(search.errors)")
        #expect(search.output.contains("dn: dc=example,dc=com"))
        #expect(search.output.contains("objectClass: dcObject"))
        #expect(search.output.contains("o: example"))

        let wrongPassword = await Tool.run(
            "/usr/bin/ldapwhoami",
            ["-x", "-H", slapd.ldapURI, "-D", slapd.rootDN, "-y", Tool.passwordFile(slapd, "not-the-password")]
        )
        #expect(wrongPassword.status == .exited(49))

        await slapd.stop()
        #expect(!slapd.isRunning)
        #expect(slapd.processIdentifier == nil)
        #expect(slapd.output.contains("slapd starting"))
    }

    @Test("Without TCP, slapd listens on its ldapi socket only, at a socket file of the caller's choosing")
    func ldapiOnly() async throws {
        let socketDirectory = URL(fileURLWithPath: "/tmp/slapdkit-socket-\(getpid())-\(UInt16.random(in: 0...UInt16.max))", isDirectory: true)
        try FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: socketDirectory) }
        var configuration = SlapdConfiguration()
        configuration.listensOnTCP = false
        configuration.socketFile = socketDirectory.appendingPathComponent("server")
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }
        #expect(slapd.port == 0)
        #expect(slapd.ldapiURI == "ldapi://" + InstanceLayout.percentEncoded(socketDirectory.path + "/server"))

        try await slapd.start()
        let processIdentifier = try #require(slapd.processIdentifier)
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(processIdentifier)/cmdline"))
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let listeners = try #require(commandLine.firstIndex(of: "-h").map { commandLine[$0 + 1] })
        #expect(listeners == slapd.ldapiURI + "/")
        let whoami = await Tool.run("/usr/bin/ldapwhoami", ["-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI])
        #expect(whoami.output.trimmingTrailingWhitespace().lowercased() == "dn:" + slapd.rootDN)
        await slapd.stop()
        #expect(!FileManager.default.fileExists(atPath: socketDirectory.appendingPathComponent("server").path))
    }

    @Test("Adds an inetOrgPerson and finds it by indexed attributes")
    func addAndFind() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()

        let add = try await Tool.add(slapd, ldif: Self.person)
        #expect(add.status == .exited(0), "\(add.errors)")
        let bySurname = await Tool.search(slapd, filter: "(sn=Love*)", attributes: ["mail"])
        #expect(bySurname.output.contains("dn: cn=Ada Lovelace,dc=example,dc=com"))
        #expect(bySurname.output.contains("mail: ada@example.com"))
        let byMail = await Tool.search(slapd, filter: "(mail=ada@example.com)", attributes: ["1.1"])
        #expect(Tool.entryCount(byMail.output) == 1)
        await slapd.stop()
    }

    @Test("A paused slapd does not answer until it is resumed, and stops on SIGTERM")
    func pauseAndResume() async throws {
        // A minute to shut down: a paused slapd left paused would be killed only after it.
        var configuration = SlapdConfiguration()
        configuration.stopTimeout = .seconds(60)
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }
        try await slapd.start()

        slapd.pause()
        #expect(slapd.isPaused)
        #expect(slapd.isRunning)
        let frozen = await Tool.search(slapd, scope: "base", timeout: .seconds(1))
        #expect(frozen.status == nil, "a paused slapd answered: \(frozen.output)")

        slapd.resume()
        #expect(!slapd.isPaused)
        let thawed = await Tool.search(slapd, scope: "base")
        #expect(thawed.status == .exited(0))
        #expect(thawed.output.contains("dn: dc=example,dc=com"))

        slapd.pause()
        #expect(await slapd.stop() == .shutDown, "a paused slapd was resumed and shut down on SIGTERM, not killed")
        #expect(!slapd.isRunning)
    }

    @Test("A killed slapd restarts on the same port and socket with its data")
    func killAndRestart() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()
        let add = try await Tool.add(slapd, ldif: Self.person)
        #expect(add.status == .exited(0), "\(add.errors)")
        let firstProcess = try #require(slapd.processIdentifier)

        await slapd.kill()
        #expect(!slapd.isRunning)
        let unanswered = await Tool.search(slapd, scope: "base", timeout: .seconds(5))
        #expect(unanswered.status != .exited(0))
        #expect(Glibc.kill(firstProcess, 0) != 0, "the killed slapd still exists")

        try await slapd.start()
        let afterCrash = await Tool.search(slapd, filter: "(cn=Ada Lovelace)", attributes: ["1.1"])
        #expect(Tool.entryCount(afterCrash.output) == 1)

        let secondProcess = slapd.processIdentifier
        try await slapd.restart()
        #expect(slapd.isRunning)
        #expect(slapd.processIdentifier != secondProcess)
        let afterRestart = await Tool.search(slapd, filter: "(cn=Ada Lovelace)", attributes: ["1.1"])
        #expect(Tool.entryCount(afterRestart.output) == 1)
        let whoami = await Tool.run("/usr/bin/ldapwhoami", ["-Q", "-Y", "EXTERNAL", "-H", slapd.ldapiURI])
        #expect(whoami.status == .exited(0))
        await slapd.stop()
    }

    @Test("Two servers run side by side on different ports")
    func twoServers() async throws {
        let first = try Slapd(configuration: SlapdConfiguration(suffix: "dc=one,dc=test"))
        defer { first.cleanup() }
        let second = try Slapd(configuration: SlapdConfiguration(suffix: "o=Two"))
        defer { second.cleanup() }
        #expect(first.port != second.port)
        #expect(first.directory != second.directory)

        try await first.start()
        try await second.start()
        let one = await Tool.search(first, scope: "base")
        let two = await Tool.search(second, scope: "base")
        #expect(one.output.contains("dn: dc=one,dc=test"))
        #expect(two.output.contains("dn: o=Two"))
        #expect(two.output.contains("objectClass: organization"))
        #expect(first.processIdentifier != second.processIdentifier)
        await first.stop()
        await second.stop()
    }

    @Test("Suffix and root DN with escaped characters work end to end")
    func escapedDistinguishedNames() async throws {
        var configuration = SlapdConfiguration(suffix: #"o=Acme\, Inc"#, rootPassword: "p@ss word")
        configuration.rootDN = #"cn=Big \"Boss\",o=Acme\, Inc"#
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }
        try await slapd.start()
        let search = await Tool.search(slapd, scope: "base")
        #expect(search.status == .exited(0), "\(search.errors)")
        #expect(search.output.contains("o: Acme, Inc"))
        try await slapd.apply(ldif: "dn: ou=Sales,o=Acme\\, Inc\nobjectClass: organizationalUnit\nou: Sales\n")
        let sales = await Tool.search(slapd, filter: "(ou=Sales)", attributes: ["1.1"])
        #expect(Tool.entryCount(sales.output) == 1)
        await slapd.stop()
    }

    @Test("LDIF applied over ldapi can extend the schema in cn=config and then use it")
    func applyLDIF() async throws {
        let slapd = try Slapd()
        defer { slapd.cleanup() }
        try await slapd.start()
        try await slapd.apply(ldif: """
        dn: cn=colours,cn=schema,cn=config
        objectClass: olcSchemaConfig
        cn: colours
        olcAttributeTypes: ( 1.3.6.1.4.1.99999.1.1 NAME 'favouriteColour' EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
        olcObjectClasses: ( 1.3.6.1.4.1.99999.2.1 NAME 'colourful' AUXILIARY MAY favouriteColour )

        dn: cn=Grace Hopper,dc=example,dc=com
        objectClass: inetOrgPerson
        objectClass: colourful
        cn: Grace Hopper
        sn: Hopper
        favouriteColour: blue

        dn: cn=Grace Hopper,dc=example,dc=com
        changetype: modify
        replace: favouriteColour
        favouriteColour: green

        """)
        let found = await Tool.search(slapd, filter: "(favouriteColour=green)", attributes: ["favouriteColour"])
        #expect(found.output.contains("dn: cn=Grace Hopper,dc=example,dc=com"))

        let error = await #expect(throws: SlapdError.self) {
            try await slapd.apply(ldif: "dn: cn=Nobody,ou=missing,dc=example,dc=com\nobjectClass: person\ncn: Nobody\nsn: Nobody\n")
        }
        #expect(error?.kind == .commandFailed)
        #expect(error?.description.contains("No such object") == true)
        await slapd.stop()
    }
}
