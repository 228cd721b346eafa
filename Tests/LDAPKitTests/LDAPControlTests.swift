import CLDAP
import Testing
@testable import LDAPKit

@Suite("LDAP controls")
struct LDAPControlTests {
    // MARK: Request controls

    @Test("The OID constants match libldap's")
    func oids() {
        typealias OID = LDAPKit.LDAPControl.OID
        #expect(OID.pagedResults == LDAP_CONTROL_PAGEDRESULTS)
        #expect(OID.assertion == LDAP_CONTROL_ASSERT)
        #expect(OID.permissiveModify == LDAP_CONTROL_X_PERMISSIVE_MODIFY)
        #expect(OID.preRead == LDAP_CONTROL_PRE_READ)
        #expect(OID.postRead == LDAP_CONTROL_POST_READ)
        #expect(OID.manageDsaIT == LDAP_CONTROL_MANAGEDSAIT)
        #expect(OID.proxiedAuthorization == LDAP_CONTROL_PROXY_AUTHZ)
        #expect(OID.subentries == LDAP_CONTROL_SUBENTRIES)
        #expect(OID.sortRequest == LDAP_CONTROL_SORTREQUEST)
        #expect(OID.sortResponse == LDAP_CONTROL_SORTRESPONSE)
        #expect(OID.dontUseCopy == LDAP_CONTROL_DONTUSECOPY)
        #expect(OID.relax == LDAP_CONTROL_RELAX)
        #expect(OID.treeDelete == LDAP_CONTROL_X_TREE_DELETE)
        #expect(OID.passwordPolicy == LDAP_CONTROL_PASSWORDPOLICYREQUEST)
    }

    @Test("A control is created with no value and not critical by default")
    func defaults() {
        let control = LDAPKit.LDAPControl(oid: "1.2.3")
        #expect(control.oid == "1.2.3")
        #expect(!control.isCritical)
        #expect(control.value == nil)
        #expect(control != LDAPKit.LDAPControl(oid: "1.2.3", value: []))
    }

    @Test("Paged results values match libldap's", arguments: [1, 10, 127, 128, 255, 256, 1000, 65536, Int(Int32.max)],
          [0, 1, 6, 127, 128, 300, 70_000])
    func pagedResultsMatchesLibldap(size: Int, cookieLength: Int) throws {
        let cookie = (0..<cookieLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let control = LDAPKit.LDAPControl.pagedResults(size: size, cookie: cookie)
        #expect(control.oid == LDAP_CONTROL_PAGEDRESULTS)
        #expect(!control.isCritical)
        #expect(control.value == (try LibLDAP().pageControlValue(size: size, cookie: cookie)))
    }

    @Test("Paged results sizes are clamped to 0...Int32.max, and a size of 0 is allowed")
    func pagedResultsClamping() {
        typealias Control = LDAPKit.LDAPControl
        #expect(Control.pagedResults(size: -5).value == Control.pagedResults(size: 0).value)
        #expect(Control.pagedResults(size: Int.max).value == Control.pagedResults(size: Int(Int32.max)).value)
        #expect(Control.pagedResults(size: 100).value == [0x30, 0x05, 0x02, 0x01, 0x64, 0x04, 0x00])
        // libldap refuses a size of 0, which RFC 2696 uses to abandon a paged search.
        #expect(Control.pagedResults(size: 0, cookie: [0x2A]).value == [0x30, 0x06, 0x02, 0x01, 0x00, 0x04, 0x01, 0x2A])
        #expect(Control.pagedResults(size: 10, isCritical: true).isCritical)
    }

    @Test("Assertion values match libldap's for every kind of filter, built or parsed", arguments: [
        ("(objectClass=*)", .present("objectClass")),
        ("(cn=Ada Lovelace)", .equal("cn", "Ada Lovelace")),
        ("(cn=a\\2Ab\\28c\\29\\5Cd)", .equal("cn", "a*b(c)\\d")),
        ("(jpegPhoto=\\00\\ff\\10)", .equal("jpegPhoto", LDAPValue(bytes: [0x00, 0xFF, 0x10]))),
        ("(cn=Zo\\C3\\AB)", .equal("cn", "Zoë")),
        ("(cn=*lace)", .substrings("cn", initial: nil, any: [], final: "lace")),
        ("(cn=Ada*)", .substrings("cn", initial: "Ada", any: [], final: nil)),
        ("(cn=*ove*)", .substrings("cn", initial: nil, any: ["ove"], final: nil)),
        ("(cn=A*d\\2a*a*e)", .substrings("cn", initial: "A", any: ["d*", "a"], final: "e")),
        ("(age>=21)", .greaterOrEqual("age", "21")),
        ("(age<=65)", .lessOrEqual("age", "65")),
        ("(sn~=lovlace)", .approximate("sn", "lovlace")),
        ("(cn:caseExactMatch:=Ada)", .extensibleMatch(attribute: "cn", matchingRule: "caseExactMatch", value: "Ada", dnAttributes: false)),
        ("(:dn:2.5.13.5:=Ada)", .extensibleMatch(attribute: nil, matchingRule: "2.5.13.5", value: "Ada", dnAttributes: true)),
        ("(ou:dn:=people)", .extensibleMatch(attribute: "ou", matchingRule: nil, value: "people", dnAttributes: true)),
        ("(!(mail=*))", .not(.present("mail"))),
        ("(&(objectClass=person)(|(cn=Ada*)(!(mail=*))(sn=L*e)))", .and([
            .equal("objectClass", "person"),
            .or([
                .substrings("cn", initial: "Ada", any: [], final: nil),
                .not(.present("mail")),
                .substrings("sn", initial: "L", any: [], final: "e"),
            ]),
        ])),
        ("(&)", .and([])),
        ("(|)", .or([])),
        ("(cn=*)", .substrings("cn", initial: "", any: [""], final: nil)),
        ("(cn=a*b*)", .substrings("cn", initial: "a", any: ["", "b"], final: "")),
    ] as [(String, LDAPFilter)])
    func assertionMatchesLibldap(text: String, filter: LDAPFilter) throws {
        let control = LDAPKit.LDAPControl.assertion(filter)
        #expect(control.oid == LDAP_CONTROL_ASSERT)
        #expect(control.isCritical)
        #expect(control.value == filter.ber)
        let libldapValue = try LibLDAP().assertionControlValue(text)
        #expect(control.value == libldapValue)
        #expect(LDAPKit.LDAPControl.assertion(try LDAPFilter(parsing: text)).value == libldapValue)
    }

    @Test("Filters have the RFC 4511 tags")
    func filterTags() {
        #expect(LDAPFilter.present("cn").ber == [0x87, 0x02, 0x63, 0x6E])
        #expect(LDAPFilter.equal("cn", "x").ber == [0xA3, 0x07, 0x04, 0x02, 0x63, 0x6E, 0x04, 0x01, 0x78])
        #expect(LDAPFilter.not(.present("cn")).ber == [0xA2, 0x04, 0x87, 0x02, 0x63, 0x6E])
        #expect(LDAPFilter.substrings("cn", initial: "a", any: ["b"], final: "c").ber
            == [0xA4, 0x0F, 0x04, 0x02, 0x63, 0x6E, 0x30, 0x09, 0x80, 0x01, 0x61, 0x81, 0x01, 0x62, 0x82, 0x01, 0x63])
        #expect(LDAPFilter.extensibleMatch(attribute: "cn", matchingRule: "r", value: "v", dnAttributes: true).ber
            == [0xA9, 0x0D, 0x81, 0x01, 0x72, 0x82, 0x02, 0x63, 0x6E, 0x83, 0x01, 0x76, 0x84, 0x01, 0xFF])
    }

    @Test("A filter longer than 127 bytes gets a long-form length")
    func longFilter() throws {
        let filter = LDAPFilter.or((0..<40).map { .equal("uid", LDAPValue("user\($0)")) })
        let text = "(|" + (0..<40).map { "(uid=user\($0))" }.joined() + ")"
        #expect(Array(filter.ber.prefix(2)) == [0xA1, 0x82])
        #expect(LDAPKit.LDAPControl.assertion(filter).value == (try LibLDAP().assertionControlValue(text)))
    }

    @Test("Permissive Modify and ManageDsaIT carry no value")
    func valuelessControls() {
        typealias Control = LDAPKit.LDAPControl
        #expect(Control.permissiveModify == Control(oid: LDAP_CONTROL_X_PERMISSIVE_MODIFY, isCritical: false))
        #expect(Control.manageDsaIT == Control(oid: LDAP_CONTROL_MANAGEDSAIT, isCritical: true))
    }

    @Test("Pre-read and post-read requests list the attributes to return")
    func readEntryRequests() {
        typealias Control = LDAPKit.LDAPControl
        let preRead = Control.preRead(["cn", "mail"])
        #expect(preRead.oid == LDAP_CONTROL_PRE_READ)
        #expect(preRead.isCritical)
        #expect(preRead.value == [0x30, 0x0A, 0x04, 0x02, 0x63, 0x6E, 0x04, 0x04, 0x6D, 0x61, 0x69, 0x6C])

        let postRead = Control.postRead(["*", "+"])
        #expect(postRead.oid == LDAP_CONTROL_POST_READ)
        #expect(postRead.isCritical)
        #expect(postRead.value == [0x30, 0x06, 0x04, 0x01, 0x2A, 0x04, 0x01, 0x2B])

        #expect(Control.preRead([]).value == [0x30, 0x00])
    }

    // MARK: Finding response controls

    @Test("Controls are found by OID, first match first")
    func findingByOID() {
        typealias Control = LDAPKit.LDAPControl
        let controls = [Control(oid: "1.1"), Control(oid: "1.2", value: [1]), Control(oid: "1.2", value: [2])]
        #expect(controls.control(withOID: "1.2")?.value == [1])
        #expect(controls.control(withOID: "1.3") == nil)
        #expect([Control]().control(withOID: "1.1") == nil)
    }

    // MARK: Paged results responses

    @Test("A hand-built paged results response decodes")
    func pagedResponseByHand() throws {
        let value: [UInt8] = [0x30, 0x0B, 0x02, 0x02, 0x01, 0xF4, 0x04, 0x05, 0x68, 0x65, 0x6C, 0x6C, 0x6F]
        let controls = [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PAGEDRESULTS, value: value)]
        let response = try #require(try controls.pagedResultsResponse())
        #expect(response == PagedResultsResponse(estimatedSize: 500, cookie: Array("hello".utf8)))
        #expect(!response.isLastPage)
    }

    @Test("The last page has an empty cookie")
    func lastPage() throws {
        let value: [UInt8] = [0x30, 0x05, 0x02, 0x01, 0x00, 0x04, 0x00]
        let response = try #require(try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PAGEDRESULTS, value: value)].pagedResultsResponse())
        #expect(response.isLastPage)
        #expect(response.estimatedSize == 0)
    }

    @Test("A paged results response written with BERWriter decodes, in libldap too", arguments: [0, 7, 1_000_000])
    func pagedResponseRoundTrip(estimatedSize: Int) throws {
        let cookie = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        var writer = BERWriter()
        writer.writeSequence { response in
            response.writeInteger(estimatedSize)
            response.writeOctetString(cookie)
        }
        let controls = [LDAPKit.LDAPControl(oid: "1.1"), LDAPKit.LDAPControl(oid: LDAP_CONTROL_PAGEDRESULTS, value: writer.bytes)]
        #expect(try controls.pagedResultsResponse() == PagedResultsResponse(estimatedSize: estimatedSize, cookie: cookie))

        let parsed = try LibLDAP().parsePageResponse(writer.bytes)
        #expect(parsed.estimatedSize == estimatedSize)
        #expect(parsed.cookie == cookie)
    }

    @Test("A paged results response written by liblber decodes")
    func pagedResponseFromLiblber() throws {
        let cookie = [CChar](repeating: 0x43, count: 200)
        let ber = try #require(ber_alloc_t(LBER_USE_DER))
        defer { ber_free(ber, 1) }
        try #require(ber_start_seq(ber, ber_tag_t(0x30)) != -1)
        try #require(ber_put_int(ber, 12345, ber_tag_t(0x02)) != -1)
        try #require(cookie.withUnsafeBufferPointer { ber_put_ostring(ber, $0.baseAddress, 200, ber_tag_t(0x04)) } != -1)
        try #require(ber_put_seq(ber) != -1)
        var flattened = berval()
        try #require(ber_flatten2(ber, &flattened, 0) == 0)
        let value = Array(UnsafeRawBufferPointer(start: flattened.bv_val, count: Int(flattened.bv_len)))

        let response = try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PAGEDRESULTS, value: value)].pagedResultsResponse()
        #expect(response == PagedResultsResponse(estimatedSize: 12345, cookie: [UInt8](repeating: 0x43, count: 200)))
    }

    @Test("No paged results response is nil")
    func pagedResponseAbsent() throws {
        #expect(try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PRE_READ, value: [])].pagedResultsResponse() == nil)
    }

    @Test("Malformed paged results responses throw a decoding error", arguments: [
        nil,
        [],
        [0x30, 0x03, 0x02, 0x01, 0x05],
        [0x30, 0x05, 0x04, 0x00, 0x02, 0x01, 0x05],
        [0x30, 0x08, 0x02, 0x01, 0x05, 0x04, 0x00, 0x01, 0x01, 0x00],
        [0x30, 0x05, 0x02, 0x01, 0x05, 0x04, 0x00, 0x00],
        [0x30, 0x07, 0x02, 0x01, 0x05, 0x04, 0x09, 0x61],
        [0x31, 0x05, 0x02, 0x01, 0x05, 0x04, 0x00],
    ] as [[UInt8]?])
    func malformedPagedResponse(value: [UInt8]?) {
        let controls = [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PAGEDRESULTS, value: value)]
        let error = #expect(throws: LDAPError.self) { try controls.pagedResultsResponse() }
        #expect(error?.code == .decodingError)
    }

    // MARK: Pre-read and post-read responses

    @Test("A pre-read entry decodes with its DN and attributes in order")
    func preReadEntry() throws {
        let value = searchResultEntry(dn: "cn=Ada Lovelace,ou=people,dc=example,dc=com", attributes: [
            ("objectClass", [Array("top".utf8), Array("inetOrgPerson".utf8)]),
            ("cn", [Array("Ada Lovelace".utf8)]),
            ("description", [[]]),
            ("mail", []),
        ])
        let controls = [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PRE_READ, value: value)]
        let entry = try #require(try controls.preReadEntry())
        #expect(entry.dn == (try DistinguishedName(parsing: "cn=Ada Lovelace,ou=people,dc=example,dc=com")))
        #expect(entry.dn.rdns.count == 4)
        #expect(entry.attributes.map(\.name) == ["objectClass", "cn", "description", "mail"])
        #expect(entry.strings("objectClass") == ["top", "inetOrgPerson"])
        #expect(entry.string("cn") == "Ada Lovelace")
        #expect(entry["description"] == [LDAPValue(bytes: [])])
        #expect(entry.attributes[3].values.isEmpty)
        #expect(try controls.postReadEntry() == nil)
    }

    @Test("A post-read entry with a 200 KB photo keeps every byte")
    func postReadPhoto() throws {
        var generator = SeededRandom(seed: 2024)
        let photo = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let value = searchResultEntry(dn: "cn=Lovelace\\, Ada,dc=example", attributes: [
            ("jpegPhoto", [photo]),
            ("userCertificate;binary", [[0x30, 0x82, 0x00, 0x00], [0xFF]]),
        ])
        #expect(Array(value.prefix(2)) == [0x64, 0x83])

        let entry = try #require(try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_POST_READ, value: value)].postReadEntry())
        #expect(entry["jpegPhoto"].first?.bytes == photo)
        #expect(entry["userCertificate;binary"] == [LDAPValue(bytes: [0x30, 0x82, 0x00, 0x00]), LDAPValue(bytes: [0xFF])])
        #expect(entry.dn.rdns.first?.attributes.first?.value == "Lovelace, Ada")
        #expect(try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_POST_READ, value: value)].preReadEntry() == nil)
    }

    @Test("An entry encoded with four-octet lengths, as OpenLDAP writes them, decodes")
    func fourOctetLengths() throws {
        func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
            let count = UInt32(contents.count)
            return [tag, 0x84, UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + contents
        }
        let value = element(0x64,
            element(0x04, Array("uid=ada,dc=example".utf8))
            + element(0x30, element(0x30, element(0x04, Array("uid".utf8)) + element(0x31, element(0x04, Array("ada".utf8))))))
        let entry = try #require(try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_POST_READ, value: value)].postReadEntry())
        #expect(entry.dn == (try DistinguishedName(parsing: "uid=ada,dc=example")))
        #expect(entry.strings("uid") == ["ada"])
    }

    @Test("An entry with no attributes decodes")
    func entryWithoutAttributes() throws {
        let value = searchResultEntry(dn: "dc=example", attributes: [])
        let entry = try #require(try [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PRE_READ, value: value)].preReadEntry())
        #expect(entry.attributes.isEmpty)
        #expect(entry.dn.rdns.count == 1)
    }

    @Test("Malformed read-entry responses throw a decoding error", arguments: [
        nil,
        [],
        [0x65, 0x00],
        [0x64, 0x02, 0x04, 0x00],
        [0x64, 0x04, 0x04, 0x00, 0x30, 0x00, 0x00],
        [0x64, 0x04, 0x04, 0x00, 0x30, 0x00, 0x30, 0x00],
        [0x64, 0x06, 0x04, 0x02, 0xC3, 0x28, 0x30, 0x00],
        [0x64, 0x0A, 0x04, 0x00, 0x30, 0x06, 0x30, 0x04, 0x04, 0x02, 0x63, 0x6E],
        [0x64, 0x0C, 0x04, 0x00, 0x30, 0x08, 0x30, 0x06, 0x04, 0x02, 0x63, 0x6E, 0x30, 0x00],
        [0x64, 0x0E, 0x04, 0x00, 0x30, 0x0A, 0x30, 0x08, 0x04, 0x02, 0x63, 0x6E, 0x31, 0x02, 0x02, 0x00],
        [0x64, 0x84, 0x00, 0x10, 0x00, 0x00, 0x04, 0x00],
    ] as [[UInt8]?])
    func malformedEntry(value: [UInt8]?) {
        let controls = [LDAPKit.LDAPControl(oid: LDAP_CONTROL_PRE_READ, value: value)]
        let error = #expect(throws: LDAPError.self) { try controls.preReadEntry() }
        #expect(error?.code == .decodingError)
    }

    @Test("An entry whose DN is not a DN throws the DN parser's error")
    func invalidDN() {
        let value = searchResultEntry(dn: "not a distinguished name", attributes: [])
        let controls = [LDAPKit.LDAPControl(oid: LDAP_CONTROL_POST_READ, value: value)]
        let error = #expect(throws: LDAPError.self) { try controls.postReadEntry() }
        #expect(error?.code == .invalidDNSyntax)
    }

    /// Encodes a `SearchResultEntry` as a read-entry response control value.
    private func searchResultEntry(dn: String, attributes: [(name: String, values: [[UInt8]])]) -> [UInt8] {
        var writer = BERWriter()
        writer.writeConstructed(.application(4, constructed: true)) { entry in
            entry.writeOctetString(dn)
            entry.writeSequence { list in
                for attribute in attributes {
                    list.writeSequence { partial in
                        partial.writeOctetString(attribute.name)
                        partial.writeSet { set in
                            for value in attribute.values { set.writeOctetString(value) }
                        }
                    }
                }
            }
        }
        return writer.bytes
    }
}

/// A libldap session handle that is never connected: `ldap_initialize` only
/// parses the URI, and the control encoders need a handle for error reporting.
private final class LibLDAP {
    private let handle: OpaquePointer

    init() throws {
        var handle: OpaquePointer?
        try #require(ldap_initialize(&handle, "ldap://127.0.0.1:9") == LDAP_SUCCESS)
        self.handle = try #require(handle)
    }

    deinit {
        ldap_unbind_ext(handle, nil, nil)
    }

    /// The value `ldap_create_page_control_value` encodes.
    func pageControlValue(size: Int, cookie: [UInt8]) throws -> [UInt8] {
        var value = berval()
        var cookieBytes = cookie.map { CChar(bitPattern: $0) }
        let result = cookieBytes.withUnsafeMutableBufferPointer { buffer in
            var cookieValue = berval(bv_len: ber_len_t(buffer.count), bv_val: buffer.baseAddress)
            return cookie.isEmpty
                ? ldap_create_page_control_value(handle, ber_int_t(size), nil, &value)
                : ldap_create_page_control_value(handle, ber_int_t(size), &cookieValue, &value)
        }
        try #require(result == LDAP_SUCCESS)
        return take(value)
    }

    /// The value `ldap_create_assertion_control_value` encodes for the filter string.
    func assertionControlValue(_ filter: String) throws -> [UInt8] {
        var value = berval()
        let result = filter.withCString {
            ldap_create_assertion_control_value(handle, UnsafeMutablePointer(mutating: $0), &value)
        }
        try #require(result == LDAP_SUCCESS, "libldap rejected \(filter)")
        return take(value)
    }

    /// The size and cookie `ldap_parse_pageresponse_control` reads from a response value.
    func parsePageResponse(_ value: [UInt8]) throws -> (estimatedSize: Int, cookie: [UInt8]) {
        var valueBytes = value.map { CChar(bitPattern: $0) }
        var estimatedSize: ber_int_t = 0
        var cookie = berval()
        let result = LDAP_CONTROL_PAGEDRESULTS.withCString { oid in
            valueBytes.withUnsafeMutableBufferPointer { buffer in
                var control = CLDAP.LDAPControl(
                    ldctl_oid: UnsafeMutablePointer(mutating: oid),
                    ldctl_value: berval(bv_len: ber_len_t(buffer.count), bv_val: buffer.baseAddress),
                    ldctl_iscritical: 0
                )
                return ldap_parse_pageresponse_control(handle, &control, &estimatedSize, &cookie)
            }
        }
        try #require(result == LDAP_SUCCESS)
        return (Int(estimatedSize), take(cookie))
    }

    /// Copies a libldap-allocated value and frees it.
    private func take(_ value: berval) -> [UInt8] {
        defer { ber_memfree(value.bv_val) }
        return Array(UnsafeRawBufferPointer(start: value.bv_val, count: Int(value.bv_len)))
    }
}
