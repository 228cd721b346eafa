internal import CLDAP
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension LDAPConnection {
    /// What libldap's own configuration says, as `ldapsearch` reads it: `ldap.conf`
    /// (`/etc/ldap/ldap.conf`, then `LDAPCONF`), the user's `ldaprc` and `.ldaprc` (and
    /// `LDAPRC`), and the `LDAP*` environment variables; nothing at all under `LDAPNOINIT`.
    ///
    /// A connection whose configuration honors system defaults uses the URI, base, TLS files
    /// and certificate check of libldap itself. The rest is here for a program to merge with
    /// its own settings, as `ldapsearch` does with its flags: the bind DN, the SASL mechanism
    /// and the two timeouts.
    public struct LibLDAPDefaults: Sendable, Hashable {
        /// `BINDDN`: the DN of a simple bind that names none (`ldaprc`, `.ldaprc`,
        /// `LDAPBINDDN`; libldap reads it from the user's files only, never `ldap.conf`).
        public var bindDN: String?
        /// `SASL_MECH`: the SASL mechanism to bind with when not told to bind simply.
        public var saslMechanism: String?
        /// `NETWORK_TIMEOUT`: how long to wait for a TCP connection.
        public var networkTimeout: Duration?
        /// `TIMEOUT`: how long to wait for the reply to an operation.
        public var operationTimeout: Duration?
        /// Whether `LDAPNOINIT` is set, which switches all of the above off.
        public var isSwitchedOff: Bool

        /// Creates a value; ``current`` reads libldap's.
        public init(bindDN: String? = nil, saslMechanism: String? = nil, networkTimeout: Duration? = nil,
                    operationTimeout: Duration? = nil, isSwitchedOff: Bool = false) {
            self.bindDN = bindDN
            self.saslMechanism = saslMechanism
            self.networkTimeout = networkTimeout
            self.operationTimeout = operationTimeout
            self.isSwitchedOff = isSwitchedOff
        }

        /// libldap's defaults in this process.
        public static var current: LibLDAPDefaults {
            let environment = ProcessInfo.processInfo.environment
            guard environment["LDAPNOINIT"] == nil else { return LibLDAPDefaults(isSwitchedOff: true) }
            LibLDAPSetup.willUse()
            return LibLDAPDefaults(
                bindDN: geteuid() == getuid()
                    ? userBindDN(environment: environment, readFile: { try? String(contentsOfFile: $0, encoding: .utf8) })
                    : nil,
                saslMechanism: defaultSASLMechanism(),
                networkTimeout: defaultTimeout(LDAP_OPT_NETWORK_TIMEOUT),
                operationTimeout: defaultTimeout(LDAP_OPT_TIMEOUT))
        }

        private static func defaultTimeout(_ option: Int32) -> Duration? {
            var seconds = 0, microseconds = 0
            guard cldap_get_timeval(nil, option, &seconds, &microseconds) == 0, seconds >= 0 else { return nil }
            return .seconds(seconds) + .microseconds(microseconds)
        }

        /// libldap keeps the SASL defaults per session only: a session that never connects
        /// reads it.
        private static func defaultSASLMechanism() -> String? {
            var session: OpaquePointer?
            guard ldap_initialize(&session, nil) == LDAP_SUCCESS, let session else { return nil }
            defer { ldap_unbind_ext(session, nil, nil) }
            var mechanism: UnsafeMutablePointer<CChar>?
            guard ldap_get_option(session, LDAP_OPT_X_SASL_MECH, &mechanism) == LDAP_OPT_SUCCESS,
                  let mechanism else { return nil }
            defer { ldap_memfree(mechanism) }
            let text = String(cString: mechanism)
            return text.isEmpty ? nil : text
        }

        /// `BINDDN` as libldap finds it, the last one read winning: `$HOME/ldaprc`,
        /// `$HOME/.ldaprc`, `./ldaprc`, then the same three for the name in `LDAPRC`, then
        /// `LDAPBINDDN` (empty: none). libldap keeps it where no option reads it back, so it is
        /// read here the same way, from the same files.
        static func userBindDN(environment: [String: String], readFile: (String) -> String?) -> String? {
            var bindDN: String?
            func read(_ path: String) {
                guard let text = readFile(path) else { return }
                if let value = setting("BINDDN", in: text) { bindDN = value }
            }
            for name in ["ldaprc"] + (environment["LDAPRC"].map { [$0] } ?? []) {
                if let home = environment["HOME"] {
                    read(home + "/" + name)
                    read(home + "/." + name)
                }
                read(name)
            }
            if let variable = environment["LDAPBINDDN"] { bindDN = variable.isEmpty ? nil : variable }
            return bindDN
        }

        /// The last value of `keyword` in a file of libldap's format: a line whose first
        /// character is `#` is a comment; a keyword, matched ignoring case, then white space
        /// and the value, trimmed.
        static func setting(_ keyword: String, in text: String) -> String? {
            var value: String?
            for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
                guard line.first != "#" else { continue }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard let gap = trimmed.firstIndex(where: \.isWhitespace) else { continue }
                guard trimmed[..<gap].lowercased() == keyword.lowercased() else { continue }
                value = trimmed[gap...].trimmingCharacters(in: .whitespaces)
            }
            return value
        }
    }
}
