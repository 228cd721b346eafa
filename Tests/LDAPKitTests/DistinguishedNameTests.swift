import LDAPKit
import Testing

/// A DN built from its RDNs, each a list of type and value pairs.
private func dn(_ rdns: [(String, LDAPValue)]...) -> DistinguishedName {
    DistinguishedName(rdns: rdns.map { pairs in
        RelativeDistinguishedName(attributes: pairs.map { AttributeTypeAndValue(type: $0.0, value: $0.1) })
    })
}

/// The parts of a DN spelled out exactly: types as written, values as bytes.
private func exactParts(of name: DistinguishedName) -> [[String]] {
    name.rdns.map { $0.attributes.map { "\($0.type)=\($0.value.bytes)" } }
}

@Suite struct DistinguishedNameTests {
    // MARK: RFC 4514 section 4

    static let rfcExamples: [(text: String, name: DistinguishedName, rendering: String)] = [
        ("UID=jsmith,DC=example,DC=net",
         dn([("UID", "jsmith")], [("DC", "example")], [("DC", "net")]),
         "UID=jsmith,DC=example,DC=net"),
        ("OU=Sales+CN=J.  Smith,DC=example,DC=net",
         dn([("OU", "Sales"), ("CN", "J.  Smith")], [("DC", "example")], [("DC", "net")]),
         "OU=Sales+CN=J.  Smith,DC=example,DC=net"),
        (#"CN=James \"Jim\" Smith\, III,DC=example,DC=net"#,
         dn([("CN", #"James "Jim" Smith, III"#)], [("DC", "example")], [("DC", "net")]),
         #"CN=James \"Jim\" Smith\, III,DC=example,DC=net"#),
        (#"CN=Before\0dAfter,DC=example,DC=net"#,
         dn([("CN", "Before\rAfter")], [("DC", "example")], [("DC", "net")]),
         #"CN=Before\0dAfter,DC=example,DC=net"#),
        ("1.3.6.1.4.1.1466.0=#04024869,DC=example,DC=com",
         dn([("1.3.6.1.4.1.1466.0", LDAPValue(bytes: [0x04, 0x02, 0x48, 0x69]))], [("DC", "example")], [("DC", "com")]),
         #"1.3.6.1.4.1.1466.0=\04\02Hi,DC=example,DC=com"#),
        (#"CN=Lu\C4\8Di\C4\87"#,
         dn([("CN", "Lučić")]),
         "CN=Lučić"),
    ]

    @Test("RFC 4514 section 4 examples", arguments: rfcExamples)
    func rfcExample(text: String, name: DistinguishedName, rendering: String) throws {
        let parsed = try DistinguishedName(parsing: text)
        #expect(parsed == name)
        #expect(exactParts(of: parsed) == exactParts(of: name))
        #expect(parsed.string == rendering)
        #expect(try DistinguishedName(parsing: rendering) == name)
    }

    // MARK: Escaping (python-ldap's escape_dn_chars vectors)

    static let escapeVectors: [(value: String, escaped: String)] = [
        ("foobar", "foobar"),
        ("foo,bar", #"foo\,bar"#),
        ("foo=bar", #"foo\=bar"#),
        ("foo#bar", "foo#bar"),
        ("#foobar", ##"\#foobar"##),
        ("foo bar", "foo bar"),
        (" foobar", #"\ foobar"#),
        ("foobar ", #"foobar\ "#),
        ("f+o>o,b<a;r=\"\0\"", #"f\+o\>o\,b\<a\;r\=\"\00\""#),
        (" ", #"\ "#),
        ("  ", #"\ \ "#),
        ("a  b", "a  b"),
        (#"back\slash"#, #"back\\slash"#),
        ("", ""),
        ("Lučić 日本 🙂", "Lučić 日本 🙂"),
        ("line\nbreak\u{7F}", #"line\0abreak\7f"#),
    ]

    @Test("escape(_:) writes RFC 4514 escapes", arguments: escapeVectors)
    func escaping(value: String, escaped: String) throws {
        #expect(DistinguishedName.escape(value) == escaped)
        #expect(DistinguishedName.escape(LDAPValue(value)) == escaped)
        let parsed = try DistinguishedName(parsing: "cn=" + escaped)
        #expect(parsed.rdn?.attributes.first?.value == LDAPValue(value))
    }

    @Test func escapingWritesBytesThatAreNotUTF8AsHex() throws {
        let value = LDAPValue(bytes: [0x41, 0xFF, 0xC3, 0xA9, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF0, 0x9F, 0x99, 0x82])
        #expect(DistinguishedName.escape(value) == #"A\ffé\c3(\ed\a0\80🙂"#)
        #expect(try DistinguishedName(parsing: "cn=" + DistinguishedName.escape(value)).rdn?.attributes[0].value == value)
    }

    @Test func utf8IsTheStringsBytes() {
        var random = SeededRandom(seed: 4514)
        let types = ["cn", "uid", "ou", "dc", "2.5.4.3"]
        let special = Array("a =,+\\#é".utf8)
        for _ in 0..<2_000 {
            let name = DistinguishedName(rdns: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                RelativeDistinguishedName(attributes: (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    let bytes = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                        Bool.random(using: &random) ? UInt8.random(in: 0...0xFF, using: &random) : special.randomElement(using: &random)!
                    }
                    return AttributeTypeAndValue(type: types.randomElement(using: &random)!, value: LDAPValue(bytes: bytes))
                })
            })
            #expect(name.utf8 == Array(name.string.utf8), "\(name.rdns.map { $0.attributes.map(\.value.bytes) })")
            if let first = name.rdn {
                #expect(first.utf8 == Array(first.string.utf8))
                #expect(name.utf8.starts(with: first.utf8))
            }
        }
    }

    // MARK: Parsing

    @Test func emptyStringIsTheRoot() throws {
        let root = try DistinguishedName(parsing: "")
        #expect(root == .root)
        #expect(root.isRoot)
        #expect(root.rdns.isEmpty)
        #expect(root.string == "")
    }

    static let lenientForms: [(text: String, name: DistinguishedName)] = [
        ("cn=a, dc=b", dn([("cn", "a")], [("dc", "b")])),
        ("  cn = a ,  dc = b  ", dn([("cn", "a")], [("dc", "b")])),
        ("cn=a + sn=b,dc=c", dn([("cn", "a"), ("sn", "b")], [("dc", "c")])),
        ("cn=a;dc=b", dn([("cn", "a")], [("dc", "b")])),
        ("cn=a=b", dn([("cn", "a=b")])),
        ("cn=a#b", dn([("cn", "a#b")])),
        ("cn=", dn([("cn", "")])),
        ("cn=,dc=b", dn([("cn", "")], [("dc", "b")])),
        (#"cn=a\ "#, dn([("cn", "a ")])),
        (#"cn=a\  ,dc=b"#, dn([("cn", "a ")], [("dc", "b")])),
        (#"cn=\ a"#, dn([("cn", " a")])),
        ("2.5.4.3=Ada,0.9.2342.19200300.100.1.25=com", dn([("2.5.4.3", "Ada")], [("0.9.2342.19200300.100.1.25", "com")])),
        (#"cn="Smith, John + Co; <x> = 1",dc=b"#, dn([("cn", "Smith, John + Co; <x> = 1")], [("dc", "b")])),
        (#"cn="say \"hi\"\, \\ok"  ,dc=b"#, dn([("cn", #"say "hi", \ok"#)], [("dc", "b")])),
        (#"cn="\41\2c""#, dn([("cn", "412c")])),
        (#"cn="""#, dn([("cn", "")])),
        (#"cn=" a  " , dc=b"#, dn([("cn", " a  ")], [("dc", "b")])),
        (#"cn=a\20\20 "#, dn([("cn", "a  ")])),
        ("cn=#4869 ,dc=b", dn([("cn", "Hi")], [("dc", "b")])),
        ("cn=#4869+sn=x", dn([("cn", "Hi"), ("sn", "x")])),
        (#"cn=\e6\97\a5\e6\9c\ac"#, dn([("cn", "日本")])),
        (##"cn=\,\+\"\\\<\>\;\=\#\ "##, dn([("cn", #",+"\<>;=# "#)])),
        ("x-Attr-9=v", dn([("x-Attr-9", "v")])),
        ("cn=日本語", dn([("cn", "日本語")])),
        ("cn=tab\there", dn([("cn", "tab\there")])),
    ]

    @Test("Accepted variations", arguments: lenientForms)
    func lenientForm(text: String, name: DistinguishedName) throws {
        let parsed = try DistinguishedName(parsing: text)
        #expect(exactParts(of: parsed) == exactParts(of: name))
    }

    @Test func hexEscapesMayLeaveInvalidUTF8() throws {
        let parsed = try DistinguishedName(parsing: #"cn=\ff\c3"#)
        #expect(parsed.rdn?.attributes[0].value.bytes == [0xFF, 0xC3])
        #expect(parsed.string == #"cn=\ff\c3"#)
    }

    @Test func hexStringKeepsTheBERBytes() throws {
        let parsed = try DistinguishedName(parsing: "1.3.6.1.4.1.1466.0=#04024869")
        #expect(parsed.rdn?.attributes[0].value.bytes == [0x04, 0x02, 0x48, 0x69])
        #expect(try DistinguishedName(parsing: "cn=#0aFF").rdn?.attributes[0].value.bytes == [0x0A, 0xFF])
    }

    static let malformed: [String] = [
        "cn",                   // missing '='
        "cn a",                 // missing '='
        "=a",                   // empty type
        " =a",                  // empty type after a space
        "cn=a,=b",              // empty type in the second RDN
        #"cn=a\"#,              // trailing escape
        #"cn=a,dc=b\"#,         // trailing escape at the very end
        #"cn=\zz"#,             // invalid hex
        #"cn=\4"#,              // half a hex pair
        #"cn=\4g"#,             // invalid hex digit
        #"cn=\a"#,              // escape of an ordinary character
        "1cn=a",                // starts with a digit, not an OID
        "2=a",                  // an OID needs two numbers
        "1.2.=a",               // empty OID component
        "1..2=a",               // empty OID component
        "01.2=a",               // leading zero
        "-cn=a",                // type starts with a hyphen
        "c n=a",                // space inside the type
        "cn;lang-de=a",         // attribute options
        "cn=a,",                // trailing comma
        ",cn=a",                // leading comma
        "cn=a+",                // trailing plus
        "cn=a,,dc=b",           // empty RDN
        "cn=#",                 // no hex digits
        "cn=#abc",              // odd number of hex digits
        "cn=#zz",               // not hex
        "cn=#0102 x",           // junk after a hex string
        #"cn="abc"#,            // unterminated quotes
        #"cn="abc"x"#,          // junk after quotes
        "cn=\"a\\\0\"",         // raw NUL in quotes
        #"cn=a"b"#,             // unescaped quote
        "cn=a<b",               // unescaped '<'
        "cn=a>b",               // unescaped '>'
        "cn=a\0b",              // raw NUL
        " ",                    // only a space
        "é=a",                  // non-ASCII type
    ]

    @Test("Malformed DNs are rejected", arguments: malformed)
    func malformedDN(text: String) {
        let error = #expect(throws: LDAPError.self) { try DistinguishedName(parsing: text) }
        #expect(error?.code == .invalidDNSyntax)
        #expect(error?.message.contains("at offset") == true)
    }

    @Test func errorsGiveTheCharacterOffset() throws {
        let trailing = #expect(throws: LDAPError.self) { try DistinguishedName(parsing: #"cn=a,dc=b\"#) }
        #expect(trailing?.message.hasSuffix("at offset 9") == true)
        let missingEquals = #expect(throws: LDAPError.self) { try DistinguishedName(parsing: "cn=é,sn") }
        #expect(missingEquals?.message.contains("'='") == true)
        #expect(missingEquals?.message.hasSuffix("at offset 7") == true)
        let angle = #expect(throws: LDAPError.self) { try DistinguishedName(parsing: "cn=日本<") }
        #expect(angle?.message.hasSuffix("at offset 5") == true)
    }

    @Test func relativeDistinguishedNameParsing() throws {
        let rdn = try RelativeDistinguishedName(parsing: "ou=Sales+cn=J. Smith")
        #expect(rdn == RelativeDistinguishedName(attributes: [
            AttributeTypeAndValue(type: "ou", value: "Sales"),
            AttributeTypeAndValue(type: "cn", value: "J. Smith"),
        ]))
        #expect(rdn.string == "ou=Sales+cn=J. Smith")
        let error = #expect(throws: LDAPError.self) { try RelativeDistinguishedName(parsing: "cn=a,dc=b") }
        #expect(error?.code == .invalidDNSyntax)
        #expect(throws: LDAPError.self) { try RelativeDistinguishedName(parsing: "") }
    }

    // MARK: Injection

    @Test func childValueStaysOneValue() throws {
        let base = try DistinguishedName(parsing: "dc=example,dc=com")
        let child = base.child("cn", "x,dc=evil")
        #expect(child.string == #"cn=x\,dc\=evil,dc=example,dc=com"#)
        let reparsed = try DistinguishedName(parsing: child.string)
        #expect(reparsed.rdns.count == 3)
        #expect(reparsed == child)
        #expect(reparsed.rdn?.attributes == [AttributeTypeAndValue(type: "cn", value: "x,dc=evil")])
    }

    @Test func hostileValuesStayOneValue() throws {
        for value in ["a+sn=b", "#01", " x ", "\\", "\0", "\"q\"", "a\\,b", "<script>", "a;b"] {
            let name = DistinguishedName.root.child("cn", LDAPValue(value))
            let reparsed = try DistinguishedName(parsing: name.string)
            #expect(reparsed.rdns.count == 1)
            #expect(reparsed.rdn?.attributes.count == 1)
            #expect(reparsed.rdn?.attributes[0].value == LDAPValue(value))
        }
    }

    // MARK: Navigation

    @Test func rootNavigation() {
        #expect(DistinguishedName.root.isRoot)
        #expect(DistinguishedName.root.rdn == nil)
        #expect(DistinguishedName.root.parent == nil)
        #expect(DistinguishedName.root.string == "")
        #expect(DistinguishedName.root.description == "")
    }

    @Test func parentAndChild() throws {
        let ada = try DistinguishedName(parsing: "cn=Ada Lovelace,ou=people,dc=example,dc=com")
        let people = try DistinguishedName(parsing: "ou=people,dc=example,dc=com")
        #expect(!ada.isRoot)
        #expect(ada.rdn == RelativeDistinguishedName(type: "cn", value: "Ada Lovelace"))
        #expect(ada.parent == people)
        #expect(people.child("cn", "Ada Lovelace") == ada)
        #expect(people.child(RelativeDistinguishedName(type: "cn", value: "Ada Lovelace")) == ada)
        #expect(people.child("cn", "Ada Lovelace").string == "cn=Ada Lovelace,ou=people,dc=example,dc=com")
        let com = try DistinguishedName(parsing: "dc=com")
        #expect(com.parent == .root)
        #expect(DistinguishedName.root.child("dc", "com") == com)
    }

    @Test func descendants() throws {
        let ada = try DistinguishedName(parsing: "cn=Ada,ou=people,dc=example,dc=com")
        let people = try DistinguishedName(parsing: "OU=people,DC=example,DC=com")
        let example = try DistinguishedName(parsing: "dc=example,dc=com")
        let other = try DistinguishedName(parsing: "ou=people,dc=example,dc=org")
        #expect(ada.isDescendant(of: people))
        #expect(ada.isDescendant(of: example))
        #expect(ada.isDescendant(of: .root))
        #expect(people.isDescendant(of: example))
        #expect(!people.isDescendant(of: people))
        #expect(!example.isDescendant(of: people))
        #expect(!ada.isDescendant(of: other))
        #expect(!DistinguishedName.root.isDescendant(of: .root))
        // Values compare by exact bytes, as with ==.
        let upper = try DistinguishedName(parsing: "ou=PEOPLE,dc=example,dc=com")
        #expect(!ada.isDescendant(of: upper))
    }

    @Test func equivalence() throws {
        let name = try DistinguishedName(parsing: "cn=Ada Lovelace,dc=example")
        #expect(name.isEquivalent(to: try DistinguishedName(parsing: "CN=ada lovelace,DC=EXAMPLE")))
        #expect(name.isEquivalent(to: try DistinguishedName(parsing: #"cn=\ Ada Lovelace\ ,dc=example"#)))
        #expect(name.isEquivalent(to: try DistinguishedName(parsing: "cn=Ada Lovelace+sn=x,dc=example")) == false)
        #expect(name.isEquivalent(to: try DistinguishedName(parsing: "cn=Ada  Lovelace,dc=example")) == false)
        #expect(name.isEquivalent(to: try DistinguishedName(parsing: "dc=example")) == false)
        #expect(try DistinguishedName(parsing: "cn=ÉLODIE").isEquivalent(to: try DistinguishedName(parsing: "cn=élodie")))
        #expect(try DistinguishedName(parsing: "cn=Straße").isEquivalent(to: try DistinguishedName(parsing: "cn=STRASSE")) == false)
        let multi = try DistinguishedName(parsing: "cn=Ada+uid=ADA,dc=x")
        #expect(multi.isEquivalent(to: try DistinguishedName(parsing: "UID=ada+CN=ada,dc=X")))
        #expect(try DistinguishedName(parsing: #"cn=\ff"#).isEquivalent(to: try DistinguishedName(parsing: #"cn=\FF"#)))
        #expect(try DistinguishedName(parsing: #"cn=\ff"#).isEquivalent(to: try DistinguishedName(parsing: #"cn=\fe"#)) == false)
        #expect(DistinguishedName.root.isEquivalent(to: .root))
    }

    // MARK: Equality and hashing

    @Test func typesIgnoreCaseAndValuesDoNot() throws {
        let lower = try DistinguishedName(parsing: "cn=Ada,dc=example")
        let upperTypes = try DistinguishedName(parsing: "CN=Ada,Dc=example")
        let upperValue = try DistinguishedName(parsing: "cn=ADA,dc=example")
        #expect(lower == upperTypes)
        #expect(lower.hashValue == upperTypes.hashValue)
        #expect(lower != upperValue)
        #expect(lower != (try DistinguishedName(parsing: "cn=Ada ,dc=example,dc=com")))
        #expect(Set([lower, upperTypes, upperValue]).count == 2)
        #expect(AttributeTypeAndValue(type: "cn", value: "a") != AttributeTypeAndValue(type: "sn", value: "a"))
        #expect(AttributeTypeAndValue(type: "cn", value: "a") != AttributeTypeAndValue(type: "cnx", value: "a"))
    }

    @Test func multiValuedRDNsIgnoreOrder() throws {
        let first = try RelativeDistinguishedName(parsing: "cn=Ada+uid=ada+ou=x")
        let second = try RelativeDistinguishedName(parsing: "OU=x+cn=Ada+UID=ada")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first.string == "cn=Ada+uid=ada+ou=x")
        #expect(second.string == "OU=x+cn=Ada+UID=ada")
        #expect(first != (try RelativeDistinguishedName(parsing: "cn=Ada+uid=ada")))
        #expect(first != (try RelativeDistinguishedName(parsing: "cn=Ada+uid=ada+ou=y")))
        // Each pair is matched once: {a, a, b} is not {a, b, b}.
        let aab = try RelativeDistinguishedName(parsing: "cn=a+cn=a+cn=b")
        let abb = try RelativeDistinguishedName(parsing: "cn=a+cn=b+cn=b")
        #expect(aab != abb)
        #expect(Set([first, second, aab, abb]).count == 3)
    }

    @Test func descriptions() throws {
        let name = try DistinguishedName(parsing: "cn=a\\,b+sn=c,dc=d")
        #expect(name.description == #"cn=a\,b+sn=c,dc=d"#)
        #expect(name.rdn?.description == #"cn=a\,b+sn=c"#)
        #expect(name.rdn?.attributes[0].description == #"cn=a\,b"#)
        #expect(name.rdn?.attributes[0].string == #"cn=a\,b"#)
        #expect("\(name)" == name.string)
    }

    // MARK: Round trip

    @Test("Rendering then parsing gives back the same DN", arguments: 0..<8)
    func roundTrip(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let types = ["cn", "CN", "ou", "dc", "uid", "sn", "2.5.4.3", "1.3.6.1.4.1.1466.0", "x-Custom-9"]
        for _ in 0..<250 {
            let name = DistinguishedName(rdns: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                RelativeDistinguishedName(attributes: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    AttributeTypeAndValue(type: types.randomElement(using: &random)!, value: random.nextValue())
                })
            })
            let text = name.string
            #expect(!text.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "control characters are escaped")
            let parsed = try DistinguishedName(parsing: text)
            #expect(parsed == name, "\(text)")
            #expect(exactParts(of: parsed) == exactParts(of: name), "\(text)")
            #expect(parsed.string == text)
        }
    }
}

extension SeededRandom {
    /// Characters that need escaping somewhere, multi-byte UTF-8, and plain text.
    private static let pieces: [String] = [
        "a", "Z", "0", " ", "  ", "\"", "+", ",", ";", "<", ">", "\\", "=", "#", "*", "(", ")",
        "\0", "\r", "\n", "\t", "\u{7F}", "é", "č", "日本", "🙂", "e\u{301}", "\\2a", "\\00", "Ada",
    ]

    /// A value for tests: raw bytes from the whole 0x00–0xFF range, text
    /// mixing special and multi-byte characters, often with spaces at the ends.
    mutating func nextValue() -> LDAPValue {
        switch Int.random(in: 0..<4, using: &self) {
        case 0:
            return LDAPValue(bytes: (0..<Int.random(in: 0...12, using: &self)).map { _ in UInt8.random(in: 0...0xFF, using: &self) })
        case 1:
            let text = (0..<Int.random(in: 1...5, using: &self)).map { _ in Self.pieces.randomElement(using: &self)! }.joined()
            return LDAPValue(" " + text + " ")
        default:
            var bytes = Array((0..<Int.random(in: 0...8, using: &self)).map { _ in Self.pieces.randomElement(using: &self)! }.joined().utf8)
            if Bool.random(using: &self), !bytes.isEmpty {
                bytes.insert(UInt8.random(in: 0x80...0xFF, using: &self), at: Int.random(in: 0..<bytes.count, using: &self))
            }
            return LDAPValue(bytes: bytes)
        }
    }
}
