import Foundation
import Testing
@testable import SlapdKit

@Suite("TLS")
struct SlapdTLSTests {
    @Test("StartTLS works with the configured certificate and key")
    func startTLS() async throws {
        let certificates = FileManager.default.temporaryDirectory.appendingPathComponent("slapdkit-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: certificates) }
        let certificate = certificates.appendingPathComponent("server.pem")
        let key = certificates.appendingPathComponent("server.key")
        let openssl = await Tool.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key.path, "-out", certificate.path, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        try #require(openssl.status == .exited(0), "\(openssl.errors)")

        var configuration = SlapdConfiguration()
        configuration.tls = SlapdConfiguration.TLS(certificateFile: certificate, keyFile: key, caCertificateFile: certificate)
        let slapd = try Slapd(configuration: configuration)
        defer { slapd.cleanup() }
        try await slapd.start()

        var environment = ProcessInfo.processInfo.environment
        environment["LDAPCONF"] = "/dev/null"
        environment["LDAPTLS_CACERT"] = certificate.path
        environment["LDAPTLS_REQCERT"] = "demand"
        let whoami = await Tool.run(
            "/usr/bin/ldapwhoami",
            ["-ZZ", "-x", "-H", slapd.ldapURI, "-D", slapd.rootDN, "-y", Tool.passwordFile(slapd)],
            environment: environment
        )
        #expect(whoami.status == .exited(0), "\(whoami.errors)")
        #expect(whoami.output.lowercased().contains(slapd.rootDN.lowercased()))
        await slapd.stop()
    }
}
