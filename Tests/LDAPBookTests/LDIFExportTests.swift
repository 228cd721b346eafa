@testable import LDAPBook
import LDAPKit
import Testing

@Suite struct LDIFExportTests {
    /// What an export writes of each entry: the user attributes, in order, as they came;
    /// never a password or key, never entryUUID, however the server spelled them, entry after
    /// entry (the answers kept from the first are the same for the next).
    @Test func writesUserAttributesOnly() throws {
        var export = LDIFExport(registry: FieldRegistry(schema: nil))
        var bytes: [UInt8] = []
        for (index, spelling) in ["userPassword", "USERPASSWORD", "userpassword"].enumerated() {
            let entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=p\(index),dc=example"), attributes: [
                LDAPAttribute(name: "objectClass", values: [LDAPValue("inetOrgPerson")]),
                LDAPAttribute(name: "cn", values: [LDAPValue("Zoë \(index)")]),
                LDAPAttribute(name: spelling, values: [LDAPValue("{SSHA}secret")]),
                LDAPAttribute(name: "entryUUID", values: [LDAPValue("9a3e5c1e-0000-1000-8000-00000000000\(index)")]),
                LDAPAttribute(name: "mail", values: [LDAPValue("p\(index)@example.com"), LDAPValue("")]),
            ])
            export.append(entry, to: &bytes)
            var expected = entry
            expected.attributes.removeAll { $0.isNamed("userPassword") || $0.isNamed("entryUUID") }
            #expect(try LDIFReader(bytes: bytes).records().last == .content(expected))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.localizedCaseInsensitiveContains("password") && !text.contains("secret") && !text.contains("entryUUID"))
        #expect(text.hasPrefix("dn: uid=p0,dc=example\nobjectClass: inetOrgPerson\ncn:: "))
    }
}
