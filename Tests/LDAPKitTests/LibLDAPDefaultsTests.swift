@testable import LDAPKit
import Testing

@Suite("libldap's user settings, read as libldap reads them")
struct LibLDAPDefaultsTests {
    @Test("a keyword matches ignoring case; # at the start of a line is a comment; the last value wins, trimmed")
    func setting() {
        let text = "# BINDDN cn=commented\nURI ldap://x\n  bindDN   cn=first,dc=example  \nBINDDN\tcn=second,dc=example\nBINDDNX cn=no\n"
        #expect(LDAPConnection.LibLDAPDefaults.setting("BINDDN", in: text) == "cn=second,dc=example")
        #expect(LDAPConnection.LibLDAPDefaults.setting("BASE", in: text) == nil)
        #expect(LDAPConnection.LibLDAPDefaults.setting("BINDDN", in: "BINDDN\n") == nil, "a keyword without a value")
    }

    @Test("BINDDN: ~/ldaprc, ~/.ldaprc, ./ldaprc, then the files LDAPRC names, then LDAPBINDDN, the later winning")
    func bindDNOrder() {
        var files = ["/home/ada/ldaprc": "BINDDN cn=home-plain", "/home/ada/.ldaprc": "BINDDN cn=home-dot"]
        let environment = ["HOME": "/home/ada"]
        func bindDN(_ environment: [String: String]) -> String? {
            LDAPConnection.LibLDAPDefaults.userBindDN(environment: environment, readFile: { files[$0] })
        }
        #expect(bindDN(environment) == "cn=home-dot")
        files["ldaprc"] = "BINDDN cn=working-directory"
        #expect(bindDN(environment) == "cn=working-directory")
        files["/home/ada/.work"] = "BINDDN cn=named"
        #expect(bindDN(environment.merging(["LDAPRC": "work"]) { $1 }) == "cn=named")
        #expect(bindDN(environment.merging(["LDAPRC": "work", "LDAPBINDDN": "cn=variable"]) { $1 }) == "cn=variable")
        #expect(bindDN(environment.merging(["LDAPBINDDN": ""]) { $1 }) == nil, "an empty variable unsets it")
    }
}
