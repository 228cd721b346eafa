import LDAPKit
import Testing

@Suite struct LDAPFilterTests {
    // MARK: RFC 4515 section 4

    static let rfcExamples: [(text: String, filter: LDAPFilter)] = [
        ("(cn=Babs Jensen)", .equal("cn", "Babs Jensen")),
        ("(!(cn=Tim Howes))", .not(.equal("cn", "Tim Howes"))),
        ("(&(objectClass=Person)(|(sn=Jensen)(cn=Babs J*)))",
         .and([.equal("objectClass", "Person"),
               .or([.equal("sn", "Jensen"), .substrings("cn", initial: "Babs J", any: [], final: nil)])])),
        ("(o=univ*of*mich*)", .substrings("o", initial: "univ", any: ["of", "mich"], final: nil)),
        ("(seeAlso=)", .equal("seeAlso", "")),
        ("(cn:caseExactMatch:=Fred Flintstone)",
         .extensibleMatch(attribute: "cn", matchingRule: "caseExactMatch", value: "Fred Flintstone", dnAttributes: false)),
        ("(cn:=Betty Rubble)",
         .extensibleMatch(attribute: "cn", matchingRule: nil, value: "Betty Rubble", dnAttributes: false)),
        ("(sn:dn:2.4.6.8.10:=Barney Rubble)",
         .extensibleMatch(attribute: "sn", matchingRule: "2.4.6.8.10", value: "Barney Rubble", dnAttributes: true)),
        ("(o:dn:=Ace Industry)",
         .extensibleMatch(attribute: "o", matchingRule: nil, value: "Ace Industry", dnAttributes: true)),
        ("(:1.2.3:=Wilma Flintstone)",
         .extensibleMatch(attribute: nil, matchingRule: "1.2.3", value: "Wilma Flintstone", dnAttributes: false)),
        (#"(o=Parens R Us \28for all your parenthetical needs\29)"#,
         .equal("o", "Parens R Us (for all your parenthetical needs)")),
        (#"(filename=C:\5cMyFile)"#, .equal("filename", #"C:\MyFile"#)),
    ]

    @Test("RFC 4515 section 4 examples, both ways", arguments: rfcExamples)
    func rfcExample(text: String, filter: LDAPFilter) throws {
        #expect(try LDAPFilter(parsing: text) == filter)
        #expect(filter.rendered == text)
        #expect(filter.description == text)
        try filter.validate()
    }

    /// Examples whose rendering differs from the text: escapes that need
    /// none, uppercase hex, and an uppercase `:DN:`.
    static let canonicalizedExamples: [(text: String, filter: LDAPFilter, rendering: String)] = [
        ("(:DN:2.4.6.8.10:=Dino)",
         .extensibleMatch(attribute: nil, matchingRule: "2.4.6.8.10", value: "Dino", dnAttributes: true),
         "(:dn:2.4.6.8.10:=Dino)"),
        (#"(cn=*\2A*)"#, .substrings("cn", initial: nil, any: ["*"], final: nil), #"(cn=*\2a*)"#),
        (#"(bin=\00\00\00\04)"#, .equal("bin", LDAPValue(bytes: [0, 0, 0, 4])), "(bin=\\00\\00\\00\u{04})"),
        (#"(sn=Lu\c4\8di\c4\87)"#, .equal("sn", "Lučić"), "(sn=Lučić)"),
        (#"(1.3.6.1.4.1.1466.0=\04\02\48\69)"#,
         .equal("1.3.6.1.4.1.1466.0", LDAPValue(bytes: [0x04, 0x02, 0x48, 0x69])),
         "(1.3.6.1.4.1.1466.0=\u{04}\u{02}Hi)"),
    ]

    @Test("RFC 4515 examples that render in canonical form", arguments: canonicalizedExamples)
    func canonicalizedExample(text: String, filter: LDAPFilter, rendering: String) throws {
        #expect(try LDAPFilter(parsing: text) == filter)
        #expect(filter.rendered == rendering)
        #expect(try LDAPFilter(parsing: rendering) == filter)
    }

    // MARK: Escaping (python-ldap's escape_filter_chars vectors)

    static let escapeVectors: [(value: String, escaped: String)] = [
        ("foobar", "foobar"),
        ("foo*bar", #"foo\2abar"#),
        (#"foo\bar"#, #"foo\5cbar"#),
        ("foo(bar)", #"foo\28bar\29"#),
        ("foo\0bar", #"foo\00bar"#),
        ("*)(uid=*", #"\2a\29\28uid=\2a"#),
        ("", ""),
        ("Lučić 日本 🙂", "Lučić 日本 🙂"),
        ("tab\tand\u{7F}", "tab\tand\u{7F}"),
    ]

    @Test("escape(_:) writes RFC 4515 escapes", arguments: escapeVectors)
    func escaping(value: String, escaped: String) throws {
        #expect(LDAPFilter.escape(value) == escaped)
        #expect(LDAPFilter.escape(LDAPValue(value)) == escaped)
        #expect(try LDAPFilter(parsing: "(cn=\(escaped))") == .equal("cn", LDAPValue(value)))
    }

    @Test func escapingWritesBytesThatAreNotUTF8AsHex() throws {
        let value = LDAPValue(bytes: [0xFF, 0x41, 0xC3, 0xA9, 0xC3, 0xE2, 0x82, 0xF4, 0x90, 0x80, 0x80, 0xC0, 0xAF])
        #expect(LDAPFilter.escape(value) == #"\ffAé\c3\e2\82\f4\90\80\80\c0\af"#)
        #expect(try LDAPFilter(parsing: LDAPFilter.equal("cn", value).rendered) == .equal("cn", value))
    }

    // MARK: Injection

    @Test func injectedFilterTextStaysOneValue() throws {
        let filter = LDAPFilter.equal("cn", "*)(uid=*")
        #expect(filter.rendered == #"(cn=\2a\29\28uid=\2a)"#)
        #expect(try LDAPFilter(parsing: filter.rendered) == filter)
        let search = LDAPFilter.equal("objectClass", "person") && .prefix("cn", "x*)(|(objectClass=*")
        #expect(search.rendered == #"(&(objectClass=person)(cn=x\2a\29\28|\28objectClass=\2a*))"#)
        #expect(try LDAPFilter(parsing: search.rendered) == search)
    }

    @Test func trailingBackslashAndNULValues() throws {
        let backslash = LDAPFilter.equal("cn", "abc\\")
        #expect(backslash.rendered == #"(cn=abc\5c)"#)
        #expect(try LDAPFilter(parsing: backslash.rendered) == backslash)
        let nul = LDAPFilter.equal("cn", "\0")
        #expect(nul.rendered == #"(cn=\00)"#)
        #expect(try LDAPFilter(parsing: nul.rendered) == nul)
        let pieces = LDAPFilter.substrings("cn", initial: "\\", any: ["\0"], final: "\\\0")
        #expect(pieces.rendered == #"(cn=\5c*\00*\5c\00)"#)
        #expect(try LDAPFilter(parsing: pieces.rendered) == pieces)
    }

    // MARK: Rendering

    @Test func renderingOfEachKind() {
        #expect(LDAPFilter.and([]).rendered == "(&)")
        #expect(LDAPFilter.or([]).rendered == "(|)")
        #expect(LDAPFilter.present("mail").rendered == "(mail=*)")
        #expect(LDAPFilter.greaterOrEqual("uidNumber", "1000").rendered == "(uidNumber>=1000)")
        #expect(LDAPFilter.lessOrEqual("uidNumber", "2000").rendered == "(uidNumber<=2000)")
        #expect(LDAPFilter.approximate("sn", "Jensen").rendered == "(sn~=Jensen)")
        #expect(LDAPFilter.substrings("cn", initial: "ab", any: ["c"], final: "d").rendered == "(cn=ab*c*d)")
        #expect(LDAPFilter.substrings("cn", initial: nil, any: ["x"], final: nil).rendered == "(cn=*x*)")
        #expect(LDAPFilter.substrings("cn", initial: nil, any: [], final: "x").rendered == "(cn=*x)")
        #expect(LDAPFilter.extensibleMatch(attribute: "cn", matchingRule: "caseExactMatch", value: "Fred", dnAttributes: false)
            .rendered == "(cn:caseExactMatch:=Fred)")
        #expect(LDAPFilter.extensibleMatch(attribute: nil, matchingRule: "2.4.6.8.10", value: "Dino", dnAttributes: true)
            .rendered == "(:dn:2.4.6.8.10:=Dino)")
        #expect(LDAPFilter.extensibleMatch(attribute: "o", matchingRule: nil, value: "Ace", dnAttributes: true)
            .rendered == "(o:dn:=Ace)")
    }

    // MARK: Builders

    @Test func substringBuilders() {
        #expect(LDAPFilter.prefix("cn", "Ada") == .substrings("cn", initial: "Ada", any: [], final: nil))
        #expect(LDAPFilter.contains("cn", "Ada") == .substrings("cn", initial: nil, any: ["Ada"], final: nil))
        #expect(LDAPFilter.suffix("cn", "Ada") == .substrings("cn", initial: nil, any: [], final: "Ada"))
        #expect(LDAPFilter.prefix("cn", "A*").rendered == #"(cn=A\2a*)"#)
        #expect(LDAPFilter.contains("cn", "(x)").rendered == #"(cn=*\28x\29*)"#)
        #expect(LDAPFilter.suffix("mail", "@example.com").rendered == "(mail=*@example.com)")
        #expect(LDAPFilter.prefix("cn", "") == .present("cn"))
        #expect(LDAPFilter.contains("cn", "") == .present("cn"))
        #expect(LDAPFilter.suffix("cn", "") == .present("cn"))
    }

    @Test func combiningBuilders() {
        let person = LDAPFilter.equal("objectClass", "person")
        let ada = LDAPFilter.prefix("cn", "Ada")
        let mail = LDAPFilter.present("mail")
        #expect(LDAPFilter.all(person, ada) == .and([person, ada]))
        #expect(LDAPFilter.any(person, ada, mail) == .or([person, ada, mail]))
        #expect(LDAPFilter.all() == .and([]))
        #expect((person && ada) == .and([person, ada]))
        #expect((person && ada && mail) == .and([person, ada, mail]))
        #expect(((person && ada) && (mail && person)) == .and([person, ada, mail, person]))
        #expect((person || ada || mail) == .or([person, ada, mail]))
        #expect(!person == .not(person))
        #expect(!(!person) == .not(.not(person)))
        let mixed = person && (ada || mail)
        #expect(mixed == .and([person, .or([ada, mail])]))
        #expect(mixed.rendered == "(&(objectClass=person)(|(cn=Ada*)(mail=*)))")
        let nested = (person && ada) || mail
        #expect(nested.rendered == "(|(&(objectClass=person)(cn=Ada*))(mail=*))")
        #expect(((person || ada) && !mail) == .and([.or([person, ada]), .not(mail)]))
    }

    // MARK: Parsing

    static let accepted: [(text: String, filter: LDAPFilter)] = [
        ("cn=foo", .equal("cn", "foo")),
        ("cn=foo*", .substrings("cn", initial: "foo", any: [], final: nil)),
        ("&(a=b)(c=d)", .and([.equal("a", "b"), .equal("c", "d")])),
        ("!(a=b)", .not(.equal("a", "b"))),
        ("(&)", .and([])),
        ("(|)", .or([])),
        ("(!(&))", .not(.and([]))),
        ("(cn=*)", .present("cn")),
        ("(cn=*a*)", .substrings("cn", initial: nil, any: ["a"], final: nil)),
        ("(cn=*a)", .substrings("cn", initial: nil, any: [], final: "a")),
        ("(cn=a*b*c*d)", .substrings("cn", initial: "a", any: ["b", "c"], final: "d")),
        (#"(cn=\2a)"#, .equal("cn", "*")),
        (#"(cn=\2A\5C)"#, .equal("cn", #"*\"#)),
        ("(cn>=5)", .greaterOrEqual("cn", "5")),
        ("(cn<=5)", .lessOrEqual("cn", "5")),
        ("(cn~=Jensn)", .approximate("cn", "Jensn")),
        ("(cn;lang-de=Ada)", .equal("cn;lang-de", "Ada")),
        ("(userCertificate;binary=*)", .present("userCertificate;binary")),
        ("(2.5.4.3=Ada)", .equal("2.5.4.3", "Ada")),
        ("(cn= a b )", .equal("cn", " a b ")),
        ("(cn=a=b)", .equal("cn", "a=b")),
        ("(cn=日本)", .equal("cn", "日本")),
        ("(cn:dn:=)", .extensibleMatch(attribute: "cn", matchingRule: nil, value: "", dnAttributes: true)),
        ("(cn:Dn:1.2:=x)", .extensibleMatch(attribute: "cn", matchingRule: "1.2", value: "x", dnAttributes: true)),
        ("(:dn:caseIgnoreMatch:=x)",
         .extensibleMatch(attribute: nil, matchingRule: "caseIgnoreMatch", value: "x", dnAttributes: true)),
        ("(dn:=x)", .extensibleMatch(attribute: "dn", matchingRule: nil, value: "x", dnAttributes: false)),
        ("(|(&(a=1)(b=2))(!(c=3)))", .or([.and([.equal("a", "1"), .equal("b", "2")]), .not(.equal("c", "3"))])),
    ]

    @Test("Accepted forms", arguments: accepted)
    func acceptedForm(text: String, filter: LDAPFilter) throws {
        let parsed = try LDAPFilter(parsing: text)
        #expect(parsed == filter)
        try parsed.validate()
        #expect(try LDAPFilter(parsing: parsed.rendered) == parsed)
    }

    static let malformed: [String] = [
        "",                         // empty
        "(",                        // nothing inside
        "()",                       // no item
        "(cn=a",                    // missing ')'
        "cn=a)",                    // stray ')'
        "(cn=a))",                  // stray ')'
        "(cn=a) ",                  // trailing space
        " (cn=a)",                  // leading space
        "(cn=a)(sn=b)",             // two filters without an operator
        "(cn=a(b)",                 // unescaped '('
        #"(cn=\zz)"#,               // invalid escape
        #"(cn=a\)"#,                // escape of ')' is not hex
        #"(cn=a\2)"#,               // half an escape
        #"(cn=a\"#,                 // trailing backslash
        "(cn>=a*)",                 // wildcard in >=
        "(cn~=*)",                  // wildcard in ~=
        "(cn:=a*)",                 // wildcard in an extensible match
        "(=a)",                     // no attribute
        "(1cn=a)",                  // digit but not an OID
        "(1.2.=a)",                 // bad OID
        "(cn;=a)",                  // empty option
        "(-cn=a)",                  // leading hyphen
        "(c n=a)",                  // space in the attribute
        "(cn)",                     // no filter type
        "(cn<a)",                   // '<' without '='
        "(cn!=a)",                  // no such filter type
        "(!cn=a)",                  // '!' needs parentheses
        "(&(cn=a)x)",               // junk in a list
        "(&cn=a)",                  // list items need parentheses
        "(:=a)",                    // extensible with neither attribute nor rule
        "(:dn:=a)",                 // extensible with neither attribute nor rule
        "(cn:dn)",                  // no ':='
        "(cn:1.2.:=a)",             // bad matching rule
        "(cn:dn:dn:=a)",            // 'dn' twice
        "(cn:1.2:1.3:=a)",          // two matching rules
        "(cn:1.2:dn:=a)",           // 'dn' after the rule
        "(cn::=a)",                 // empty matching rule
        "(cn=a\0)",                 // raw NUL
        "(cn=**)",                  // empty substring
        "(cn=a**b)",                // empty substring
        "(cn=*a**)",                // empty substring
        "((cn=a))",                 // doubled parentheses
        "(é=a)",                    // non-ASCII attribute
    ]

    @Test("Malformed filters are rejected", arguments: malformed)
    func malformedFilter(text: String) {
        let error = #expect(throws: LDAPError.self) { try LDAPFilter(parsing: text) }
        #expect(error?.code == .filterError)
        #expect(error?.message.contains("at offset") == true)
    }

    @Test func errorsGiveTheCharacterOffset() {
        let escape = #expect(throws: LDAPError.self) { try LDAPFilter(parsing: #"(cn=a\zz)"#) }
        #expect(escape?.message.hasSuffix("at offset 5") == true)
        let trailing = #expect(throws: LDAPError.self) { try LDAPFilter(parsing: "(cn=日本)x") }
        #expect(trailing?.message.contains("'x'") == true)
        #expect(trailing?.message.hasSuffix("at offset 7") == true)
        let unclosed = #expect(throws: LDAPError.self) { try LDAPFilter(parsing: "(&(cn=a)") }
        #expect(unclosed?.message.contains("')'") == true)
        #expect(unclosed?.message.hasSuffix("at offset 8") == true)
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "(!", count: 255) + "(cn=a)" + String(repeating: ")", count: 255)
        #expect(throws: Never.self) { try LDAPFilter(parsing: deep) }
        let tooDeep = String(repeating: "(!", count: 300) + "(cn=a)" + String(repeating: ")", count: 300)
        let error = #expect(throws: LDAPError.self) { try LDAPFilter(parsing: tooDeep) }
        #expect(error?.code == .filterError)
        #expect(error?.message.contains("nested") == true)
    }

    // MARK: Validation

    static let valid: [LDAPFilter] = [
        .equal("cn", "x"),
        .present("cn;lang-de;x-1"),
        .equal("2.5.4.3", "*"),
        .and([]),
        .or([.not(.approximate("sn", "x")), .greaterOrEqual("a-b", ""), .lessOrEqual("A9", "z")]),
        .extensibleMatch(attribute: nil, matchingRule: "caseExactMatch", value: "", dnAttributes: false),
        .extensibleMatch(attribute: "cn", matchingRule: nil, value: "", dnAttributes: true),
        .substrings("cn", initial: "a", any: [], final: nil),
    ]

    @Test("Valid filters pass validation", arguments: valid)
    func validFilter(filter: LDAPFilter) throws {
        try filter.validate()
    }

    static let invalid: [LDAPFilter] = [
        .equal("", "x"),
        .equal("c n", "x"),
        .equal("cn)(uid=*", "x"),
        .present("1cn"),
        .present("2"),
        .present("01.2"),
        .present("cn;"),
        .present("cn;a b"),
        .approximate("-cn", "x"),
        .and([.equal("cn", "x"), .not(.lessOrEqual("é", "x"))]),
        .substrings("cn", initial: nil, any: [], final: nil),
        .substrings("cn", initial: "", any: [], final: nil),
        .substrings("cn", initial: "a", any: [""], final: nil),
        .substrings("cn", initial: nil, any: [], final: ""),
        .extensibleMatch(attribute: nil, matchingRule: nil, value: "x", dnAttributes: true),
        .extensibleMatch(attribute: "cn", matchingRule: "dn", value: "x", dnAttributes: false),
        .extensibleMatch(attribute: "cn", matchingRule: "1.2.", value: "x", dnAttributes: false),
        .extensibleMatch(attribute: "cn;", matchingRule: nil, value: "x", dnAttributes: false),
    ]

    @Test("Invalid filters fail validation", arguments: invalid)
    func invalidFilter(filter: LDAPFilter) {
        let error = #expect(throws: LDAPError.self) { try filter.validate() }
        #expect(error?.code == .filterError)
    }

    // MARK: Round trip

    @Test("Rendering then parsing gives back the same filter", arguments: 0..<8)
    func roundTrip(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<250 {
            let filter = random.nextFilter(depth: 3)
            try filter.validate()
            let text = filter.rendered
            #expect(try LDAPFilter(parsing: text) == filter, "\(text)")
        }
    }
}

extension SeededRandom {
    private static let attributes = ["cn", "sn", "objectClass", "cn;lang-de", "2.5.4.3", "x-a;binary", "dn"]
    private static let matchingRules = ["caseExactMatch", "2.4.6.8.10", "1.2.3", "x-rule-1"]

    /// A value that is never empty, for substring pieces.
    mutating func nextPiece() -> LDAPValue {
        let value = nextValue()
        return value.isEmpty ? "*" : value
    }

    /// A random filter nested at most `depth` levels, with hostile values.
    mutating func nextFilter(depth: Int) -> LDAPFilter {
        let attribute = Self.attributes.randomElement(using: &self)!
        switch Int.random(in: depth > 0 ? 0...10 : 3...10, using: &self) {
        case 0:
            return .and((0..<Int.random(in: 0...3, using: &self)).map { _ in nextFilter(depth: depth - 1) })
        case 1:
            return .or((0..<Int.random(in: 0...3, using: &self)).map { _ in nextFilter(depth: depth - 1) })
        case 2:
            return .not(nextFilter(depth: depth - 1))
        case 3:
            return .equal(attribute, nextValue())
        case 4:
            let pieces = Int.random(in: 1...3, using: &self)
            let initial = Bool.random(using: &self) ? nextPiece() : nil
            let final = Bool.random(using: &self) ? nextPiece() : nil
            let any = (0..<(initial == nil && final == nil ? pieces : pieces - 1)).map { _ in nextPiece() }
            return .substrings(attribute, initial: initial, any: any, final: final)
        case 5:
            return .greaterOrEqual(attribute, nextValue())
        case 6:
            return .lessOrEqual(attribute, nextValue())
        case 7:
            return .present(attribute)
        case 8:
            return .approximate(attribute, nextValue())
        default:
            let matchingRule = Bool.random(using: &self) ? Self.matchingRules.randomElement(using: &self)! : nil
            let hasAttribute = matchingRule == nil || Bool.random(using: &self)
            return .extensibleMatch(attribute: hasAttribute ? attribute : nil, matchingRule: matchingRule,
                                    value: nextValue(), dnAttributes: Bool.random(using: &self))
        }
    }
}
