internal import CLDAP
import Synchronization

/// What is decided for the whole process before libldap's first use: libldap
/// initialises itself once, on its first call, and reads its process-wide
/// settings then.
enum LibLDAPSetup {
    private struct State {
        /// Whether LDAPKit has made a call that may have initialised libldap.
        var used = false
    }

    private static let state = Mutex(State())

    /// Called before each call that may be libldap's first: `ldap_initialize`
    /// and the global `ldap_get_option`.
    static func willUse() {
        state.withLock { $0.used = true }
    }

    /// Points Cyrus SASL's plugin path at nothing, if libldap has not started yet.
    static func skipSASLPlugins() -> Bool {
        state.withLock { state in
            // An empty path names no directory, so no plugin can be planted there.
            !state.used && cldap_set_sasl_plugin_path("") == 0
        }
    }
}

extension LDAPConnection {
    /// Keeps libldap from loading Cyrus SASL's mechanism plugins, which it
    /// otherwise opens, every one installed and the libraries they need
    /// (Kerberos among them), the first time a process uses it: about 5 ms of
    /// every short-lived process that connects.
    ///
    /// LDAPKit's connections never need them: a simple bind and SASL EXTERNAL
    /// are sent by libldap itself. The setting belongs to the process, not to a
    /// connection, so call this at the start of a program in which no other code
    /// uses Cyrus SASL either.
    ///
    /// - Returns: Whether it took effect. It does not once LDAPKit has used
    ///   libldap in this process, nor when libldap was built without Cyrus SASL.
    @discardableResult
    public static func skipSASLPlugins() -> Bool {
        LibLDAPSetup.skipSASLPlugins()
    }
}
