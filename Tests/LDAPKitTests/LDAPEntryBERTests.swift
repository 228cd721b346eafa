@testable import LDAPKit
import Testing

/// Decoding a search result entry's attribute list, as it comes off the wire.
@Suite("LDAPEntry: the encoded attribute list")
struct LDAPEntryBERTests {
    /// The contents of a `PartialAttributeList` holding `attributes`, as a server encodes it.
    private func encoded(_ attributes: [(String, [[UInt8]])]) -> [UInt8] {
        var writer = BERWriter()
        for (name, values) in attributes {
            writer.writeSequence { attribute in
                attribute.writeOctetString(name)
                attribute.writeSet { set in
                    for value in values { set.writeOctetString(value) }
                }
            }
        }
        return writer.bytes
    }

    @Test("names and values come back exactly, in order; values share the list")
    func decodes() throws {
        let photo: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 300)
        let list = encoded([
            ("objectClass", [Array("top".utf8), Array("inetOrgPerson".utf8)]),
            ("givenName", [Array("Zoë".utf8)]),
            ("jpegPhoto", [photo]),
            ("description", []),
        ])
        let attributes = try LDAPEntry.attributes(decodingList: list)
        #expect(attributes.map(\.name) == ["objectClass", "givenName", "jpegPhoto", "description"])
        #expect(attributes[0].values == ["top", "inetOrgPerson"])
        #expect(attributes[1].values.first?.string == "Zoë")
        #expect(attributes[2].values.first?.bytes == photo)
        #expect(attributes[3].values.isEmpty)
        #expect(try LDAPEntry.attributes(decodingList: []).isEmpty)
    }

    /// A search's entries are decoded with the names of the entry before at hand: whatever
    /// the next entry lists (the same names, others, more, fewer, in another order or case,
    /// beyond ASCII), it decodes as it does alone.
    @Test("entries decoded one after another decode as each does alone")
    func namesOfTheEntryBefore() throws {
        let lists: [[(String, [[UInt8]])]] = [
            [("objectClass", [Array("top".utf8)]), ("cn", [Array("Ada".utf8)]), ("ldapbookNickname", [Array("ada".utf8)])],
            [("objectClass", [Array("top".utf8)]), ("cn", [Array("Alan".utf8), Array("A.".utf8)]), ("ldapbookNickname", [])],
            [("objectClass", [Array("top".utf8)]), ("CN", [Array("Zoë".utf8)])],
            [("mail", [Array("a@example.com".utf8)]), ("objectClass", [Array("top".utf8)]), ("cn", [Array("B".utf8)]), ("sn", [[]])],
            [("cÿn", [Array("x".utf8)])],
            [],
            [("objectClass", [Array("top".utf8)]), ("cn", [Array("Ada".utf8)]), ("ldapbookNickname", [Array("ada".utf8)])],
        ]
        var names = RecentAttributeNames()
        for attributes in lists {
            let list = encoded(attributes)
            let alone = try LDAPEntry.attributes(decodingList: list)
            let after = try LDAPEntry.attributes(decodingList: list, names: &names)
            #expect(after == alone)
            #expect(after.map(\.name) == attributes.map(\.0))
        }
    }

    @Test("four-octet lengths, as Active Directory writes them, are read too")
    func longFormLengths() throws {
        let list: [UInt8] = [0x30, 0x84, 0, 0, 0, 20,
                             0x04, 0x84, 0, 0, 0, 2] + Array("cn".utf8)
            + [0x31, 0x84, 0, 0, 0, 6, 0x04, 0x84, 0, 0, 0, 0]
        let attributes = try LDAPEntry.attributes(decodingList: list)
        #expect(attributes.count == 1)
        #expect(attributes[0].name == "cn")
        #expect(attributes[0].values == [LDAPValue(bytes: [])])
    }

    @Test("malformed lists throw a decoding error", arguments: [
        ("a truncated value", Array([0x30, 0x0A, 0x04, 0x02, 0x63, 0x6E, 0x31, 0x04, 0x04, 0x05, 0x41])),
        ("a name that is not an OCTET STRING", [0x30, 0x06, 0x02, 0x01, 0x05, 0x31, 0x00]),
        ("a value that is not an OCTET STRING", [0x30, 0x09, 0x04, 0x02, 0x63, 0x6E, 0x31, 0x03, 0x02, 0x01, 0x05]),
        ("an element after the values", [0x30, 0x0A, 0x04, 0x02, 0x63, 0x6E, 0x31, 0x00, 0x04, 0x02, 0x41, 0x42]),
        ("no set of values", [0x30, 0x04, 0x04, 0x02, 0x63, 0x6E]),
        ("an attribute that is not a SEQUENCE", [0x31, 0x04, 0x04, 0x02, 0x63, 0x6E]),
        ("an indefinite length", [0x30, 0x80, 0x04, 0x02, 0x63, 0x6E, 0x31, 0x00, 0x00, 0x00]),
    ] as [(String, [UInt8])])
    func malformed(_ case: (String, [UInt8])) {
        #expect(throws: LDAPError.self, "\(`case`.0)") {
            try LDAPEntry.attributes(decodingList: `case`.1)
        }
        do {
            _ = try LDAPEntry.attributes(decodingList: `case`.1)
        } catch {
            #expect(error.code == .decodingError, "\(`case`.0)")
        }
    }
}
