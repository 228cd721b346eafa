import CLDAP
import LDAPKit
import SlapdKit
import Testing

/// libldap's process-wide defaults (what `ldap.conf` and `LDAPURI`/`LDAPBASE`
/// set) apply to what a configuration leaves unset, unless it ignores them.
/// The test sets those defaults with `ldap_set_option(NULL, ...)`, exactly
/// where libldap stores what it read from `ldap.conf`.
@Suite("libldap's own defaults", .serialized)
struct SystemDefaultsTests {
    @Test("skipping SASL plugins is refused once libldap has started: it reads its settings once")
    func saslPluginsAfterFirstUse() async throws {
        let server = try await TestDirectory.shared()
        let connection = try TestDirectory.anonymousConnection(server)
        _ = try await connection.search(base: try DistinguishedName(parsing: TestDirectory.suffix), scope: .base,
                                        filter: .present("objectClass"), attributes: ["1.1"]).collect()
        #expect(!LDAPConnection.skipSASLPlugins())
    }

    @Test("an unset server and base come from libldap's defaults, unless ignored")
    func defaultsFillWhatIsUnset() async throws {
        let server = try await TestDirectory.shared()
        #expect(ldap_set_option(nil, LDAP_OPT_URI, server.ldapURI) == LDAP_OPT_SUCCESS)
        #expect(ldap_set_option(nil, LDAP_OPT_DEFBASE, TestDirectory.suffix) == LDAP_OPT_SUCCESS)
        defer {
            ldap_set_option(nil, LDAP_OPT_URI, "ldap://localhost")
            ldap_set_option(nil, LDAP_OPT_DEFBASE, nil as UnsafeRawPointer?)
        }

        let honoring = LDAPConnection(configuration: .init())
        #expect(honoring.defaultBase == (try DistinguishedName(parsing: TestDirectory.suffix)))
        let suffix = try #require(try await honoring.read(.root, attributes: ["namingContexts"]))
        #expect(suffix.strings("namingContexts").map { $0.lowercased() } == [TestDirectory.suffix])
        #expect(try await honoring.search(scope: .base).collect().count == 1, "the default base is searched")

        let ignoring = LDAPConnection(configuration: .init(systemDefaults: .ignored))
        #expect(ignoring.defaultBase == nil)
        let error = await #expect(throws: LDAPError.self) { try await ignoring.connect() }
        #expect(error?.code == .paramError)
    }
}
