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
}
