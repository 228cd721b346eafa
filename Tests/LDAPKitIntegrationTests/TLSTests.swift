import CLDAP
import Foundation
import LDAPKit
import SlapdKit
import Testing

@Suite("TLS against a real slapd", .serialized)
struct TLSTests {
    /// A self-signed certificate for 127.0.0.1 (and no other name), made with openssl.
    private struct Certificate {
        let directory: URL
        var certificate: URL { directory.appendingPathComponent("server.pem") }
        var key: URL { directory.appendingPathComponent("server.key") }

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ldapkit-tls-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let openssl = SpawnedProcess()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", directory.appendingPathComponent("server.key").path,
                "-out", directory.appendingPathComponent("server.pem").path, "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ]
            openssl.standardOutput = FileHandle.nullDevice
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            guard openssl.terminationStatus == 0 else {
                throw LDAPError(.localError, message: "openssl could not make a test certificate")
            }
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private func withTLSServer(_ body: (Slapd, Certificate) async throws -> Void) async throws {
        let certificate = try Certificate()
        defer { certificate.remove() }
        let server = try await TestDirectory.makeServer { configuration in
            configuration.tls = .init(certificateFile: certificate.certificate, keyFile: certificate.key)
        }
        try await body(server, certificate)
        await server.stop()
    }

    @Test("StartTLS with the CA verifies the server and binds")
    func startTLSWithTheCA() async throws {
        try await withTLSServer { server, certificate in
            var configuration = try TestDirectory.rootConfiguration(server)
            configuration.tls = .init(startTLS: true, caCertificateFile: certificate.certificate.path)
            let connection = try await LDAPConnection.connect(configuration: configuration)
            #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
            // Later operations are answered too, bound or anonymous.
            #expect(try await connection.search(scope: .base, attributes: ["1.1"]).collect().count == 1)
            #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
            configuration.authentication = .anonymous
            let anonymous = try await LDAPConnection.connect(configuration: configuration)
            #expect(try await anonymous.whoAmI() == "")
            #expect(try await anonymous.search(scope: .base, attributes: ["1.1"]).collect().count == 1)
        }
    }

    @Test("ldaps with the CA verifies the server and binds; with an unknown CA it fails")
    func ldaps() async throws {
        try await withTLSServer { server, certificate in
            var configuration = try TestDirectory.rootConfiguration(server)
            configuration.servers = [server.ldapsURI]
            configuration.tls = .init(caCertificateFile: certificate.certificate.path)
            let connection = try await LDAPConnection.connect(configuration: configuration)
            #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
            await connection.close()

            let other = try Certificate()
            defer { other.remove() }
            configuration.tls = .init(caCertificateFile: other.certificate.path)
            let error = await #expect(throws: LDAPError.self) {
                _ = try await LDAPConnection.connect(configuration: configuration)
            }
            #expect(error?.isServerDown == true || error?.code == .connectError, "\(String(describing: error))")
        }
    }

    @Test("an unknown CA fails the connection, never falling back to clear text")
    func unknownCertificateAuthority() async throws {
        try await withTLSServer { server, _ in
            var configuration = try TestDirectory.rootConfiguration(server)
            configuration.tls = .init(startTLS: true)
            let error = await #expect(throws: LDAPError.self) {
                _ = try await LDAPConnection.connect(configuration: configuration)
            }
            #expect(error?.operation == "StartTLS")
            #expect(error?.code == .connectError)
        }
    }

    @Test("a host name the certificate does not name fails verification")
    func wrongHostName() async throws {
        try await withTLSServer { server, certificate in
            var configuration = try TestDirectory.rootConfiguration(server)
            configuration.servers = ["ldap://localhost:\(server.port)"]
            configuration.tls = .init(startTLS: true, caCertificateFile: certificate.certificate.path)
            let error = await #expect(throws: LDAPError.self) {
                _ = try await LDAPConnection.connect(configuration: configuration)
            }
            #expect(error?.operation == "StartTLS")
        }
    }

    @Test("the CA file of libldap's defaults (ldap.conf's TLS_CACERT, LDAPTLS_CACERT) is trusted, unless defaults are ignored")
    func defaultCertificateAuthority() async throws {
        try await withTLSServer { server, certificate in
            #expect(ldap_set_option(nil, LDAP_OPT_X_TLS_CACERTFILE, certificate.certificate.path) == LDAP_OPT_SUCCESS)
            defer { ldap_set_option(nil, LDAP_OPT_X_TLS_CACERTFILE, nil as UnsafeRawPointer?) }
            var configuration = try TestDirectory.rootConfiguration(server)
            configuration.servers = [server.ldapsURI]
            configuration.systemDefaults = .honored
            let connection = try await LDAPConnection.connect(configuration: configuration)
            #expect(try await connection.whoAmI().lowercased() == "dn:\(server.rootDN.lowercased())")
            await connection.close()

            configuration.systemDefaults = .ignored
            await #expect(throws: LDAPError.self) { _ = try await LDAPConnection.connect(configuration: configuration) }
        }
    }

    @Test("verification is off only when the configuration says so")
    func verificationDisabledExplicitly() async throws {
        try await withTLSServer { server, _ in
            var configuration = try TestDirectory.rootConfiguration(server)
            configuration.tls = .init(startTLS: true, certificateVerification: .disabled)
            let connection = try await LDAPConnection.connect(configuration: configuration)
            #expect(try await connection.whoAmI() != "")
        }
    }
}
