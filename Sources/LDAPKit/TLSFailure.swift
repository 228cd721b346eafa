internal import CLDAP
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Plain words for a failed TLS connection: what libldap's diagnostic says when it says
/// something, and what the TLS library finds wrong with the server's certificate when
/// libldap only says it refused it.
extension LDAPHandle {
    /// What libldap's GnuTLS code leaves as the diagnostic of every refused certificate.
    static let refusedCertificate = "(unknown error code)"

    /// The message of a failed TLS start (`ldaps://` connect, or the handshake after
    /// StartTLS) with libldap's `diagnostic`.
    func tlsFailureMessage(_ diagnostic: String, configuration: LDAPConnection.Configuration) -> String {
        if diagnostic == Self.refusedCertificate {
            return "the server's certificate was refused: " + (certificateProblem(configuration)
                ?? "it could not be verified") + "; trust its CA with TLS_CACERT in ldap.conf (or ca-file in "
                + "ldapbook's configuration)"
        }
        return "no TLS with the server (\(diagnostic))" + (isLDAPS ? "; does this port speak ldaps?" : "")
    }

    /// The message of a StartTLS request the server refused (`code` from the server) or
    /// whose handshake failed.
    func startTLSFailureMessage(_ code: LDAPResultCode, _ diagnostic: String,
                                configuration: LDAPConnection.Configuration) -> String {
        if code == .protocolError || code == .unavailable || code == .unwillingToPerform || code == .notSupported {
            return "the server does not offer StartTLS (\(code.name)\(diagnostic.isEmpty ? "" : ": " + diagnostic))"
        }
        if code == .timeout { return "no response from the server" }
        // The connection itself failed (an asynchronous connect reports it here).
        if code == .serverDown && diagnostic.isEmpty { return String(cString: ldap_err2string(code.rawValue)) }
        return tlsFailureMessage(diagnostic, configuration: configuration)
    }

    /// What is wrong with the server's certificate, read from a second session that does
    /// not check it and checked again by the TLS library; `nil` when that cannot be told.
    private func certificateProblem(_ configuration: LDAPConnection.Configuration) -> String? {
        guard let certificate = Self.uncheckedPeerCertificate(servers, configuration),
              let host = Self.host(of: servers) else { return nil }
        let caFile = stringOption(LDAP_OPT_X_TLS_CACERTFILE).flatMap { $0.isEmpty ? nil : $0 }
        let caDirectory = stringOption(LDAP_OPT_X_TLS_CACERTDIR).flatMap { $0.isEmpty ? nil : $0 }
        // libldap checks the name `localhost` as the machine's own name.
        var checkedHost = host
        if host.lowercased() == "localhost" {
            var name = [CChar](repeating: 0, count: 256)
            if gethostname(&name, name.count) == 0 {
                checkedHost = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        var namesHost: Int32 = 0
        var expires = 0
        let status = certificate.withUnsafeBufferPointer { bytes in
            cldap_check_certificate(bytes.baseAddress, UInt32(bytes.count), checkedHost, caFile, caDirectory,
                                    &namesHost, &expires)
        }
        guard status >= 0 else { return nil }
        var problems: [String] = []
        let trusted = caFile.map { "the CA file \($0)" } ?? caDirectory.map { "the CA directory \($0)" } ?? "the system's CAs"
        // GnuTLS's status bits (gnutls_certificate_status_t).
        if status & (1 << 6) != 0 { problems.append("it is not trusted: no CA of \(trusted) issued it") }
        if status & (1 << 7) != 0 { problems.append("it is not trusted: its issuer is not a CA") }
        if status & (1 << 10) != 0 {
            let date = Date(timeIntervalSince1970: TimeInterval(expires)).formatted(.iso8601.year().month().day())
            problems.append("it expired on \(date)")
        }
        if status & (1 << 9) != 0 { problems.append("it is not valid yet") }
        if status & (1 << 5) != 0 { problems.append("it was revoked") }
        if status & (1 << 8) != 0 { problems.append("it uses an insecure algorithm") }
        if namesHost == 0 {
            problems.append("it does not name \(host)" + (checkedHost != host ? " (checked as \(checkedHost))" : ""))
        }
        if problems.isEmpty && status != 0 { problems.append("it is not trusted") }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// The server's certificate (DER) from a session that does not check it, or `nil`.
    private static func uncheckedPeerCertificate(_ server: String, _ configuration: LDAPConnection.Configuration) -> [UInt8]? {
        var unchecked = configuration
        unchecked.tls.certificateVerification = .disabled
        var session: OpaquePointer?
        guard ldap_initialize(&session, server) == LDAP_SUCCESS, let session else { return nil }
        let handle = LDAPHandle(ld: session, servers: server)
        do { try handle.applyOptions(unchecked) } catch { return nil }
        guard ldap_connect(session) == LDAP_SUCCESS else { return nil }
        if unchecked.tls.startTLS && !handle.isLDAPS {
            guard ldap_start_tls_s(session, nil, nil) == LDAP_SUCCESS else { return nil }
        }
        var certificate = CLDAP.berval()
        guard ldap_get_option(session, LDAP_OPT_X_TLS_PEERCERT, &certificate) == LDAP_OPT_SUCCESS,
              let bytes = certificate.bv_val else { return nil }
        defer { ber_memfree(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(certificate.bv_len)))
    }

    /// The host name of an LDAP URI.
    private static func host(of server: String) -> String? {
        var description: UnsafeMutablePointer<LDAPURLDesc>?
        guard ldap_url_parse(server, &description) == LDAP_URL_SUCCESS, let description else { return nil }
        defer { ldap_free_urldesc(description) }
        return description.pointee.lud_host.map { String(cString: $0) }
    }
}
