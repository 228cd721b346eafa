import Foundation
import SlapdKit
import Testing

/// TLS as ldapsearch sets it up (TLS_CACERT, TLS_CACERTDIR, TLS_REQCERT, TLS_CERT, TLS_KEY),
/// against a slapd whose certificate a private CA, made here with openssl, signed; and each
/// way TLS can fail, with its message and exit code.
@Suite("TLS from libldap's settings, and TLS failures that say what failed", .serialized)
struct TLSSettingsTests {
    /// A private CA, a server certificate it signed for 127.0.0.1 only, and a client
    /// certificate it signed for cn=ldapbook-client; and a second CA that signed nothing.
    struct Certificates {
        let directory: URL
        var ca: URL { directory.appendingPathComponent("ca.pem") }
        var otherCA: URL { directory.appendingPathComponent("other-ca.pem") }
        var caDirectory: URL { directory.appendingPathComponent("cadir") }
        var server: URL { directory.appendingPathComponent("server.pem") }
        var serverKey: URL { directory.appendingPathComponent("server.key") }
        var client: URL { directory.appendingPathComponent("client.pem") }
        var clientKey: URL { directory.appendingPathComponent("client.key") }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-ca-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("cadir"), withIntermediateDirectories: true)
            let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            try openssl(["req", "-x509"] + key + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=ldapbook test CA"])
            try openssl(["req", "-x509"] + key + ["-keyout", "other-ca.key", "-out", "other-ca.pem", "-days", "2",
                                                  "-subj", "/CN=someone else's CA"])
            try Data("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n".utf8)
                .write(to: directory.appendingPathComponent("server.ext"))
            try Data("extendedKeyUsage=clientAuth\n".utf8).write(to: directory.appendingPathComponent("client.ext"))
            for (name, subject) in [("server", "/CN=127.0.0.1"), ("client", "/CN=ldapbook-client")] {
                try openssl(["req"] + key + ["-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject])
                try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                             "-out", "\(name).pem", "-days", "2", "-extfile", "\(name).ext"])
            }
            try FileManager.default.copyItem(at: ca, to: caDirectory.appendingPathComponent("ca.pem"))
        }

        private func openssl(_ arguments: [String]) throws {
            let process = SpawnedProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.joined(separator: " ")) failed"])
            }
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// A server presenting the CA-signed certificate, asking clients for theirs.
    private func withTLSServer(_ body: (Slapd, Certificates, ConnectionSettingsTests.Settings) async throws -> Void) async throws {
        let certificates = try Certificates()
        defer { certificates.remove() }
        var configuration = SlapdConfiguration(suffix: CLI.suffix)
        configuration.tls = .init(certificateFile: certificates.server, keyFile: certificates.serverKey,
                                  caCertificateFile: certificates.ca)
        configuration.extraGlobalAttributes = ["olcTLSVerifyClient: try"]
        let server = try Slapd(configuration: configuration)
        try await server.start()
        defer { server.cleanup() }
        let settings = try ConnectionSettingsTests.Settings(password: server.rootPassword)
        defer { settings.remove() }
        try await body(server, certificates, settings)
        await server.stop()
    }

    @Test("TLS_CACERT (ldap.conf or LDAPTLS_CACERT) and TLS_CACERTDIR are trusted; without them the CA is unknown, exit 69")
    func certificateAuthorities() async throws {
        try await withTLSServer { server, certificates, settings in
            let find = ["-Z", "-H", server.ldapURI, "-b", CLI.suffix, "fields"]
            let untrusted = try settings.run(find)
            #expect(untrusted.status == 69)
            #expect(untrusted.stderr.contains("not trusted"), "\(untrusted.stderr)")

            try settings.write(ldapConf: "TLS_CACERT \(certificates.ca.path)\n")
            let trusted = try settings.run(find)
            #expect(trusted.status == 0, "\(trusted.stderr)")

            try settings.write()
            #expect(try settings.run(find, environment: ["LDAPTLS_CACERT": certificates.ca.path]).status == 0)

            try settings.write(ldapConf: "TLS_CACERTDIR \(certificates.caDirectory.path)\n")
            let directory = try settings.run(find)
            #expect(directory.status == 0, "\(directory.stderr)")

            let ldaps = try settings.run(["-H", server.ldapsURI, "-b", CLI.suffix, "fields"])
            #expect(ldaps.status == 0, "ldaps:// with the same settings: \(ldaps.stderr)")

            // The configuration file's ca-file wins over ldap.conf.
            try settings.write(ldapConf: "TLS_CACERT \(certificates.otherCA.path)\n", config: "ca-file = \(certificates.ca.path)\n")
            #expect(try settings.run(find).status == 0)
            try settings.write(ldapConf: "TLS_CACERT \(certificates.ca.path)\n", config: "ca-file = \(certificates.otherCA.path)\n")
            #expect(try settings.run(find).status == 69)
        }
    }

    @Test("TLS_REQCERT never of ldap.conf skips the check, as ldapsearch does; demand keeps it")
    func requireCertificate() async throws {
        try await withTLSServer { server, _, settings in
            let find = ["-Z", "-H", server.ldapURI, "-b", CLI.suffix, "fields"]
            try settings.write(ldapConf: "TLS_REQCERT never\n")
            let never = try settings.run(find)
            #expect(never.status == 0, "\(never.stderr)")
            try settings.write(ldapConf: "TLS_REQCERT demand\n")
            #expect(try settings.run(find).status == 69)
        }
    }

    @Test("TLS_CERT and TLS_KEY of .ldaprc present the client certificate; SASL EXTERNAL binds as its subject")
    func clientCertificate() async throws {
        try await withTLSServer { server, certificates, settings in
            let external = ["-v", "-Y", "EXTERNAL", "-Z", "-H", server.ldapURI, "-b", CLI.suffix, "fields"]
            try settings.write(ldapConf: "TLS_CACERT \(certificates.ca.path)\n",
                               ldaprc: "TLS_CERT \(certificates.client.path)\nTLS_KEY \(certificates.clientKey.path)\n")
            let bound = try settings.run(external)
            #expect(bound.status == 0, "\(bound.stderr)")
            #expect(bound.stderr.contains("as dn:cn=ldapbook-client"), "\(bound.stderr)")

            try settings.write(ldapConf: "TLS_CACERT \(certificates.ca.path)\n")
            let without = try settings.run(external)
            #expect(without.status != 0, "no certificate, no EXTERNAL identity: \(without.stderr)")
        }
    }

    @Test("A certificate for another name is refused, saying so, exit 69")
    func nameMismatch() async throws {
        try await withTLSServer { server, certificates, settings in
            try settings.write(ldapConf: "TLS_CACERT \(certificates.ca.path)\n")
            let result = try settings.run(["-Z", "-H", "ldap://localhost:\(server.port)", "-b", CLI.suffix, "fields"])
            #expect(result.status == 69)
            #expect(result.stderr.contains("does not name"), "\(result.stderr)")
        }
    }

    @Test("A CA file that cannot be read is named, exit 66, whether the configuration or ldap.conf names it")
    func unreadableFiles() async throws {
        try await withTLSServer { server, certificates, settings in
            let missing = certificates.directory.appendingPathComponent("missing.pem").path
            let find = ["-Z", "-H", server.ldapURI, "-b", CLI.suffix, "fields"]
            try settings.write(config: "ca-file = \(missing)\n")
            let fromConfig = try settings.run(find)
            #expect(fromConfig.status == 66)
            #expect(fromConfig.stderr.contains(missing), "\(fromConfig.stderr)")

            try settings.write(ldapConf: "TLS_CACERT \(missing)\n")
            let fromLDAPConf = try settings.run(find)
            #expect(fromLDAPConf.status == 66, "\(fromLDAPConf.stderr)")
            #expect(fromLDAPConf.stderr.contains(missing), "\(fromLDAPConf.stderr)")
        }
    }

    @Test("StartTLS and ldaps to a stopped (SIGSTOP) server end after one timeout: the handshake is bounded too")
    func stoppedTLSServer() async throws {
        try await withTLSServer { server, certificates, settings in
            try settings.write(ldapConf: "TLS_CACERT \(certificates.ca.path)\n")
            server.pause()
            defer { server.resume() }
            for uri in [["-Z", "-H", server.ldapURI], ["-H", server.ldapsURI]] {
                let clock = ContinuousClock()
                let started = clock.now
                let result = try settings.run(["--timeout", "2"] + uri + ["-b", CLI.suffix, "fields"])
                let elapsed = started.duration(to: clock.now)
                #expect(result.status == 69, "\(uri): \(result.stderr)")
                #expect(elapsed < .milliseconds(3900), "\(uri) took \(elapsed)")
            }
        }
    }

    @Test("StartTLS against a server without TLS, and ldaps:// to a plain port, fail saying so, exit 69")
    func noTLSOnTheServer() async throws {
        let server = try await CLI.shared()
        let settings = try ConnectionSettingsTests.Settings(password: server.rootPassword)
        defer { settings.remove() }
        let startTLS = try settings.run(["-Z", "-H", server.ldapURI, "-b", CLI.suffix, "fields"])
        #expect(startTLS.status == 69)
        #expect(startTLS.stderr.contains("does not offer StartTLS"), "\(startTLS.stderr)")
        let ldaps = try settings.run(["-H", "ldaps://127.0.0.1:\(server.port)", "-b", CLI.suffix, "fields"])
        #expect(ldaps.status == 69)
        #expect(ldaps.stderr.contains("no TLS handshake"), "\(ldaps.stderr)")
    }
}
