import Foundation
@testable import LDAPBook
import LDAPKit
import Testing

/// A person with the given names, for scoring without a directory.
private func person(given: [String] = [], surname: [String], cn: [String] = [], display: [String] = [],
                    nickname: [String] = [], mail: [String] = []) -> Person {
    var entry = LDAPEntry(dn: try! DistinguishedName(parsing: "uid=\(UUID().uuidString.prefix(8)),dc=example,dc=com"))
    entry["givenName"] = given.map { LDAPValue($0) }
    entry["sn"] = surname.map { LDAPValue($0) }
    entry["cn"] = (cn.isEmpty ? [(given + surname).joined(separator: " ")] : cn).map { LDAPValue($0) }
    entry["displayName"] = display.map { LDAPValue($0) }
    entry[LDAPBookSchemaName.nickname] = nickname.map { LDAPValue($0) }
    entry["mail"] = mail.map { LDAPValue($0) }
    return Person(entry: entry)
}

@Suite("Folding names as people type them")
struct NameFoldingTests {
    private func words(_ text: String) -> [String] {
        let name = NameFolding().fold(text)
        return name.foldedWords.indices.map { index in
            let end = index + 1 < name.foldedWords.count ? name.foldedWords[index + 1] : name.folded.count
            return String(decoding: name.folded[name.foldedWords[index]..<end], as: UTF8.self)
        }
    }

    @Test("case, diacritics and letters that do not decompose fold away; punctuation ends words", arguments: [
        ("Zoë", ["zoe"]), ("ZOË", ["zoe"]), ("Zoe\u{308}", ["zoe"]), ("Ångström", ["angstrom"]), ("Fernández", ["fernandez"]),
        ("Jürgen", ["jurgen"]), ("López", ["lopez"]), ("Jérôme", ["jerome"]), ("Ørsted", ["orsted"]), ("Æsir", ["aesir"]),
        ("Straße", ["strasse"]), ("Łukasz", ["lukasz"]), ("Đorđe", ["dorde"]), ("Þór", ["thor"]), ("Œuvre", ["oeuvre"]),
        ("ﬁona", ["fiona"]), ("O'Brien", ["o", "brien"]), ("O’Brien", ["o", "brien"]), ("Jean-Luc", ["jean", "luc"]),
        ("van der Berg", ["van", "der", "berg"]), ("  Mary   Ann ", ["mary", "ann"]), ("ada.lovelace@analytical.example",
        ["ada", "lovelace", "analytical", "example"]), ("山田 太郎", ["山田", "太郎"]), ("Иванов", ["иванов"]),
        ("Mc Donald 3rd", ["mc", "donald", "3rd"]), ("", []), ("—", []),
    ] as [(String, [String])])
    func folding(_ text: String, _ expected: [String]) {
        #expect(words(text) == expected, "\(text.debugDescription)")
    }

    @Test("the lowered form keeps the accents")
    func lowered() {
        let name = NameFolding().fold("Zoë Ångström")
        #expect(String(decoding: name.lowered, as: UTF8.self) == "zoëångström")
        #expect(name.loweredWords == [0, 4])
    }
}

@Suite("Matching and ranking names: one matcher")
struct NameMatcherTests {
    @Test("the examples people typed find the person they meant", arguments: [
        ("zoe", "Zoë Ångström"), ("angstrom", "Zoë Ångström"), ("ZOË", "Zoë Ångström"), ("fernandez", "José Fernández"),
        ("jurgen", "Jürgen Krüger"), ("lopez", "María López"), ("jerome", "Jérôme Moreau"), ("berg", "Pieter van der Berg"),
        ("obrien", "Conan O'Brien"), ("o brien", "Conan O'Brien"), ("o'brien", "Conan O'Brien"), ("jeanluc", "Jean-Luc Picard"),
        ("jean luc", "Jean-Luc Picard"), ("jean-luc", "Jean-Luc Picard"), ("mary ann", "Mary Ann Evans"),
        ("ada@analytical", "Ada Lovelace"), ("countess", "Ada Lovelace"), ("enchantress", "Ada Lovelace"),
        ("Lovelace, Ada", "Ada Lovelace"), ("山田", "山田 太郎"), ("иван", "Иван Петров"), ("cher", "Cher"),
    ] as [(String, String)])
    func examples(_ query: String, _ meant: String) throws {
        let people = [
            person(given: ["Zoë"], surname: ["Ångström"]), person(given: ["José"], surname: ["Fernández"]),
            person(given: ["Jürgen"], surname: ["Krüger"]), person(given: ["María"], surname: ["López"]),
            person(given: ["Jérôme"], surname: ["Moreau"]), person(given: ["Pieter"], surname: ["van der Berg"]),
            person(given: ["Conan"], surname: ["O'Brien"]), person(given: ["Jean-Luc"], surname: ["Picard"]),
            person(given: ["Lucía"], surname: ["Luciano"]), person(given: ["Mary Ann"], surname: ["Evans"]),
            person(given: ["Mary"], surname: ["Brown"]),
            person(given: ["Ada"], surname: ["Lovelace"], cn: ["Ada Lovelace", "Countess of Lovelace"], display: ["Ada, Countess"],
                   nickname: ["The Enchantress"], mail: ["ada@analytical.example"]),
            person(given: ["太郎"], surname: ["山田"], cn: ["山田 太郎"]), person(given: ["Иван"], surname: ["Петров"]),
            person(surname: ["Cher"]), person(given: ["Annie"], surname: ["Hall"]),
        ]
        let order = try ranked(query, people)
        #expect(order.first == meant, "\(query) → \(order)")
    }

    @Test("more matched words first: Jean-Luc before the Lucías, Mary Ann before Mary Brown")
    func moreWordsFirst() throws {
        let lucias = (1...10).map { person(given: ["Lucía"], surname: ["Garcia\($0)"]) }
        #expect(try ranked("jean luc", lucias + [person(given: ["Jean-Luc"], surname: ["Picard"])]).first == "Jean-Luc Picard")
        #expect(try ranked("mary ann", [person(given: ["Mary"], surname: ["Brown"]), person(given: ["Mary Ann"], surname: ["Evans"])])
                == ["Mary Ann Evans", "Mary Brown"])
        #expect(try ranked("ann", [person(given: ["Annie"], surname: ["Hall"]), person(given: ["Mary Ann"], surname: ["Evans"])])
                == ["Annie Hall", "Mary Ann Evans"], "Mary Ann by her second name, after a name that starts with ann")
    }

    @Test("whole-name matches before later words; exact before prefix; typed accents before folded ones")
    func order() throws {
        #expect(try ranked("berg", [person(given: ["Pieter"], surname: ["van der Berg"]), person(given: ["Anna"], surname: ["Bergman"])])
                == ["Anna Bergman", "Pieter van der Berg"], "Bergman starts with berg; van der Berg has it as a later word")
        #expect(try ranked("ada", [person(given: ["Adam"], surname: ["X"]), person(given: ["Ada"], surname: ["Y"])]) == ["Ada Y", "Adam X"])
        #expect(try ranked("zoe", [person(given: ["Zoë"], surname: ["A"]), person(given: ["Zoe"], surname: ["B"])]) == ["Zoe B", "Zoë A"])
        #expect(try ranked("zoë", [person(given: ["Zoe"], surname: ["A"]), person(given: ["Zoë"], surname: ["B"])]) == ["Zoë B", "Zoe A"])
    }

    @Test("both names before one; names before nickname and email; surname, given name, DN break ties")
    func names() throws {
        let both = try score("ada lovelace", person(given: ["Ada"], surname: ["Lovelace"]))
        #expect(both.match == .both && both.exactWords == 2 && both.isFullMatch)
        #expect(try score("ada", person(given: ["Ada"], surname: ["Adams"])).match == .both, "one word matching both names")
        #expect(try score("ada turing", person(given: ["Ada"], surname: ["Byron"])).match == .given)
        #expect(try score("lovelace", person(given: ["Augusta"], surname: ["Lovelace"])).match == .surname)
        #expect(try score("countess", person(given: ["Ada"], surname: ["Lovelace"], cn: ["Countess of Lovelace"])).match == .fullName)
        #expect(try score("ada", person(given: ["Zed"], surname: ["Zulu"], mail: ["ada.fan@example.com"])).match == .other)
        #expect(try score("zed", person(given: ["Ada"], surname: ["Lovelace"])).match == .none)
        #expect(try ranked("ada", [person(given: ["Zed"], surname: ["Zulu"], mail: ["ada@example.com"]), person(given: ["Adam"], surname: ["Smith"])])
                == ["Adam Smith", "Zed Zulu"], "a name (even a prefix) before an email address")
        #expect(try ranked("gus king", [person(given: ["Ada", "Augusta", "Gussie"], surname: ["Lovelace", "King"])]).count == 1,
                "every value of a multi-valued name counts")
        #expect(try ranked("smith", [person(given: ["Zoe"], surname: ["Smith"]), person(given: ["Adam"], surname: ["Smith"])])
                == ["Adam Smith", "Zoe Smith"])
        #expect(try ranked("zoe", [person(given: ["Zoë"], surname: ["Zimmermann"]), person(given: ["Zoë"], surname: ["Ångström"]),
                                   person(given: ["Zoë"], surname: ["Bonnet"])])
                == ["Zoë Ångström", "Zoë Bonnet", "Zoë Zimmermann"], "ties sort by the folded last name: Å with A")
    }

    @Test("an email address matches from its local part, never by its domain alone")
    func emailLocalPart() throws {
        let ada = person(given: ["Augusta"], surname: ["King"], mail: ["ada.lovelace@analytical.example"])
        #expect(try score("lovelace", ada).matchedWords == 1)
        #expect(try score("ada.lovelace@analytical", ada).matchedWords == 1)
        #expect(try score("analytical", ada).matchedWords == 0)
        #expect(try score("example", ada).matchedWords == 0)
    }

    @Test("a full match: every word matched a name; only one full match means the person")
    func fullMatch() throws {
        #expect(try score("adam smith", person(given: ["Adam"], surname: ["Smith"])).isFullMatch)
        #expect(try !score("adam smith", person(given: ["Adam"], surname: ["Jones"])).isFullMatch)
        #expect(try !score("adam smith", person(given: ["Zed"], surname: ["Smith"], mail: ["adam@example.com"])).isFullMatch,
                "an email address is no name")
    }

    @Test("names split into words; Last, First is understood; empty, control characters and overlong names are refused")
    func queries() throws {
        #expect(try NameQuery("  Ada   Lovelace ").tokens == ["Ada", "Lovelace"])
        let reversed = try NameQuery("Lovelace, Ada")
        #expect(reversed.tokens == ["Ada", "Lovelace"])
        #expect(reversed.isSurnameFirst)
        #expect(reversed.guessedNames.given == "Ada" && reversed.guessedNames.surname == "Lovelace")
        #expect(try NameQuery("van der Berg, Jan Piet").guessedNames.surname == "van der Berg", "before the comma is the surname")
        #expect(try NameQuery("van der Berg, Jan Piet").guessedNames.given == "Jan Piet")
        #expect(try NameQuery("Cher").guessedNames.given == nil)
        #expect(try NameQuery("ada,").tokens == ["ada"])
        for bad in ["", "   ", "\t", "a\u{0}b", "a\u{1B}[2Jb", String(repeating: "x", count: 300)] {
            #expect(throws: AddressBookError.self) { try NameQuery(bad) }
        }
    }

    @Test("between matches as good, the first or last name is the one named, whatever the entry's attribute order")
    func attributePrecedence() throws {
        for cnFirst in [true, false] {
            var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=ada,dc=example,dc=com"))
            if cnFirst { entry["cn"] = ["Ada"] }
            entry["givenName"] = ["Ada"]
            entry["sn"] = ["Lovelace"]
            if !cnFirst { entry["cn"] = ["Ada"] }
            let score = try score("ada", Person(entry: entry))
            #expect(score.words[0]?.attribute == .givenName)
            #expect(score.match == .given)
        }
    }

    @Test("a name that matches saves reading the address; an address matches only words no name did")
    func namesBeforeAddresses() throws {
        let ada = person(given: ["Ada"], surname: ["Lovelace"], mail: ["countess@example.com"])
        let both = try score("ada countess", ada)
        #expect(both.words[0]?.attribute == .givenName)
        #expect(both.words[1]?.attribute == .email)
        #expect(both.matchedWords == 2 && both.nameWords == 1)
    }

    @Test("the picker's filter matches every typed word against what a line shows", arguments: [
        ("lov", true), ("ada lov", true), ("LOVELACE", true), ("zoe", false), ("ada@", true), ("example", true), ("", true),
        ("x\u{1B}", false),
    ] as [(String, Bool)])
    func pickerFilter(_ typed: String, _ expected: Bool) {
        #expect(NameMatcher.filter(typed, matches: ["Ada Lovelace", "ada@example.com — Programmer"]) == expected)
    }

    @Test("the server's filter: the word, spelt with one letter otherwise, every name attribute, escaped")
    func serverFilter() throws {
        let jo = NameMatcher(try NameQuery("jo")).filter.rendered
        for term in ["(givenName=jo*)", "(sn=jö*)", "(givenName=jó*)", "(cn=jo*)", "(sn=j'o*)"] {
            #expect(jo.contains(term), "\(term) in \(jo)")
        }
        #expect(!jo.contains("displayName") && !jo.contains("mail"), "only what directories index for substrings")
        #expect(!jo.contains("=*jo") && !jo.contains("=* jo"), "no inner string shorter than the index answers")
        let ann = NameMatcher(try NameQuery("ann")).filter.rendered
        for term in ["(givenName=* ann*)", "(cn=*-ann*)", "(sn=*'ann*)", "(givenName=*\u{2019}ann*)"] {
            #expect(ann.contains(term), "\(term) in \(ann)")
        }
        #expect(!ann.contains("=*ann*"))
        let other = NameMatcher(try NameQuery("jo")).otherFilter.rendered
        for term in ["(displayName=jø*)", "(ldapbookNickname=jo*)", "(mail=jo*)"] {
            #expect(other.contains(term), "\(term) in \(other)")
        }
        #expect(!jo.contains("*jo*"), "two letters: no search inside values")
        let berg = NameMatcher(try NameQuery("berg")).filter.rendered
        #expect(berg.contains("(sn=*berg*)") && berg.contains("(cn=*berg*)"))
        // Every letter may be the one with an accent, or spelt out; each term is the whole word.
        let garcia = NameMatcher(try NameQuery("garcia")).filter.rendered
        for term in ["(sn=garcía*)", "(givenName=gärcia*)", "(givenName=garçia*)", "(cn=garcia*)", "(sn=*garcia*)"] {
            #expect(garcia.contains(term), "\(term) in \(garcia)")
        }
        #expect(!garcia.contains("=gar*)") && !garcia.contains("garcíá"), "no shorter prefix, one accent: \(garcia)")
        #expect(!garcia.contains("(cn=garcía*)"), "on the full name, the word only: its first and last names are spelt")
        #expect(NameMatcher(try NameQuery("mueller")).filter.rendered.contains("(sn=müller*)"), "ue spelt out is ü")
        #expect(NameMatcher(try NameQuery("angstrom")).filter.rendered.contains("(sn=ångstrom*)"))
        let hostile = NameMatcher(try NameQuery("*)(uid=* \\")).filter.rendered
        #expect(!hostile.contains("(uid=*)") && hostile.contains("\\2a\\29\\28uid=\\2a"), "\(hostile)")
        #expect(NameMatcher(try NameQuery("ada"), nicknames: false).otherFilter.rendered.contains("ldapbookNickname") == false)
    }

    @Test("with several words, a nickname or an inner match counts with another word")
    func serverFilterOfSeveralWords() throws {
        let filter = NameMatcher(try NameQuery("john smith")).filter
        guard case .or(let terms) = filter else { Issue.record("\(filter.rendered)"); return }
        let alone = terms.filter { if case .and = $0 { false } else { true } }.map(\.rendered)
        #expect(alone.contains("(givenName=john*)") && alone.contains("(sn=smith*)"), "each word's own terms alone")
        #expect(!alone.contains("(givenName=jack*)") && !alone.contains("(sn=*smith*)"), "not every Jack, nor every Goldsmith")
        let together = filter.rendered
        #expect(together.contains("(&(|(givenName=john*)") && together.contains("(givenName=jack*)") && together.contains("(sn=*smith*)"))
        // One word: every term alone.
        let bob = NameMatcher(try NameQuery("bob")).filter.rendered
        #expect(bob.hasPrefix("(|") && !bob.contains("(&") && bob.contains("(givenName=robert*)"), "\(bob)")
    }

    @Test("the forgiving filter, asked before a new entry, spells the first three letters only")
    func forgivingFilter() throws {
        let typo = NameMatcher(try NameQuery("lovelcae")).forgivingFilter.rendered
        #expect(typo.contains("(sn=lov*)") && typo.contains("(sn=løv*)") && typo.contains("(sn=*lovelcae*)"), "\(typo)")
        let tight = NameMatcher(try NameQuery("lovelcae")).filter.rendered
        #expect(!tight.contains("=lov*") && tight.contains("(sn=lovelcae*)") && tight.contains("(sn=lovelcáe*)"), "\(tight)")
        #expect(NameMatcher(try NameQuery("jerome")).forgivingFilter.rendered.contains("(&(|(givenName=jer*)"), "three letters spelt out")
        let angstrom = NameMatcher(try NameQuery("angstrom")).forgivingFilter.rendered
        #expect(angstrom.contains("(sn=ång*)") && angstrom.contains("(sn=*m*)"), "\(angstrom)")
    }

    /// The names a candidate sorts by are kept as the scoring folds them: the same order as
    /// folding them again, for people with several values, empty first values, accents,
    /// names missing, and attributes in any order.
    @Test("a candidate made from the scoring sorts by the same names as one folded afresh")
    func sortNamesFromScoring() throws {
        var people = [
            person(given: ["Ångström"], surname: ["Zoë"]),
            person(given: ["", "Jo"], surname: ["", "Jones"]),
            person(given: ["Jo", "Joanna"], surname: ["Ørsted", "Oersted"]),
            person(surname: ["Johnson"], cn: ["Jo Johnson"]),
            person(given: ["Jo"], surname: [], cn: ["Jo"]),
            person(given: ["JOSÉ"], surname: ["de la Joya"], display: ["José"]),
        ]
        // The surname before the given name in the entry.
        var reversed = LDAPEntry(dn: try DistinguishedName(parsing: "uid=r,dc=example,dc=com"))
        reversed["sn"] = [LDAPValue("Jovanović")]
        reversed["cn"] = [LDAPValue("Jovan Jovanović")]
        reversed["givenName"] = [LDAPValue("Jovan")]
        people.append(Person(entry: reversed))
        let matcher = NameMatcher(try NameQuery("jo"))
        let folding = NameFolding()
        for person in people {
            let score = matcher.score(person, using: folding)
            let kept = Candidate(scoredBy: folding, person: person, tier: nil, score: score, values: [])
            let afresh = Candidate(person: person, tier: nil, score: score, values: [])
            #expect(kept.order == afresh.order, "\(person.dn)")
        }
    }

    /// Ranking sorts integer keys and compares whole orders and DNs only where the keys are
    /// equal: the same order as comparing every pair.
    @Test("ranking by integer keys orders people as comparing them does")
    func rankedAsCompared() throws {
        var generator = SystemRandomNumberGenerator()
        let syllables = ["jo", "an", "na", "ö", "han", "sen", "ss", "ø", "e", "berg", "Jo", "JO"]
        func name() -> String { (0..<Int.random(in: 1...6, using: &generator)).map { _ in syllables.randomElement(using: &generator)! }.joined() }
        let matcher = NameMatcher(try NameQuery("jo"))
        for _ in 0..<20 {
            // Many namesakes and long shared beginnings, so that keys tie.
            let surnames = (0..<4).map { _ in "Jo" + name() + "sson-" + name() }
            let people = (0..<300).map { _ in
                person(given: ["Jo" + name()], surname: [surnames.randomElement(using: &generator)!])
            }
            let candidates = people.map { Candidate(person: $0, tier: nil, score: matcher.score($0), values: []) }
            let ranked = Candidate.ranked(candidates).map(\.person.dn.string)
            // The definition: better score, then the whole order, then the DN.
            let compared = candidates.sorted { a, b in
                if a.score < b.score || b.score < a.score { return a.score < b.score }
                if a.order != b.order { return a.order.lexicographicallyPrecedes(b.order) }
                return a.person.dn.string < b.person.dn.string
            }.map(\.person.dn.string)
            #expect(ranked == compared)
        }
    }
}
