extension LDAPConnection {
    /// Where a connection goes, how it authenticates, and its limits.
    ///
    /// Values left unset fall back to libldap's own defaults (`ldap.conf`,
    /// `~/.ldaprc`, `LDAPURI`, `LDAPBASE`, ...) unless ``systemDefaults`` is
    /// ``SystemDefaults/ignored``, which makes a connection depend on this value alone.
    public struct Configuration: Sendable {
        /// The servers to try, in order, as LDAP URIs (`ldap://host:389`,
        /// `ldaps://host`, `ldapi://%2Frun%2Fslapd%2Fldapi`). The first that
        /// accepts the connection serves it, as with libldap's URI list.
        /// Empty means libldap's default (`URI` in `ldap.conf`, or `LDAPURI`).
        public var servers: [String]

        /// The base of searches that name none. `nil` means libldap's default
        /// (`BASE` in `ldap.conf`, or `LDAPBASE`).
        public var base: DistinguishedName?

        /// How the connection binds.
        public var authentication: Authentication

        /// TLS settings, used by `ldaps://` servers and by StartTLS.
        public var tls: TLS

        /// How long to wait for a TCP (and TLS) connection to be established;
        /// `nil` waits as long as the system does.
        ///
        /// The corresponding C option is `LDAP_OPT_NETWORK_TIMEOUT`.
        public var networkTimeout: Duration?

        /// How long to wait for the server's next response to an operation
        /// before abandoning it and throwing ``LDAPResultCode/timeout``; `nil`
        /// waits forever. A streaming search restarts the clock with every
        /// entry it receives. The connection stays usable after a timeout.
        public var operationTimeout: Duration?

        /// The most entries a search may return (`0` means no client limit;
        /// the server's own limit still applies).
        public var sizeLimit: Int

        /// Entries per page for searches (RFC 2696 Simple Paged Results), so
        /// that large results stream in bounded memory. `nil` turns paging off.
        public var pageSize: Int?

        /// Whether libldap's configuration files and environment supply what
        /// this value leaves unset.
        public var systemDefaults: SystemDefaults

        /// Creates a configuration.
        ///
        /// The defaults bind anonymously, verify server certificates, give up
        /// on a connection after 10 seconds and on an operation after 30, and
        /// page searches 500 entries at a time.
        public init(
            servers: [String] = [],
            base: DistinguishedName? = nil,
            authentication: Authentication = .anonymous,
            tls: TLS = TLS(),
            networkTimeout: Duration? = .seconds(10),
            operationTimeout: Duration? = .seconds(30),
            sizeLimit: Int = 0,
            pageSize: Int? = 500,
            systemDefaults: SystemDefaults = .honored
        ) {
            self.servers = servers
            self.base = base
            self.authentication = authentication
            self.tls = tls
            self.networkTimeout = networkTimeout
            self.operationTimeout = operationTimeout
            self.sizeLimit = sizeLimit
            self.pageSize = pageSize
            self.systemDefaults = systemDefaults
        }
    }

    /// Whether libldap's defaults from `ldap.conf`, `~/.ldaprc` and the
    /// `LDAP*` environment variables apply to what a configuration leaves unset.
    public enum SystemDefaults: Sendable, Hashable {
        /// Use libldap's defaults for anything left unset, as `ldapsearch` does.
        case honored
        /// Use this library's defaults only, as if `LDAPNOINIT` were set: each
        /// option that `ldap.conf` could set is set explicitly on the connection.
        case ignored
    }

    /// How a connection authenticates.
    public enum Authentication: Sendable, Hashable {
        /// No bind: the server's anonymous access applies.
        case anonymous
        /// A simple bind with a DN and password. Use it over TLS or ldapi only.
        case simple(dn: DistinguishedName, password: Password)
        /// A SASL EXTERNAL bind: the identity the transport already proves
        /// (the peer credentials of an `ldapi://` socket, or a TLS client
        /// certificate), optionally asking to act as `authorizationID`.
        case saslExternal(authorizationID: String? = nil)
    }

    /// A password, kept out of every description, log line and error.
    public struct Password: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
        /// The password's bytes.
        let bytes: [UInt8]

        /// Creates a password from its text.
        public init(_ text: String) {
            bytes = Array(text.utf8)
        }

        /// Creates a password from bytes, for example read from a file.
        public init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Always a placeholder: a password is never printed.
        public var description: String { "<password>" }
        /// Always a placeholder: a password is never printed.
        public var debugDescription: String { "<password>" }
    }

    /// TLS settings.
    public struct TLS: Sendable, Hashable {
        /// Whether to upgrade `ldap://` connections with StartTLS (RFC 4513).
        /// When StartTLS fails, the connection fails: it never continues in clear.
        public var startTLS: Bool
        /// A PEM file of CA certificates to trust; `nil` means the system's
        /// (or `TLS_CACERT` from `ldap.conf` when defaults are honored).
        public var caCertificateFile: String?
        /// A PEM client certificate, for SASL EXTERNAL over TLS.
        public var certificateFile: String?
        /// The client certificate's private key (PEM).
        public var keyFile: String?
        /// How strictly the server's certificate is checked; `nil` leaves it to libldap
        /// (`TLS_REQCERT` of `ldap.conf`, `demand` when unset), or ``CertificateVerification/required``
        /// when system defaults are ignored.
        public var certificateVerification: CertificateVerification?

        /// Creates TLS settings; server certificates are verified unless
        /// `certificateVerification` (or `TLS_REQCERT` in `ldap.conf`) says otherwise.
        public init(
            startTLS: Bool = false,
            caCertificateFile: String? = nil,
            certificateFile: String? = nil,
            keyFile: String? = nil,
            certificateVerification: CertificateVerification? = nil
        ) {
            self.startTLS = startTLS
            self.caCertificateFile = caCertificateFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.certificateVerification = certificateVerification
        }
    }

    /// How the server's certificate is checked.
    public enum CertificateVerification: Sendable, Hashable {
        /// The certificate must be valid, trusted and name the server (`demand`).
        case required
        /// No check at all (`never`). Anyone on the path can read and change
        /// the traffic; use only for tests or when you have no other choice.
        case disabled
    }
}

extension LDAPConnection.Configuration: CustomStringConvertible {
    /// The servers, base and bind identity; never the password.
    public var description: String {
        var parts = ["servers: \(servers.isEmpty ? "(system default)" : servers.joined(separator: " "))"]
        if let base { parts.append("base: \(base)") }
        switch authentication {
        case .anonymous: parts.append("bind: anonymous")
        case .simple(let dn, _): parts.append("bind: \(dn)")
        case .saslExternal(let authz): parts.append("bind: SASL EXTERNAL" + (authz.map { " as \($0)" } ?? ""))
        }
        if tls.startTLS { parts.append("StartTLS") }
        return parts.joined(separator: ", ")
    }
}
