import Foundation
@testable import LDAPBook
import LDAPKit
import Testing

/// A person with the given names (and phones), for scoring without a directory: as the local
/// index gives them back, the transliterations of their names known (its record carries them;
/// the matcher computes none, ``Transliteration``).
private func person(_ given: String?, _ surname: String, cn: [String]? = nil, display: [String] = [],
                    phones: [String: [String]] = [:]) -> Person {
    for name in [given].compactMap({ $0 }) + [surname] + (cn ?? []) + display { _ = Transliteration.latin(of: name) }
    var entry = LDAPEntry(dn: try! DistinguishedName(parsing: "uid=\(UUID().uuidString.prefix(8)),dc=example,dc=com"))
    if let given { entry["givenName"] = [LDAPValue(given)] }
    entry["sn"] = [LDAPValue(surname)]
    entry["cn"] = (cn ?? [[given, surname].compactMap { $0 }.joined(separator: " ")]).map { LDAPValue($0) }
    entry["displayName"] = display.map { LDAPValue($0) }
    for (attribute, values) in phones { entry[attribute] = values.map { LDAPValue($0) } }
    return Person(entry: entry)
}

@Suite("Names as a multicultural staff types them")
struct NameVariantsTests {
    @Test("letters spelt out match both ways: ue for ü, oe for ö and ø, ae for ä, aa for å", arguments: [
        ("mueller", "Müller"), ("soerensen", "Sørensen"), ("oedegaard", "Ødegaard"), ("koehler", "Köhler"),
        ("haenel", "Hänel"), ("aase", "Åse"), ("müller", "Mueller"), ("MUELLER", "MÜLLER"), ("muller", "Müller"),
        ("schroeder", "Schröder-Müller"), ("mueller", "Schröder-Müller"), ("straße", "Strasse"), ("strasse", "Straße"),
    ] as [(String, String)])
    func spelledOut(_ typed: String, _ stored: String) throws {
        #expect(try score(typed, person(nil, stored)).matchedWords == 1, "\(typed) for \(stored)")
    }

    @Test("the spelling as typed ranks first: mueller finds Mueller before Müller")
    func spellingAsTypedFirst() throws {
        #expect(try ranked("mueller", [person("Anna", "Müller"), person("Anna", "Mueller")]) == ["Anna Mueller", "Anna Müller"])
        #expect(try ranked("müller", [person("Anna", "Mueller"), person("Anna", "Müller")]) == ["Anna Müller", "Anna Mueller"])
    }

    @Test("Greek, Vietnamese and Turkish fold in their own script: tonos, final sigma, capitals, dotless i", arguments: [
        ("Παπαδόπουλος", "Παπαδόπουλος"), ("παπαδοπουλος", "Παπαδόπουλος"), ("ΠΑΠΑΔΟΠΟΥΛΟΣ", "Παπαδόπουλος"),
        ("Γεωργίου", "Γεωργίου"), ("γεωργιου", "Γεωργίου"), ("tran", "Trần"), ("dang", "Đặng"), ("vu", "Vũ"),
        ("huynh", "Huỳnh"), ("duc", "Đức"), ("nguyen", "Nguyễn"), ("ilik", "Ilık"), ("istanbul", "İstanbul"),
    ] as [(String, String)])
    func scripts(_ typed: String, _ stored: String) throws {
        #expect(try score(typed, person(nil, stored)).matchedWords == 1, "\(typed) for \(stored)")
    }

    @Test("particles typed joined or apart, and every word of a name, accents and all", arguments: [
        ("dejong", "de Jong"), ("de jong", "de Jong"), ("devries", "de Vries"), ("alrashid", "al-Rashid"),
        ("elmasri", "El-Masri"), ("dasilva", "da Silva"), ("leblanc", "Le Blanc"), ("vandijk", "van Dijk"),
        ("obrien", "O'Brien"), ("garcia", "Fernández García"), ("müller", "Schröder-Müller"), ("lopez", "García López"),
    ] as [(String, String)])
    func particles(_ typed: String, _ stored: String) throws {
        let words = try NameQuery(typed).tokens.count
        #expect(try score(typed, person(nil, stored)).matchedWords == words, "\(typed) for \(stored)")
    }

    @Test("names in other scripts are found by their Latin transliteration, and the other way round", arguments: [
        ("wang wei", "王伟", 2), ("wang", "王伟", 1), ("olga", "Ольга", 1), ("yamada", "やまだ", 1), ("ivanov", "Иванов", 1),
        ("papadopoulos", "Παπαδόπουλος", 1), ("Ольга", "Olga", 1), ("王", "王伟", 1),
    ] as [(String, String, Int)])
    func transliteration(_ typed: String, _ stored: String, _ words: Int) throws {
        let found = try score(typed, person(nil, stored, cn: [stored]))
        let tokens = try NameQuery(typed).tokens
        #expect(found.matchedWords == words, "\(typed) for \(stored): \(found.explanation(tokens: tokens))")
    }

    @Test("wang wei finds 王伟 before the Weiß family, and says it was transliterated")
    func transliteratedRanking() throws {
        let people = [person("Anna", "Weiß"), person(nil, "王", cn: ["王伟"]), person("Wei", "Weiß")]
        #expect(try ranked("wang wei", people).first == "王伟")
        let explained = try score("wang wei", person(nil, "王", cn: ["王伟"])).explanation(tokens: ["wang", "wei"])
        #expect(explained.contains("transliterated"), "\(explained)")
    }

    @Test("one typo in a word of five letters or more, two from nine, a swap in four; never in shorter words", arguments: [
        ("lovelcae", "Lovelace", true), ("lovlace", "Lovelace", true), ("lovelacee", "Lovelace", true),
        ("jhon", "John", true), ("joan", "John", false), ("smyth", "Smith", true), ("smiht", "Smith", true),
        ("ann", "Amy", false), ("abc", "abd", false), ("schwarzeneger", "Schwarzenegger", true),
        ("shwarzeneger", "Schwarzenegger", true), ("shwarzenegr", "Schwarzenegger", false), ("lovelxyz", "Lovelace", false),
    ] as [(String, String, Bool)])
    func typos(_ typed: String, _ stored: String, _ matches: Bool) throws {
        let found = try score(typed, person(nil, stored))
        #expect((found.matchedWords == 1) == matches, "\(typed) for \(stored)")
        if matches, case .typo? = found.words[0]?.kind {} else if matches {
            Issue.record("\(typed) for \(stored) matched, but not as a typo")
        }
    }

    @Test("typos rank after exact and prefix matches, and never make the one person meant")
    func typosRankLast() throws {
        let people = [person("John", "Smith"), person("Jhonny", "Cash"), person("Anna", "Smith"), person("Jhon", "Doe")]
        #expect(try ranked("jhon smith", people).first == "John Smith")
        #expect(try ranked("jhon", people).prefix(2) == ["Jhon Doe", "Jhonny Cash"])
        let typo = try score("lovelcae", person("Ada", "Lovelace"))
        #expect(typo.matchedWords == 1 && !typo.isFullMatch)
        #expect(typo.explanation(tokens: ["lovelcae"]) == "lovelcae: last name Lovelace (one typo)")
    }

    @Test("nicknames find the names they stand for, and names their nicknames, after the names typed")
    func nicknames() throws {
        let people = [person("Robert", "Smith"), person("Bob", "Jones"), person("Bobby", "Brown"), person("William", "Gates")]
        #expect(try ranked("bob", people) == ["Bob Jones", "Bobby Brown", "Robert Smith"])
        #expect(try ranked("robert", people) == ["Robert Smith", "Bobby Brown", "Bob Jones"], "nicknames, by last name")
        #expect(try ranked("bill", people) == ["William Gates"])
        let explained = try score("bob", person("Robert", "Smith")).explanation(tokens: ["bob"])
        #expect(explained == "bob: first name Robert (nickname of Robert)", "\(explained)")
        #expect(try !score("bob smith", person("Robert", "Smith")).isFullMatch, "a nickname is a guess")
        let thomases = [person("Thomas", "Müller"), person("Tom", "Jones"), person("Anna", "Muller"), person("Tom", "Muller")]
        #expect(try ranked("tom muller", thomases).prefix(2) == ["Tom Muller", "Thomas Müller"])
        #expect(try score("bob", person(nil, "Robertson")).matchedWords == 0, "a nickname is a given name, not a surname")
    }

    @Test("a phone number finds its holder by its digits, in any format", arguments: [
        ("+44 20 7946 0001", "020 7946 0001", true), ("020 7946 0001", "+44 20 7946 0001", true),
        ("0001", "+44 20 7946 0001", true), ("(020) 7946-0001", "+442079460001", true), ("7946 0001", "+44 20 7946 0001", true),
        ("+49 170 1111111", "+49 170 1111111", true), ("+49 170 1111112", "+49 170 1111111", false),
        ("0002", "+44 20 7946 0001", false), ("+44 20 7946 0001", "+33 20 7946 0001", false),
    ] as [(String, String, Bool)])
    func phoneNumbers(_ typed: String, _ stored: String, _ matches: Bool) throws {
        let holder = person("Ada", "Lovelace", phones: ["mobile": [stored]])
        let found = try score(typed, holder)
        #expect((found.matchedWords == 1) == matches, "\(typed) for \(stored)")
        if matches {
            let tokens = try NameQuery(typed).tokens
            #expect(found.isFullMatch && found.match == .phone)
            #expect(found.explanation(tokens: tokens).contains("phone digits"))
        }
    }

    @Test("a query without a letter is refused, unless it is a phone number")
    func queriesWithoutLetters() throws {
        for bad in ["123", "+44", "—", "...", "12 34 5"] where PhoneDigits.typed(bad) == nil {
            #expect(throws: AddressBookError.self, "\(bad)") { try NameQuery(bad) }
        }
        let number = try NameQuery("+44 20 7946 0001")
        #expect(number.phoneNumber?.description == "442079460001" && number.tokens == ["+44 20 7946 0001"])
        #expect(!number.isAName && number.guessedNames.surname.isEmpty, "a number suggests no name")
        #expect(try !NameQuery("ada@example.com").isAName)
        #expect(try NameQuery("ada 2").phoneNumber == nil)
    }

    @Test("a new entry's names are written as people write them", arguments: [
        ("ada lovelace", "Ada", "Lovelace"), ("pieter van der berg", "Pieter", "van der Berg"),
        ("ludwig van beethoven", "Ludwig", "van Beethoven"), ("conan o'brien", "Conan", "O'Brien"),
        ("jean-luc picard", "Jean-Luc", "Picard"), ("ronald mcdonald", "Ronald", "McDonald"),
        ("Ada LOVELACE", "Ada", "LOVELACE"), ("maría josé garcía", "María José", "García"), ("DeWitt, john", "John", "DeWitt"),
    ] as [(String, String?, String)])
    func capitalisation(_ typed: String, _ given: String?, _ surname: String) throws {
        let guessed = try NameQuery(typed).guessedNames
        #expect(guessed.given == given && guessed.surname == surname, "\(typed): \(guessed)")
    }

    @Test("typo distances: swaps count once; the work stops past the limit")
    func distances() {
        func letters(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
        #expect(Typos.restrictedDistance(letters("lovelcae"), letters("lovelace"), limit: 2) == 1)
        #expect(Typos.restrictedDistance(letters("abcdef"), letters("abcdef"), limit: 0) == 0)
        #expect(Typos.restrictedDistance(letters("kitten"), letters("sitting"), limit: 3) == 3)
        #expect(Typos.restrictedDistance(letters("kitten"), letters("sitting"), limit: 2) == nil)
        #expect(Typos.isTransposition(letters("jhon"), letters("john")))
        #expect(!Typos.isTransposition(letters("joan"), letters("john")))
        // Every word one edit away shares a deletion with the word (what the index relies on).
        let word = letters("lovelace")
        for typed in ["lovelcae", "lovlace", "lovelacee", "lovelade", "olvelace"] {
            #expect(!Typos.deletions(of: word, upTo: 1).isDisjoint(with: Typos.deletions(of: letters(typed), upTo: 1)), "\(typed)")
        }
    }
}
