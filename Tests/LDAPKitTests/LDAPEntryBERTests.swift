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
