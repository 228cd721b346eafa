@testable import LDAPBook
import LDAPKit
import Testing

@Suite struct PersonDetailsTests {
    private func person(_ attributes: [LDAPAttribute]) throws -> Person {
        Person(entry: LDAPEntry(dn: try DistinguishedName(parsing: "cn=x,dc=example"), attributes: attributes))
    }

    /// Title, department and organisation, in that order whatever the entry's order; the first
    /// UTF-8 value of the first attribute of each name, however the server spelled it; blank
    /// values and other attributes left out.
    @Test func detailsAreTheFirstTextOfEachInOrder() throws {
        let someone = try person([
            LDAPAttribute(name: "o", values: [LDAPValue("Example Ltd")]),
            LDAPAttribute(name: "cn", values: [LDAPValue("Ada")]),
            LDAPAttribute(name: "TITLE", values: [LDAPValue(bytes: [0xFF]), LDAPValue("Engineer"), LDAPValue("Lead")]),
            LDAPAttribute(name: "title", values: [LDAPValue("Ignored")]),
            LDAPAttribute(name: "ou", values: [LDAPValue("  ")]),
            LDAPAttribute(name: "oU", values: [LDAPValue("Also ignored")]),
            LDAPAttribute(name: "l", values: [LDAPValue("London")]),
        ])
        #expect(someone.details == ["Engineer", "Example Ltd"])
        #expect(try person([LDAPAttribute(name: "ou", values: [LDAPValue("Research")])]).details == ["Research"])
        #expect(try person([LDAPAttribute(name: "cn", values: [LDAPValue("Ada")])]).details.isEmpty)
    }
}
