import Testing
@testable import LDAPKit

@Suite("Parsing a DN from its bytes")
struct DistinguishedNameBytesTests {
    @Test("Bytes parse to what the string parses to, RDN by RDN and value by value", arguments: [
        "", "dc=example,dc=com", "uid=john.jobergar.9457,ou=people,dc=bench,dc=example",
        "cn=Smith\\, John+uid=js,ou=people;dc=example", "cn = spaced , dc = example",
        "cn=Ada Lovelace,ou=people,dc=example", "cn=a b+uid=c d,dc=x", " cn=x,dc=y", "cn=x,dc=y ", "cn= x,dc=y", "cn=x ,dc=y",
        "cn=#04024869,dc=example", "cn=\"quoted, value\",dc=example", "cn=a\\2Cb\\00c,dc=x",
    ])
    func sameAsString(_ text: String) throws {
        var utf8 = Array(text.utf8)
        var parents = DistinguishedName.ParentCache()
        let fromBytes = try utf8.withUnsafeMutableBufferPointer { try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents) }
        let fromString = try DistinguishedName(parsing: text)
        #expect(fromBytes == fromString)
        #expect(fromBytes.rdns.flatMap(\.attributes).map(\.value.bytes) == fromString.rdns.flatMap(\.attributes).map(\.value.bytes))
        #expect(fromBytes.string == fromString.string)
    }

    @Test("Bytes that are no DN throw the string parser's error", arguments: ["cn", "=x", "cn=a,", "cn;lang-de=x"])
    func sameError(_ text: String) {
        var utf8 = Array(text.utf8)
        var parents = DistinguishedName.ParentCache()
        let fromBytes = #expect(throws: LDAPError.self) {
            try utf8.withUnsafeMutableBufferPointer { try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents) }
        }
        let fromString = #expect(throws: LDAPError.self) { try DistinguishedName(parsing: text) }
        #expect(fromBytes == fromString)
    }

    @Test("DNs parsed in a row with a parent cache parse as they do alone, whatever their parents")
    func parentCache() throws {
        let texts = [
            "uid=a,ou=people,dc=example", "uid=b,ou=people,dc=example", "cn=Smith\\, John+uid=js,ou=people,dc=example",
            "dc=example", "uid=c,ou=people,dc=example", "uid=d, ou=people,dc=example", "uid=e,ou=People,dc=example",
            "cn=\"quoted, value\",ou=people,dc=example", "uid=f;ou=people,dc=example", "", "uid=g,ou=people,dc=example",
        ]
        var parents = DistinguishedName.ParentCache()
        var parsed: [DistinguishedName] = []
        for text in texts {
            var utf8 = Array(text.utf8)
            let dn = try utf8.withUnsafeMutableBufferPointer {
                try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents)
            }
            let alone = try DistinguishedName(parsing: text)
            #expect(dn == alone, "\(text)")
            #expect(dn.string == alone.string, "\(text)")
            parsed.append(dn)
        }
        // Entries under one parent share its parsed RDNs rather than holding copies.
        func storage(_ dn: DistinguishedName) -> UnsafeRawPointer? {
            dn.rdns[1].attributes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        #expect(storage(parsed[0]) == storage(parsed[1]))
        #expect(storage(parsed[0]) == storage(parsed[2]))
        #expect(storage(parsed[4]) == storage(parsed[0]), "a DN without a parent leaves the cache as it was")
        #expect(storage(parsed[5]) != storage(parsed[0]), "a parent written differently is parsed again")
    }

    @Test("A parent that is no DN throws, and the next DN still parses", arguments: ["uid=a,", "uid=a,ou", "uid=a,=x"])
    func parentCacheError(_ text: String) throws {
        var parents = DistinguishedName.ParentCache()
        var utf8 = Array(text.utf8)
        #expect(throws: LDAPError.self) {
            try utf8.withUnsafeMutableBufferPointer { try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents) }
        }
        var next = Array("uid=b,dc=example".utf8)
        let dn = try next.withUnsafeMutableBufferPointer {
            try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents)
        }
        #expect(dn == (try DistinguishedName(parsing: "uid=b,dc=example")))
    }

    @Test("The text a DN was read from is its string only when writing it gives the same text: random DNs, spaces, escapes, = and # among them")
    func keptText() throws {
        var random = SeededRandom(seed: 4514)
        let pieces = ["a", "Ada", "zoë", "山田", " ", ",", "+", "=", "#", "\\,", "\\2C", "\"", ";", "x y", "ou=people", "dc=example"]
        var kept = 0
        for _ in 0..<4000 {
            var text = "uid="
            for _ in 0..<Int(random.next() % 6) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            if random.next() % 3 == 0 { text += [0xFF].map { String(UnicodeScalar($0)) }.joined() }
            text += random.next() % 2 == 0 ? ",ou=people,dc=example" : ""
            var utf8 = Array(text.utf8)
            if random.next() % 7 == 0 { utf8.append(0xFF) }
            var parents = DistinguishedName.ParentCache()
            guard let dn = try? utf8.withUnsafeMutableBufferPointer({
                try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents)
            }) else { continue }
            let written = DistinguishedName(rdns: dn.rdns)
            #expect(written.text == nil)
            #expect(dn.utf8 == written.utf8, "\(text.debugDescription)")
            #expect(dn == written && dn.hashValue == written.hashValue)
            if dn.text != nil {
                kept += 1
                #expect(dn.text == utf8)
            }
        }
        #expect(kept > 100, "most plain DNs keep their text")
        var ada = Array("uid=ada,dc=example".utf8)
        var parents = DistinguishedName.ParentCache()
        var changed = try ada.withUnsafeMutableBufferPointer { try DistinguishedName(parsingUTF8: UnsafeBufferPointer($0), parents: &parents) }
        #expect(changed.text != nil)
        changed.rdns[0] = RelativeDistinguishedName(type: "uid", value: "alan")
        #expect(changed.text == nil && changed.string == "uid=alan,dc=example")
    }
}
