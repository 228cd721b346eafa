import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SlapdConfiguration {
    /// The user and group whose connections over the ldapi socket slapd maps to the root DN
    /// (SASL EXTERNAL), so that they manage the configuration and data without a password.
    public struct LDAPIOwner: Sendable, Hashable {
        /// The numeric user ID.
        public var userID: UInt32

        /// The numeric group ID.
        public var groupID: UInt32

        /// Creates an owner from numeric IDs, e.g. `0` and `0` for a server run as root.
        public init(userID: UInt32, groupID: UInt32) {
            self.userID = userID
            self.groupID = groupID
        }

        /// The user and group this process runs as.
        public static var currentUser: LDAPIOwner {
            LDAPIOwner(userID: UInt32(getuid()), groupID: UInt32(getgid()))
        }
    }

    /// The cn=config of a server with these settings whose files live in `directory`, as
    /// LDIF for `slapadd -n0 -F <directory>/slapd.d`.
    ///
    /// This is the configuration ``Slapd`` generates for itself, for servers that are set
    /// up elsewhere (another machine, a container): the database lives in
    /// `<directory>/data`, the pid and arguments files in `directory`, and the ldapi
    /// socket at ``socketFile`` or `<directory>/ldapi`. The schema files are read now.
    ///
    /// - Parameters:
    ///   - directory: where the server keeps its files.
    ///   - ldapiOwner: the user whose ldapi connections act as the root DN.
    ///   - passwordSalt: the salt of the `{SSHA}` hash of ``rootPassword``; `nil` picks a
    ///     random one. A fixed salt makes the output the same on every run. Unused when
    ///     ``rootPasswordHash`` is set or ``rootPassword`` is empty.
    public func configurationLDIF(
        directory: URL,
        ldapiOwner: LDAPIOwner = .currentUser,
        passwordSalt: [UInt8]? = nil
    ) throws(SlapdError) -> String {
        try ConfigurationLDIF(
            configuration: self,
            layout: InstanceLayout(directory: directory, socket: socketFile),
            userID: ldapiOwner.userID,
            groupID: ldapiOwner.groupID,
            rootPasswordHash: rootPasswordValue(salt: passwordSalt)
        ).render()
    }

    /// The `olcRootPW` value: ``rootPasswordHash`` as given, else the `{SSHA}` hash of
    /// ``rootPassword`` with `salt` (random when `nil`), or `nil` for an empty password.
    func rootPasswordValue(salt: [UInt8]? = nil) -> String? {
        if let rootPasswordHash {
            return rootPasswordHash
        }
        guard !rootPassword.isEmpty else { return nil }
        if let salt {
            return SaltedSHA1.hash(rootPassword, salt: salt)
        }
        return SaltedSHA1.hash(rootPassword)
    }
}
