import Foundation
@testable import LDAPBook
import LDAPKit
import Testing

@Suite("Reading names and scoring matches")
struct RankingTests {
    @Test("names split into tokens; Last, First is understood")
    func queries() throws {
        #expect(try NameQuery("  Ada   Lovelace ").tokens == ["Ada", "Lovelace"])
        let reversed = try NameQuery("Lovelace, Ada")
        #expect(reversed.tokens == ["Ada", "Lovelace"])
        #expect(reversed.isSurnameFirst)
        #expect(reversed.guessedNames.given == "Ada" && reversed.guessedNames.surname == "Lovelace")
        #expect(try NameQuery("van der Berg, Jan Piet").guessedNames.surname == "Berg", "the last token is the surname")
        #expect(try NameQuery("Cher").guessedNames.given == nil)
        #expect(try NameQuery("ada,").tokens == ["ada"])
        for bad in ["", "   ", "\t", "a\u{0}b", "a\u{1B}[2Jb", String(repeating: "x", count: 300)] {
            #expect(throws: AddressBookError.self) { try NameQuery(bad) }
        }
    }

    @Test("every token is escaped in the name filter")
    func filterEscapes() throws {
        let query = try NameQuery("*)(uid=* O'Brien \\")
        #expect(query.filter.rendered
            == "(|(givenName=\\2a\\29\\28uid=\\2a*)(sn=\\2a\\29\\28uid=\\2a*)(givenName=O'Brien*)(sn=O'Brien*)(givenName=\\5c*)(sn=\\5c*))")
    }

    private func score(_ query: String, given: [String], surname: [String]) throws -> NameScore {
        NameScore(tokens: try NameQuery(query).tokens, givenNames: given, surnames: surname)
    }

    @Test("both names beat one; exact beats prefix")
    func scores() throws {
        let both = try score("ada lovelace", given: ["Ada"], surname: ["Lovelace"])
        #expect(both.match == .both && both.exactMatches == 2)
        let bothPrefix = try score("ad lov", given: ["Ada"], surname: ["Lovelace"])
        #expect(bothPrefix.match == .both && bothPrefix.exactMatches == 0)
        let given = try score("ada turing", given: ["Ada"], surname: ["Byron"])
        #expect(given.match == .given)
        let surname = try score("lovelace", given: ["Augusta"], surname: ["Lovelace"])
        #expect(surname.match == .surname && surname.exactMatches == 1)
        let single = try score("ada", given: ["Ada"], surname: ["Adams"])
        #expect(single.match == .both, "one token matching both names")
        #expect(try score("zed", given: ["Ada"], surname: ["Lovelace"]).match == .none)
        #expect(both < bothPrefix)
        #expect(bothPrefix < given)
        let givenPrefix = try score("ad", given: ["Ada"], surname: ["Byron"])
        #expect(surname < givenPrefix, "an exact last name beats a prefix first name")
        #expect(!(surname < given) && !(given < surname), "one exact name is one exact name, first or last")
        let sameToken = try score("ada ada", given: ["Ada"], surname: ["Adams"])
        #expect(sameToken.match == .both)
    }

    @Test("every value of a multi-valued name counts")
    func multiValuedNames() throws {
        let result = try score("gus king", given: ["Ada", "Augusta", "Gussie"], surname: ["Lovelace", "King"])
        #expect(result.match == .both)
        #expect(result.exactMatches == 1)
    }

    @Test("Unicode names match case-insensitively, with compatibility forms folded")
    func unicode() throws {
        #expect(try score("zoë", given: ["Zoë"], surname: ["X"]).exactMatches == 1)
        #expect(try score("ZOË", given: ["Zoe\u{308}"], surname: ["X"]).exactMatches == 1, "composed and decomposed")
        #expect(try score("ør", given: ["X"], surname: ["Ørsted"]).match == .surname)
        #expect(try score("o'brien", given: ["X"], surname: ["O'Brien"]).exactMatches == 1)
        #expect(try score("ﬁona", given: ["Fiona"], surname: ["X"]).exactMatches == 1, "ligature folds")
        #expect(try score("山田", given: ["太郎"], surname: ["山田"]).exactMatches == 1)
    }

    @Test("ASCII names fold as Unicode's compatibility decomposition would, without it")
    func asciiFolding() {
        func reference(_ text: String) -> String {
            text.decomposedStringWithCompatibilityMapping.lowercased()
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let samples = ["Ada", "LOVELACE", "  van  der\tBerg ", "O'Brien-Smith", "", " ", "a\u{0B}b\u{0C}c\r\nd",
                       "Mc Donald 3rd", "x\u{1F}y", "Zoë", "ﬁona", "Ørsted  Åsa"]
        for sample in samples {
            #expect(NameScore.fold(sample) == reference(sample), "\(sample.debugDescription)")
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let text = String(decoding: (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...0x7F, using: &random) },
                              as: UTF8.self)
            #expect(NameScore.fold(text) == reference(text), "\(text.debugDescription)")
        }
    }

    @Test("ASCII names are scored as they are read exactly as their folds would be")
    func asciiStrength() {
        var random = SeededRandomNumberGenerator(seed: 7)
        let alphabet = Array("aAbB jJoO\t'-".utf8)
        func text(_ lengths: ClosedRange<Int>) -> [UInt8] {
            (0..<Int.random(in: lengths, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        }
        for _ in 0..<5_000 {
            let token = NameScore.fold(bytes: text(1...3))
            guard !token.isEmpty else { continue }
            let name = text(0...6)
            let folded = NameScore.fold(bytes: name)
            let expected = folded == token ? 2 : folded.starts(with: token) ? 1 : 0
            let strength = token.withUnsafeBufferPointer { token in
                name.withUnsafeBufferPointer { NameScore.asciiStrength(of: token, in: $0) }
            }
            #expect(strength == expected, "\(String(decoding: token, as: UTF8.self).debugDescription) in \(String(decoding: name, as: UTF8.self).debugDescription)")
            let early = token.withUnsafeBufferPointer { token in
                name.withUnsafeBufferPointer { NameScore.strength(of: token, inASCII: $0) }
            }
            #expect(early == expected, "stopping early: \(String(decoding: token, as: UTF8.self).debugDescription) in \(String(decoding: name, as: UTF8.self).debugDescription)")
        }
        let token: [UInt8] = Array("zo".utf8)
        let name: [UInt8] = Array("Zoë".utf8)
        #expect(token.withUnsafeBufferPointer { token in name.withUnsafeBufferPointer { NameScore.asciiStrength(of: token, in: $0) } } == nil)
    }

    /// People with zero to two given names and surnames each, alike in many ways, half with mail.
    static func randomEntries(_ count: Int) throws -> [LDAPEntry] {
        var random = SeededRandomNumberGenerator(seed: 11)
        let givenPool = ["Jo", "jo", "John", "JOHANNA", "Jörg", "Joe  ", " jo hn", "Jo\u{308}rg", "Anna", "ﬁona", "Jo", "Ada", "Ōta", "jo"]
        let surnamePool = ["Jones", "jones", "Jo", "Johansson", "Müller", "Mueller", "Joyce", "Smith", "Ó Briain", "Jo", "山田"]
        var entries: [LDAPEntry] = []
        for index in 0..<count {
            var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=p\(Int.random(in: 0..<600, using: &random))-\(index),dc=example"))
            let givenCount = Int.random(in: 0...2, using: &random)
            let surnameCount = Int.random(in: 0...2, using: &random)
            entry["givenName"] = (0..<givenCount).map { _ in LDAPValue(givenPool.randomElement(using: &random)!) }
            entry["sn"] = (0..<surnameCount).map { _ in LDAPValue(surnamePool.randomElement(using: &random)!) }
            if Bool.random(using: &random) { entry["mail"] = [LDAPValue("p\(index)@example.com")] }
            if Bool.random(using: &random) { entry["ldapbookCustomField"] = [LDAPValue("pager=\(index)")] }
            entries.append(entry)
        }
        return entries
    }

    @Test("entries ranked as they arrive, a batch at a time, rank as they do all at once", arguments: ["email", "pager", nil])
    func streamMatchesAllAtOnce(fieldName: String?) throws {
        let entries = try Self.randomEntries(NameTierStream.batchSize * 2 + 300)
        // "pager" is a custom field here, kept in ldapbookCustomField, to be found among the values.
        let field = try fieldName.map { name in
            name == "pager"
                ? Field(name: name, attribute: "ldapbookCustomField", kind: .text, isSingleValued: false, origin: .custom, customKey: name)
                : try FieldRegistry(schema: nil).field(named: name)
        }
        for query in ["jo", "jo jones", "JÖRG müller"] {
            let name = try NameQuery(query)
            var stream = NameTierStream(field: field, name: name)
            for entry in entries { stream.append(entry) }
            let streamed = stream.finish()
            let atOnce = Ranking.nameTiers(of: entries, field: field, name: name)
            func summary(_ candidates: [Candidate]) -> [String] {
                candidates.map { "\($0.person.dn.string) \($0.score) \(String(describing: $0.tier)) \($0.values)" }
            }
            #expect(summary(streamed.fieldAndName) == summary(atOnce.fieldAndName), "\(query)")
            #expect(summary(streamed.nameOnly) == summary(atOnce.nameOnly), "\(query)")
            if field != nil { #expect(!streamed.fieldAndName.isEmpty && !streamed.nameOnly.isEmpty) }
        }
    }

    @Test("ranking many entries at once gives the order of comparing candidates one pair at a time, in one part or several",
          arguments: zip([1, 2, 3], [nil, 1, 500] as [Int?]))
    func nameTiersMatchPairwiseOrder(parts: Int, minimumConcurrentSort: Int?) throws {
        let entries = try Self.randomEntries(2_000)
        let email = try FieldRegistry(schema: nil).field(named: "email")
        for query in ["jo", "jo jones", "JÖRG müller", "fi", "山", "a b c"] {
            let name = try NameQuery(query)
            let tiers = Ranking.nameTiers(of: entries, field: email, name: name, parts: parts,
                                          minimumConcurrentSort: minimumConcurrentSort)

            // The reference: every candidate made alone, then sorted by comparing pairs,
            // with the tie-break written out from its definition.
            func lowered(_ values: [LDAPValue]) -> [UInt8] {
                values.map { Array($0.lossyString.lowercased().utf8) }.min { $0.lexicographicallyPrecedes($1) } ?? []
            }
            func reference(_ entries: [LDAPEntry], tier: Tier) -> [(String, NameScore)] {
                entries.map { entry -> (String, NameScore, [UInt8]) in
                    let person = Person(entry: entry)
                    let score = NameScore(tokens: name.tokens, givenNames: person.givenNames, surnames: person.surnames)
                    let key = lowered(entry["sn"]) + [0] + lowered(entry["givenName"]) + [0] + Array(entry.dn.string.utf8)
                    return (entry.dn.string, score, key)
                }
                .sorted { $0.1 < $1.1 || (!($1.1 < $0.1) && $0.2.lexicographicallyPrecedes($1.2)) }
                .map { ($0.0, $0.1) }
            }
            let withMail = entries.filter { !$0["mail"].isEmpty }
            let withoutMail = entries.filter { $0["mail"].isEmpty }
            let expectedFirst = reference(withMail, tier: .fieldAndName)
            let expectedSecond = reference(withoutMail, tier: .nameOnly)
            func firstDifference(_ ranked: [Candidate], _ expected: [(String, NameScore)]) -> String? {
                guard ranked.count == expected.count else { return "\(ranked.count) ranked, \(expected.count) expected" }
                guard let index = ranked.indices.first(where: {
                    ranked[$0].person.dn.string != expected[$0].0 || ranked[$0].score != expected[$0].1
                }) else { return nil }
                let person = ranked[index].person
                return "at \(index): \(person.dn.string) \(person.givenNames) \(person.surnames) \(ranked[index].score), expected \(expected[index])"
            }
            #expect(firstDifference(tiers.fieldAndName, expectedFirst) == nil, "\(query)")
            #expect(firstDifference(tiers.nameOnly, expectedSecond) == nil, "\(query)")
            #expect(tiers.fieldAndName.allSatisfy { $0.tier == .fieldAndName && $0.values == $0.person.entry["mail"] })
            #expect(tiers.nameOnly.allSatisfy { $0.tier == .nameOnly && $0.values.isEmpty })
            #expect(firstDifference(tiers.nameOnly.sorted(by: Candidate.ranksBefore), expectedSecond) == nil,
                    "candidates sorted one pair at a time agree")
        }
    }

    @Test("names are found among attributes, inline, as LDAP compares descriptions")
    func namePositions() {
        var random = SeededRandomNumberGenerator(seed: 17)
        let names = ["sn", "SN", "Sn", "cn", "givenName", "GIVENNAME", "givenname", "jpegPhoto", "givenNam", "givenName;x",
                     "sN", "s", "mail", "MAIL", "maiL", "giveNname", "gIvEnNaMe", "objectClass", "s\u{0}", "sn ", "én", "ÉN", "givenName;X"]
        for _ in 0..<5_000 {
            let attributes = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                LDAPAttribute(name: names.randomElement(using: &random)!,
                              values: Int.random(in: 0..<8, using: &random) == 0 ? [] : [LDAPValue("x")])
            }
            let expected = attributes.withUnsafeBufferPointer(TierRanker.namePositions)
            let named = attributes.withUnsafeBufferPointer(TierRanker.namedPositions)
            let surnames = attributes.indices.filter { attributes[$0].isNamed("sn") }
            let givenNames = attributes.indices.filter { attributes[$0].isNamed("givenName") }
            #expect(named.surname == (surnames.first ?? -1) && named.given == (givenNames.first ?? -1), "\(attributes.map(\.name))")
            #expect(expected.surname == (surnames.first { !attributes[$0].values.isEmpty } ?? -1))
            #expect(expected.given == (givenNames.first { !attributes[$0].values.isEmpty } ?? -1))
            for wanted in ["mail", "sn", "givenname", "jpegphoto", "givenname;x", "s\u{0}", "én", "objectclass"] {
                let position = Array(wanted.utf8).withUnsafeBufferPointer { name in
                    attributes.withUnsafeBufferPointer { TierRanker.position(of: name, in: $0) }
                }
                #expect(position == (attributes.firstIndex { $0.isNamed(wanted) } ?? -1), "\(wanted) in \(attributes.map(\.name))")
            }
        }
        // Ranking many entries, which finds names inline and looks again past names
        // without values, keys each as a candidate made alone does.
        var entries: [LDAPEntry] = []
        for index in 0..<300 {
            let attributes = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                LDAPAttribute(name: ["sn", "SN", "givenName", "givenname", "cn"].randomElement(using: &random)!,
                              values: Int.random(in: 0..<3, using: &random) == 0 ? [] : [LDAPValue(["Jo", "Ann", "jo", "Ö"].randomElement(using: &random)!)])
            }
            entries.append(LDAPEntry(dn: DistinguishedName(rdns: [RelativeDistinguishedName(type: "uid", value: LDAPValue("p\(index)"))]),
                                     attributes: attributes))
        }
        let ranked = Ranking.nameTiers(of: entries, field: nil, name: try! NameQuery("jo")).nameOnly
        let alone = ranked.map { Candidate(person: $0.person, tier: nil, score: $0.score, values: []) }
        #expect(alone.sorted(by: Candidate.ranksBefore).map(\.person.dn.string) == ranked.map(\.person.dn.string))
    }

    @Test("people named alike are ordered by their DNs' bytes, whatever their first RDNs")
    func tiesBrokenByDN() throws {
        var random = SeededRandomNumberGenerator(seed: 29)
        // First RDNs equal, one beginning another, differing after an escape or in a
        // second value; parents differing or not.
        let firsts = ["uid=jo", "uid=jo1", "uid=jo10", "uid=jo\\,x", "uid=jo+cn=a", "uid=jo+cn=b", "cn=jo", "uid=j", "uid=jo\\2c"]
        let parents = ["", ",dc=example", ",dc=example,dc=com", ",ou=a,dc=example", ",dc=ex"]
        var entries: [LDAPEntry] = []
        for _ in 0..<400 {
            let text = firsts.randomElement(using: &random)! + parents.randomElement(using: &random)!
            var entry = LDAPEntry(dn: try DistinguishedName(parsing: text))
            entry["givenName"] = [LDAPValue(["Jo", "JO"].randomElement(using: &random)!)]
            entry["sn"] = [LDAPValue(["Smith", "smith", "Smithson"].randomElement(using: &random)!)]
            entries.append(entry)
        }
        let tiers = Ranking.nameTiers(of: entries, field: nil, name: try NameQuery("jo"))
        let expected = entries.indices.sorted { lhs, rhs in
            let left = Array(entries[lhs]["sn"][0].lossyString.lowercased().utf8) + [0]
                + Array(entries[lhs]["givenName"][0].lossyString.lowercased().utf8) + [0] + Array(entries[lhs].dn.string.utf8)
            let right = Array(entries[rhs]["sn"][0].lossyString.lowercased().utf8) + [0]
                + Array(entries[rhs]["givenName"][0].lossyString.lowercased().utf8) + [0] + Array(entries[rhs].dn.string.utf8)
            return left.lexicographicallyPrecedes(right) || (left == right && lhs < rhs)
        }
        #expect(tiers.nameOnly.map(\.person.dn.string) == expected.map { entries[$0].dn.string })
        #expect(tiers.nameOnly.map(\.person.dn.string) == tiers.nameOnly.sorted(by: Candidate.ranksBefore).map(\.person.dn.string))
    }

    @Test("names of two-byte scalars put together from each scalar's forms are folded and lower-cased as Unicode would")
    func scalarForms() {
        let forms = ScalarForms()
        var usable: [Unicode.Scalar] = []
        for value in ScalarForms.range {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            guard let alone = bytes.withUnsafeBufferPointer({ forms.forms(of: $0) }) else { continue }
            usable.append(scalar)
            let expected = NameCache.formsThroughUnicode(bytes)
            #expect(alone.folded == expected.folded && alone.lowered == expected.lowered, "U+\(String(value, radix: 16))")
        }
        #expect(usable.count > 1_500, "most two-byte scalars are folded alone")
        for contextual: UInt32 in [0x03A3, 0x00A0, 0x0085, 0x0301, 0x00A8] {
            let bytes = Array(String(Character(Unicode.Scalar(contextual)!)).utf8)
            #expect(bytes.withUnsafeBufferPointer({ forms.forms(of: $0) }) == nil, "U+\(String(contextual, radix: 16)) is left to Unicode")
        }

        var random = SeededRandomNumberGenerator(seed: 3)
        let ascii = Array("aZ -'\t.".unicodeScalars)
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                text.append(Bool.random(using: &random) ? usable.randomElement(using: &random)! : ascii.randomElement(using: &random)!)
            }
            let bytes = Array(String(text).utf8)
            let expected = NameCache.formsThroughUnicode(bytes)
            let put = bytes.withUnsafeBufferPointer { forms.forms(of: $0) }
            #expect(put?.folded == expected.folded && put?.lowered == expected.lowered, "\(String(text).debugDescription)")
        }
        // Appending to buffers that already hold bytes gives the same forms after them, and
        // leaves them as they were for names left to Unicode.
        var cache = NameCache()
        let others: [Unicode.Scalar] = ["\u{03A3}", "\u{00A0}", "\u{0301}", "山", "€", "\u{1F600}", "ﬁ"]
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: text.append(others.randomElement(using: &random)!)
                case 1, 2: text.append(ascii.randomElement(using: &random)!)
                default: text.append(usable.randomElement(using: &random)!)
                }
            }
            var bytes = Array(String(text).utf8)
            if Int.random(in: 0..<20, using: &random) == 0 { bytes.insert(0xC3, at: Int.random(in: 0...bytes.count, using: &random)) }
            let expected = NameCache.formsThroughUnicode(bytes)
            let before: [UInt8] = Array("x y".utf8)
            var folded = before, lowered = before
            bytes.withUnsafeBufferPointer { cache.append($0, folded: &folded, lowered: &lowered) }
            #expect(folded == before + expected.folded && lowered == before + expected.lowered, "\(bytes)")
            var scalarFolded = before, scalarLowered = before
            if bytes.withUnsafeBufferPointer({ forms.append($0, folded: &scalarFolded, lowered: &scalarLowered) }) {
                #expect(scalarFolded == before + expected.folded && scalarLowered == before + expected.lowered, "\(bytes)")
            } else {
                #expect(scalarFolded == before && scalarLowered == before, "\(bytes)")
            }
        }
        let invalid: [[UInt8]] = [[0xC3], [0xC3, 0x41], [0xC0, 0x80], [0xE2, 0x82, 0xAC], [0x80]]
        for bytes in invalid {
            #expect(bytes.withUnsafeBufferPointer({ forms.forms(of: $0) }) == nil)
        }
    }

    @Test("the comparison sort and the radix sort put items in the same order, ties in input order",
          arguments: [2, 500, TierRanker.radixSortThreshold + 1])
    func integerSortsAgree(count: Int) {
        var random = SeededRandomNumberGenerator(seed: UInt64(count))
        // Few distinct integers, so that most items tie with others.
        let items = (0..<count).map { index in
            TierRanker.Item(head: UInt64.random(in: 0..<4, using: &random) << 56 | UInt64.random(in: 0..<3, using: &random),
                            tail: UInt64.random(in: 0..<3, using: &random) << 48, keyStart: 0, keyEnd: 0,
                            entry: UInt32(index), match: .both, exactMatches: 0)
        }
        func order(_ items: [TierRanker.Item]) -> [UInt32] { items.map(\.entry) }
        let expected = order(items.enumerated().sorted { lhs, rhs in
            (lhs.element.head, lhs.element.tail, lhs.offset) < (rhs.element.head, rhs.element.tail, rhs.offset)
        }.map(\.element))
        #expect(order(TierRanker.comparisonSorted(items)) == expected)
        #expect(order(TierRanker.radixSorted(items)) == expected)
        #expect(order(TierRanker.sortedOnIntegers(items)) == expected)
    }
}

