@testable import LDAPBook
import Testing

@Suite("The configuration file")
struct ConfigFileTests {
    @Test("defaults, profiles and comments")
    func parse() throws {
        let config = try ConfigFile(parsing: """
            # ldapbook
            uri = ldap://a.example.com ldap://b.example.com
            base = dc=example,dc=com
            starttls = yes

            [work]
            binddn = uid=ada,ou=people,dc=example,dc=com
            password-file = ~/.config/ldapbook/work-password
            [home]
            uri=ldapi:///
            """)
        #expect(try config.settings(profile: nil)["uri"] == "ldap://a.example.com ldap://b.example.com")
        let work = try config.settings(profile: "work")
        #expect(work["base"] == "dc=example,dc=com", "profiles inherit the defaults")
        #expect(work["binddn"] == "uid=ada,ou=people,dc=example,dc=com")
        #expect(try config.settings(profile: "home")["uri"] == "ldapi:///")
        let missing = #expect(throws: AddressBookError.self) { try config.settings(profile: "play") }
        #expect(missing?.message.contains("home, work") == true)
    }

    @Test("mistakes name their line; a password never belongs in the file", arguments: [
        ("uri ldap://x", "config:1"), ("[]", "config:1"), ("uri = x\ncolour = blue", "config:2"),
        ("password = hunter2", "passwords go in a separate file"), ("[a]\n[a]", "config:2"),
    ])
    func mistakes(_ text: String, _ expected: String) {
        let error = #expect(throws: AddressBookError.self) { try ConfigFile(parsing: text) }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("hunter2") == false)
    }

    @Test("the file lives under XDG_CONFIG_HOME, else ~/.config")
    func paths() {
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/ldapbook/config")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/ldapbook/config")
        #expect(ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/ldapbook/config")
    }
}
