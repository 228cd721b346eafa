internal import CLDAP
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Owns one libldap session (`LDAP *`). Every libldap call of a connection
/// goes through this class, on the connection's own thread; `deinit` unbinds
/// exactly once.
final class LDAPHandle {
    /// The `LDAP *`.
    let ld: OpaquePointer
    /// The URI list the session was created with, for error messages.
    let servers: String
    /// The parent DN of the last entry decoded, shared by the next entries under it.
    private var parentDNs = DistinguishedName.ParentCache()
    /// The attribute names of the last entry decoded, shared by the next entries that have them.
    private var attributeNames = RecentAttributeNames()

    init(ld: OpaquePointer, servers: String) {
        self.ld = ld
        self.servers = servers
    }

    deinit {
        ldap_unbind_ext(ld, nil, nil)
    }

    // MARK: Errors

    /// The session's last diagnostic message (`LDAP_OPT_DIAGNOSTIC_MESSAGE`).
    func diagnosticMessage() -> String {
        var message: UnsafeMutablePointer<CChar>?
        guard ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &message) == LDAP_OPT_SUCCESS,
              let message else { return "" }
        defer { ldap_memfree(message) }
        return String(cString: message)
    }

    /// An error for libldap return code `rc`, with the session's diagnostic
    /// message, or libldap's description of the code when there is none.
    func error(_ rc: Int32, operation: String) -> LDAPError {
        LDAPHandle.error(rc, message: diagnosticMessage(), operation: operation, server: servers)
    }

    /// An error for return code `rc` whose message falls back to `ldap_err2string`.
    static func error(_ rc: Int32, message: String, matchedDN: String = "", operation: String, server: String) -> LDAPError {
        var text = message
        if text.isEmpty, let description = ldap_err2string(rc) {
            text = String(cString: description)
        }
        return LDAPError(LDAPResultCode(rawValue: rc), message: text, matchedDN: matchedDN,
                         operation: operation, server: server)
    }

    /// Throws unless `rc` is `LDAP_SUCCESS`: the one place return codes of
    /// request-sending calls become Swift errors.
    func check(_ rc: Int32, _ operation: String) throws(LDAPError) {
        guard rc == LDAP_SUCCESS else { throw error(rc, operation: operation) }
    }

    // MARK: Opening

    /// Creates a session for `configuration`: connects to the first server that answers,
    /// starts TLS if asked and binds. Blocks the calling thread (the connection's own) for at
    /// most the configured timeouts per server tried.
    ///
    /// The servers are tried one at a time, as libldap tries its URI list, but a server is
    /// left for the next one not only when it refuses the connection: also when TLS fails
    /// with it, or when it accepts the connection and then does not answer the bind within
    /// the operation timeout (a hung server). A bind the server refuses ends the search:
    /// every replica of a directory would refuse it too, and each refusal may count
    /// towards locking the account.
    static func open(_ configuration: LDAPConnection.Configuration) throws(LDAPError) -> LDAPHandle {
        if configuration.servers.isEmpty && configuration.systemDefaults == .ignored {
            throw LDAPError(.paramError, message: "no LDAP server configured", operation: "connect")
        }
        let listed = configuration.servers.isEmpty ? [defaultURI() ?? ""] : configuration.servers
        let servers = listed.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
        guard !servers.isEmpty else {
            throw LDAPError(.paramError, message: "no LDAP server configured", operation: "connect")
        }
        var failures: [LDAPError] = []
        for server in servers {
            do throws(LDAPError) {
                return try openOne(server, configuration)
            } catch {
                guard error.leavesServer else { throw error }
                failures.append(error)
            }
        }
        guard failures.count > 1 else { throw failures[0] }
        // Each server's own reason, the last one's code.
        var failure = failures[failures.count - 1]
        failure.message = "no server answered: " + failures.map { "\($0.server): \($0.code.name): \($0.message)" }
            .joined(separator: "; ")
        failure.server = servers.joined(separator: " ")
        throw failure
    }

    /// A session with one server: connected, with TLS if asked, and bound.
    private static func openOne(_ server: String, _ configuration: LDAPConnection.Configuration) throws(LDAPError)
        -> LDAPHandle
    {
        var session: OpaquePointer?
        LibLDAPSetup.willUse()
        let rc = ldap_initialize(&session, server)
        guard rc == LDAP_SUCCESS, let session else {
            throw LDAPHandle.error(rc, message: "invalid server URI", operation: "connect", server: server)
        }
        let handle = LDAPHandle(ld: session, servers: server)
        try handle.applyOptions(configuration)
        let connected = ldap_connect(session)
        guard connected == LDAP_SUCCESS else { throw handle.connectionError(connected, configuration) }
        handle.limitBlockedWrites(configuration.operationTimeout)
        if configuration.tls.startTLS && !handle.isLDAPS {
            let tls = ldap_start_tls_s(session, nil, nil)
            guard tls == LDAP_SUCCESS else { throw handle.startTLSError(tls, configuration) }
        }
        do throws(LDAPError) {
            try handle.bind(configuration.authentication)
        } catch {
            var failure = error
            if failure.code == .timeout, let timeout = configuration.operationTimeout {
                failure.message = "no response from the server within \(timeout.formattedSeconds)"
            }
            throw failure
        }
        // After the bind, when nothing is left to read: buffered reads from here on. Not under
        // TLS: the layer below GnuTLS then holds records that the connection's poll(2) on the
        // socket never hears of, and a reply can wait there unread (a second operation over
        // StartTLS timed out); GnuTLS buffers its own reads.
        let usesTLS = handle.isLDAPS || configuration.tls.startTLS
        guard usesTLS || cldap_add_readahead(session) == 0 else {
            throw LDAPError(.localError, message: "could not set up buffered reading", operation: "connect",
                            server: handle.servers)
        }
        return handle
    }

    /// Makes a write to the socket give up after `timeout`: libldap writes requests to a
    /// blocking socket, and a server that stopped reading (hung, or stopped with SIGSTOP)
    /// would otherwise block the connection's thread, and every deadline with it, for ever
    /// once the socket's buffers are full.
    private func limitBlockedWrites(_ timeout: Duration?) {
        guard let timeout, let socket = fileDescriptor else { return }
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// libldap's default URI list (`URI` in `ldap.conf` or `LDAPURI`).
    static func defaultURI() -> String? {
        var uri: UnsafeMutablePointer<CChar>?
        LibLDAPSetup.willUse()
        guard ldap_get_option(nil, LDAP_OPT_URI, &uri) == LDAP_OPT_SUCCESS, let uri else { return nil }
        defer { ldap_memfree(uri) }
        return String(cString: uri)
    }

    /// One of libldap's default string options (as `ldap.conf`, `.ldaprc` and `LDAP*` set them).
    static func defaultString(_ option: Int32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        LibLDAPSetup.willUse()
        guard ldap_get_option(nil, option, &value) == LDAP_OPT_SUCCESS, let value else { return nil }
        defer { ldap_memfree(value) }
        return String(cString: value)
    }

    /// libldap's default search base (`BASE` in `ldap.conf` or `LDAPBASE`).
    static func defaultBase() -> String? {
        var base: UnsafeMutablePointer<CChar>?
        LibLDAPSetup.willUse()
        guard ldap_get_option(nil, LDAP_OPT_DEFBASE, &base) == LDAP_OPT_SUCCESS, let base else { return nil }
        defer { ldap_memfree(base) }
        let text = String(cString: base)
        return text.isEmpty ? nil : text
    }

    var isLDAPS: Bool {
        servers.split(separator: " ").allSatisfy { $0.lowercased().hasPrefix("ldaps://") }
    }

    private func setInt(_ option: Int32, _ value: Int32, _ name: String) throws(LDAPError) {
        var value = value
        guard ldap_set_option(ld, option, &value) == LDAP_OPT_SUCCESS else {
            throw LDAPError(.paramError, message: "cannot set \(name)", operation: "connect", server: servers)
        }
    }

    private func setString(_ option: Int32, _ value: String?, _ name: String) throws(LDAPError) {
        let rc: Int32
        if let value {
            rc = value.withCString { ldap_set_option(ld, option, $0) }
        } else {
            rc = ldap_set_option(ld, option, nil)
        }
        guard rc == LDAP_OPT_SUCCESS else {
            throw LDAPError(.paramError, message: "cannot set \(name)", operation: "connect", server: servers)
        }
    }

    private func setTimeout(_ option: Int32, _ duration: Duration?, _ name: String) throws(LDAPError) {
        let rc: Int32
        if let duration {
            let (seconds, attoseconds) = duration.components
            rc = cldap_set_timeval(ld, option, Int(max(seconds, 0)), Int(attoseconds / 1_000_000_000_000))
        } else {
            rc = cldap_set_timeval(ld, option, -1, 0)
        }
        guard rc == LDAP_OPT_SUCCESS else {
            throw LDAPError(.paramError, message: "cannot set \(name)", operation: "connect", server: servers)
        }
    }

    /// Sets the session's options. The protocol version comes first, as
    /// libldap requires; TLS options end with `LDAP_OPT_X_TLS_NEWCTX` so the
    /// session gets a TLS context of its own.
    func applyOptions(_ configuration: LDAPConnection.Configuration) throws(LDAPError) {
        try setInt(LDAP_OPT_PROTOCOL_VERSION, LDAP_VERSION3, "the protocol version")
        guard cldap_set_referrals(ld, 0) == LDAP_OPT_SUCCESS, cldap_set_restart(ld, 1) == LDAP_OPT_SUCCESS else {
            throw LDAPError(.paramError, message: "cannot set referral handling", operation: "connect", server: servers)
        }
        try setTimeout(LDAP_OPT_NETWORK_TIMEOUT, configuration.networkTimeout, "the network timeout")
        // The network timeout bounds a TLS handshake only when libldap makes it in
        // non-blocking steps; otherwise a server that never answers it holds ldap_connect
        // (ldaps) or ldap_start_tls_s for ever. Without TLS, a blocking connect is what the
        // network timeout bounds (an asynchronous one would leave it to the first reply).
        let usesTLS = isLDAPS || configuration.tls.startTLS
        guard cldap_set_connect_async(ld, usesTLS ? 1 : 0) == LDAP_OPT_SUCCESS else {
            throw LDAPError(.paramError, message: "cannot set asynchronous connection", operation: "connect", server: servers)
        }
        // Only the synchronous StartTLS and bind use LDAP_OPT_TIMEOUT; every
        // other operation has its own deadline on the connection's loop.
        try setTimeout(LDAP_OPT_TIMEOUT, configuration.operationTimeout, "the operation timeout")

        let ignoring = configuration.systemDefaults == .ignored
        if ignoring {
            try setInt(LDAP_OPT_DEREF, LDAP_DEREF_NEVER, "alias dereferencing")
            try setInt(LDAP_OPT_SIZELIMIT, 0, "the size limit")
            try setInt(LDAP_OPT_TIMELIMIT, 0, "the time limit")
        }
        // A session that never speaks TLS needs no TLS context: making one reads and parses
        // every certificate of the system's CA bundle, three quarters of the instructions of a
        // `find` that finds nobody (61 of 82 million, callgrind).
        guard usesTLS else { return }
        // A new session inherits libldap's global TLS context, but not the files it was made
        // from (ldap.conf's TLS_CACERT, TLS_CACERTDIR, TLS_CERT, TLS_KEY, or LDAPTLS_*): the
        // session's own context, made below, would lose them. So the settings not given here
        // are copied from libldap's defaults, unless they are ignored.
        let tls = configuration.tls
        func inherited(_ option: Int32) -> String? { ignoring ? nil : Self.defaultString(option) }
        try setString(LDAP_OPT_X_TLS_CACERTFILE, tls.caCertificateFile ?? inherited(LDAP_OPT_X_TLS_CACERTFILE),
                      "the CA certificate file")
        // A CA file given here is the one trusted: the defaults' directory is not added to it.
        try setString(LDAP_OPT_X_TLS_CACERTDIR, tls.caCertificateFile == nil ? inherited(LDAP_OPT_X_TLS_CACERTDIR) : nil,
                      "the CA certificate directory")
        try setString(LDAP_OPT_X_TLS_CERTFILE, tls.certificateFile ?? inherited(LDAP_OPT_X_TLS_CERTFILE),
                      "the client certificate file")
        try setString(LDAP_OPT_X_TLS_KEYFILE, tls.keyFile ?? inherited(LDAP_OPT_X_TLS_KEYFILE), "the client key file")
        // TLS_REQCERT stays as libldap read it unless this configuration says, or ignores it.
        if let verification = tls.certificateVerification ?? (ignoring ? .required : nil) {
            let requirement: Int32 = switch verification {
            case .required: LDAP_OPT_X_TLS_DEMAND
            case .disabled: LDAP_OPT_X_TLS_NEVER
            }
            try setInt(LDAP_OPT_X_TLS_REQUIRE_CERT, requirement, "certificate verification")
        }
        var zero: Int32 = 0
        guard ldap_set_option(ld, LDAP_OPT_X_TLS_NEWCTX, &zero) == LDAP_OPT_SUCCESS else {
            throw tlsContextError()
        }
    }

    /// Why the session's TLS context could not be made: usually a file it names that cannot
    /// be read, which is named.
    private func tlsContextError() -> LDAPError {
        var problems: [String] = []
        var unreadable: String?
        for (option, what) in [(LDAP_OPT_X_TLS_CACERTFILE, "CA certificate file"),
                               (LDAP_OPT_X_TLS_CACERTDIR, "CA certificate directory"),
                               (LDAP_OPT_X_TLS_CERTFILE, "client certificate file"),
                               (LDAP_OPT_X_TLS_KEYFILE, "client key file")] {
            guard let path = stringOption(option), !path.isEmpty else { continue }
            if access(path, R_OK) != 0 {
                unreadable = unreadable ?? path
                problems.append("the \(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
            }
        }
        let message = problems.isEmpty
            ? "could not set up TLS" + (diagnosticMessage().isEmpty ? "" : ": " + diagnosticMessage())
            : problems.joined(separator: "; ")
        return LDAPError(.localError, message: message, operation: "connect", server: servers,
                         unreadableFile: unreadable)
    }

    /// A string option of this session.
    func stringOption(_ option: Int32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ldap_get_option(ld, option, &value) == LDAP_OPT_SUCCESS, let value else { return nil }
        defer { ldap_memfree(value) }
        return String(cString: value)
    }

    /// The error of a failed `ldap_connect`, saying what TLS found wrong when it was TLS.
    private func connectionError(_ rc: Int32, _ configuration: LDAPConnection.Configuration) -> LDAPError {
        var failure = error(rc, operation: "connect")
        let diagnostic = diagnosticMessage()
        // With nothing said, TCP failed (libldap's own words stay); otherwise TLS did.
        guard isLDAPS, failure.code != .timeout else { return failure }
        // libldap's diagnostic is the TLS library's, or says the connection failed (with
        // TLS on an asynchronous connection: "Error in the push function."): which it was,
        // a plain connection to the same port tells.
        if failure.code == .serverDown && !Self.acceptsTCP(servers, configuration) {
            failure.message = String(cString: ldap_err2string(rc))
        } else if diagnostic == Self.refusedCertificate {
            failure.message = tlsFailureMessage(diagnostic, configuration: configuration)
        } else {
            failure.message = "the server accepts connections but completes no TLS handshake"
                + (diagnostic.isEmpty ? "" : " (\(diagnostic))") + ": does this port speak ldaps?"
        }
        return failure
    }

    /// Whether `server` (an `ldaps://` URI) accepts a TCP connection: an ldaps failure that
    /// libldap says nothing about is then one of TLS.
    private static func acceptsTCP(_ server: String, _ configuration: LDAPConnection.Configuration) -> Bool {
        guard server.lowercased().hasPrefix("ldaps://") else { return false }
        var session: OpaquePointer?
        guard ldap_initialize(&session, "ldap://" + server.dropFirst("ldaps://".count)) == LDAP_SUCCESS,
              let session else { return false }
        let plain = LDAPHandle(ld: session, servers: server)
        var unencrypted = configuration
        unencrypted.tls.startTLS = false
        do { try plain.applyOptions(unencrypted) } catch { return false }
        // A plain connect that waits to know.
        guard cldap_set_connect_async(session, 0) == LDAP_OPT_SUCCESS else { return false }
        return ldap_connect(session) == LDAP_SUCCESS
    }

    /// The error of a failed StartTLS, saying what TLS found wrong, or that the server
    /// offers no TLS.
    private func startTLSError(_ rc: Int32, _ configuration: LDAPConnection.Configuration) -> LDAPError {
        var failure = error(rc, operation: "StartTLS")
        let diagnostic = diagnosticMessage()
        // An asynchronous connect reports a server it cannot reach here.
        if failure.code == .serverDown && diagnostic.isEmpty { failure.operation = "connect" }
        failure.message = startTLSFailureMessage(failure.code, diagnostic, configuration: configuration)
        return failure
    }

    private func bind(_ authentication: LDAPConnection.Authentication) throws(LDAPError) {
        let rc: Int32
        switch authentication {
        case .anonymous:
            // An anonymous simple bind, as `ldapsearch -x` sends: the server's first answer,
            // so a server that accepts connections and answers nothing is found out here,
            // within the timeout, while the next one can still be tried.
            var empty = CLDAP.berval(bv_len: 0, bv_val: nil)
            rc = ldap_sasl_bind_s(ld, "", cldap_sasl_simple(), &empty, nil, nil, nil)
        case .simple(let dn, let password):
            rc = password.bytes.withUnsafeBufferPointer { bytes in
                var credentials = CLDAP.berval(
                    bv_len: ber_len_t(bytes.count),
                    bv_val: UnsafeMutablePointer(mutating: UnsafeRawPointer(bytes.baseAddress)?
                        .assumingMemoryBound(to: CChar.self)))
                return ldap_sasl_bind_s(ld, dn.string, cldap_sasl_simple(), &credentials, nil, nil, nil)
            }
        case .saslExternal(let authorizationID):
            let identity = Array((authorizationID ?? "").utf8)
            rc = identity.withUnsafeBufferPointer { bytes in
                var credentials = CLDAP.berval(
                    bv_len: ber_len_t(bytes.count),
                    bv_val: UnsafeMutablePointer(mutating: UnsafeRawPointer(bytes.baseAddress)?
                        .assumingMemoryBound(to: CChar.self)))
                return ldap_sasl_bind_s(ld, nil, "EXTERNAL", &credentials, nil, nil, nil)
            }
        }
        try check(rc, "bind")
    }

    /// The session's socket, once connected.
    var fileDescriptor: Int32? {
        var fd: Int32 = -1
        guard ldap_get_option(ld, LDAP_OPT_DESC, &fd) == LDAP_OPT_SUCCESS, fd >= 0 else { return nil }
        return fd
    }

    // MARK: Reading responses

    /// Parses a result message: code, message, matched DN, referrals, controls.
    func parseResult(_ message: OpaquePointer) -> LDAPResponse {
        var code: Int32 = 0
        var matched: UnsafeMutablePointer<CChar>?
        var diagnostic: UnsafeMutablePointer<CChar>?
        var referrals: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?
        let rc = ldap_parse_result(ld, message, &code, &matched, &diagnostic, &referrals, &controls, 0)
        defer {
            if let matched { ldap_memfree(matched) }
            if let diagnostic { ldap_memfree(diagnostic) }
            if let referrals { ldap_memvfree(UnsafeMutablePointer(OpaquePointer(referrals))) }
            if let controls { ldap_controls_free(controls) }
        }
        guard rc == LDAP_SUCCESS else {
            return LDAPResponse(code: LDAPResultCode(rawValue: rc), message: diagnosticMessage())
        }
        var response = LDAPResponse(code: LDAPResultCode(rawValue: code))
        if let diagnostic { response.message = String(cString: diagnostic) }
        if let matched { response.matchedDN = String(cString: matched) }
        if let referrals {
            var index = 0
            while let uri = referrals[index] {
                response.referrals.append(String(cString: uri))
                index += 1
            }
        }
        if let controls { response.controls = LDAPHandle.swiftControls(controls) }
        return response
    }

    /// Copies a NULL-terminated C control array into Swift values.
    static func swiftControls(_ controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>) -> [LDAPControl] {
        var result: [LDAPControl] = []
        var index = 0
        while let control = controls[index] {
            let value = control.pointee.ldctl_value
            result.append(LDAPControl(
                oid: String(cString: control.pointee.ldctl_oid),
                isCritical: control.pointee.ldctl_iscritical != 0,
                value: value.bv_val.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(value.bv_len))) }))
            index += 1
        }
        return result
    }

    /// Decodes a search result entry, values as bytes.
    func entry(from message: OpaquePointer) throws(LDAPError) -> LDAPEntry {
        var ber: OpaquePointer?
        var dnValue = CLDAP.berval()
        try check(ldap_get_dn_ber(ld, message, &ber, &dnValue), "search")
        defer { if let ber { ber_free(ber, 0) } }
        let dnBytes = UnsafeBufferPointer(start: dnValue.bv_val.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) },
                                          count: Int(dnValue.bv_len))
        let dn: DistinguishedName
        do {
            // An ASCII DN (most are) is parsed from the message's bytes; any other is
            // decoded as a string first, which repairs bytes that are not UTF-8.
            if dnBytes.allSatisfy({ $0 < 0x80 }) {
                dn = try DistinguishedName(parsingUTF8: dnBytes, parents: &parentDNs)
            } else {
                dn = try DistinguishedName(parsing: String(decoding: dnBytes, as: UTF8.self))
            }
        } catch {
            throw LDAPError(.decodingError, message: "the server returned an invalid DN: \(String(decoding: dnBytes, as: UTF8.self))",
                            operation: "search", server: servers)
        }
        // The attributes are read from one copy of their encoding, which their values
        // share, instead of through libldap, which allocates an array per attribute.
        // ldap_get_dn_ber leaves `ber` inside the attribute list, limited to its end.
        var remaining: ber_len_t = 0
        guard let ber, ber_get_option(UnsafeMutableRawPointer(ber), LBER_OPT_BER_REMAINING_BYTES, &remaining) == LBER_OPT_SUCCESS else {
            throw LDAPError(.decodingError, message: "could not read the entry's attributes", operation: "search", server: servers)
        }
        var attributes: [LDAPAttribute] = []
        if remaining > 0 {
            var first = CLDAP.berval()
            guard ber_skip_raw(ber, &first) != ber_tag_t.max, let start = first.bv_val else {
                throw LDAPError(.decodingError, message: "the entry's attributes are malformed", operation: "search", server: servers)
            }
            // The list runs on from the first attribute's first byte.
            let list = Array(UnsafeRawBufferPointer(start: start, count: Int(remaining)))
            do {
                attributes = try LDAPEntry.attributes(decodingList: list, names: &attributeNames)
            } catch {
                throw LDAPError(.decodingError, message: "the entry \(dn.string) is malformed: \(error.message)",
                                operation: "search", server: servers)
            }
        }
        return LDAPEntry(dn: dn, attributes: attributes)
    }

    /// Decodes a search result reference: its URIs.
    func references(from message: OpaquePointer) -> [String] {
        var uris: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        guard ldap_parse_reference(ld, message, &uris, nil, 0) == LDAP_SUCCESS, let uris else { return [] }
        defer { ldap_memvfree(UnsafeMutablePointer(OpaquePointer(uris))) }
        var result: [String] = []
        var index = 0
        while let uri = uris[index] {
            result.append(String(cString: uri))
            index += 1
        }
        return result
    }

    /// Decodes an extended response's name and value.
    func extendedResult(from message: OpaquePointer) -> (oid: String?, value: [UInt8]?) {
        var oid: UnsafeMutablePointer<CChar>?
        var data: UnsafeMutablePointer<CLDAP.berval>?
        guard ldap_parse_extended_result(ld, message, &oid, &data, 0) == LDAP_SUCCESS else { return (nil, nil) }
        defer {
            if let oid { ldap_memfree(oid) }
            if let data { ber_bvfree(data) }
        }
        let value = data.flatMap { bv in
            bv.pointee.bv_val.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(bv.pointee.bv_len))) }
        }
        return (oid.map { String(cString: $0) }, value)
    }
}
