import Testing
@testable import LDAPKit

@Suite("Parsing a DN from its bytes")
struct DistinguishedNameBytesTests {
    @Test("Bytes parse to what the string parses to, RDN by RDN and value by value", arguments: [
        "", "dc=example,dc=com", "uid=john.jobergar.9457,ou=people,dc=bench,dc=example",
        "cn=Smith\\, John+uid=js,ou=people;dc=example", "cn = spaced , dc = example",
        "cn=#04024869,dc=example", "cn=\"quoted, value\",dc=example", "cn=a\\2Cb\\00c,dc=x",
    ])
    func sameAsString(_ text: String) throws {
        var utf8 = Array(text.utf8)
        let fromBytes = try utf8.withUnsafeMutableBufferPointer { try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0)) }
        let fromString = try DistinguishedName(parsing: text)
        #expect(fromBytes == fromString)
        #expect(fromBytes.rdns.flatMap(\.attributes).map(\.value.bytes) == fromString.rdns.flatMap(\.attributes).map(\.value.bytes))
        #expect(fromBytes.string == fromString.string)
    }

    @Test("Bytes that are no DN throw the string parser's error", arguments: ["cn", "=x", "cn=a,", "cn;lang-de=x"])
    func sameError(_ text: String) {
        var utf8 = Array(text.utf8)
        let fromBytes = #expect(throws: LDAPError.self) {
            try utf8.withUnsafeMutableBufferPointer { try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0)) }
        }
        let fromString = #expect(throws: LDAPError.self) { try DistinguishedName(parsing: text) }
        #expect(fromBytes == fromString)
    }
}
