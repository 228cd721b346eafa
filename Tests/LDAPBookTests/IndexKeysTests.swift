import Foundation
@testable import LDAPBook
import LDAPKit
import Testing

private let dn = try! DistinguishedName(parsing: "uid=someone,ou=people,dc=example,dc=com")

/// The keys the index files a person of `attributes` under, worked out as a sync works them out.
private func keys(_ attributes: KeyValuePairs<String, [String]>) -> IndexKeys {
    let entry = LDAPEntry(dn: dn, attributes)
    return IndexKeys(of: PersonRecord(entry: entry).held, folding: NameFolding())
}

/// The name keys' letters, as text, each once (a name filed under several classes is under
/// several keys).
private func names(_ keys: IndexKeys) -> [String] {
    var letters: [String] = []
    for key in keys.keys {
        guard let parsed = ParsedNameKey(Array(key)) else { continue }
        let text = String(decoding: parsed.letters, as: UTF8.self)
        if !letters.contains(text) { letters.append(text) }
    }
    return letters
}

/// The phone keys, as text, without their kind.
private func phones(_ keys: IndexKeys) -> [String] {
    keys.keys.filter { $0.first == Postings.Kind.phone.rawValue }.map { String(decoding: $0.dropFirst(), as: UTF8.self) }
}

/// The words, as text.
private func words(_ keys: IndexKeys) -> [String] {
    keys.words.map { String(decoding: $0, as: UTF8.self) }
}

/// Whether every word of `typed` is looked up, as the index looks words up (as typed, or
/// spelt otherwise; an address by its local part), by a prefix of one of `keys`.
private func finds(_ typed: String, _ keys: IndexKeys) throws -> Bool {
    let matcher = NameMatcher(try NameQuery(typed))
    return matcher.tokens.indices.allSatisfy { index in
        let word = matcher.query.tokens[index]
        let looked = word.contains("@") ? NameFolding().fold(IndexKeys.localPart(of: LDAPValue(word)).lossyString) : matcher.tokens[index]
        let forms = [looked] + matcher.alternatives[index].spellings.map(\.name)
        return forms.contains { form in
            let prefixes = [IndexKeys.key(.name, form.folded[...]), IndexKeys.key(.address, form.folded[...])]
            return keys.keys.contains { key in prefixes.contains { key.starts(with: $0) } }
        }
    }
}

@Suite("What the index files a person under")
struct IndexKeysTests {
    @Test("a name is filed from the start of each of its words to its end", arguments: [
        ("van der Berg", ["vanderberg", "derberg", "berg"]), ("O'Brien", ["obrien", "brien"]), ("Jean-Luc", ["jeanluc", "luc"]),
        ("López García", ["lopezgarcia", "garcia"]), ("de Jong", ["dejong", "jong"]), ("Lovelace", ["lovelace"]),
        ("Zoë", ["zoe"]), ("al-Rashid", ["alrashid", "rashid"]), ("Smith 2nd", ["smith2nd", "2nd"]),
    ] as [(String, [String])])
    func wordsToTheEnd(_ surname: String, _ expected: [String]) {
        #expect(names(keys(["sn": [surname]])) == expected)
    }

    @Test("the keys a name produces are where its typed forms look: spelt out, folded, in capitals, transliterated", arguments: [
        ("Müller", ["mueller", "muller", "müller", "MÜLLER", "Mueller", "mül", "mue"]),
        ("Sørensen", ["soerensen", "sorensen", "sørensen", "SØRENSEN", "soer"]),
        ("Ødegaard", ["oedegaard", "odegaard", "ødegaard"]), ("Åse", ["aase", "ase", "åse"]), ("Köhler", ["koehler", "kohler"]),
        ("Straße", ["strasse", "straße", "STRASSE"]), ("Trần", ["tran", "trần", "TRAN"]), ("Đặng", ["dang", "đặng"]),
        ("Nguyễn", ["nguyen", "nguy"]), ("Ilık", ["ilik"]), ("İstanbul", ["istanbul"]),
        ("Παπαδόπουλος", ["Παπαδόπουλος", "παπαδοπουλος", "ΠΑΠΑΔΟΠΟΥΛΟΣ", "ΠΑΠΑΔΌΠΟΥΛΟΣ", "παπαδ", "papadopoulos", "Papadopoulos", "papa"]),
        ("王伟", ["王伟", "王", "wang", "wang wei", "wei", "wangwei"]), ("Ольга", ["olga", "Ольга", "ОЛЬГА", "оль"]),
        ("Иванов", ["ivanov", "иванов"]), ("やまだ", ["yamada", "やまだ"]), ("de Jong", ["dejong", "jong", "de jong", "DeJong"]),
        ("López García", ["garcia", "lopez", "lopezgarcia", "garcía", "lópez garcía"]), ("O'Brien", ["obrien", "brien", "o'brien"]),
        ("Schröder-Müller", ["schroeder", "mueller", "schrodermuller", "muller"]),
    ] as [(String, [String])])
    func typedForms(_ stored: String, _ typed: [String]) throws {
        for attribute in ["sn", "givenName", "cn", "displayName", "ldapbookNickname"] {
            let filed = keys([attribute: [stored]])
            for query in typed {
                #expect(try finds(query, filed), "\(query) for \(attribute): \(stored), filed under \(names(filed))")
            }
        }
    }

    @Test("the keys of one name do not find another")
    func misses() throws {
        let filed = keys(["givenName": ["Ada"], "sn": ["Müller"], "cn": ["Ada Müller"]])
        for query in ["zzzzzz", "mi", "lovelace", "adam", "mullerr", "uller", "bob"] {
            #expect(try !finds(query, filed), "\(query)")
        }
    }

    @Test("a full or display name that is the first and last name joined adds no key of its own")
    func joinedNames() {
        let plain = keys(["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Ada Lovelace"], "displayName": ["Ada Lovelace"]])
        #expect(Set(names(plain)) == ["ada", "lovelace"])
        let other = keys(["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Augusta Ada King"], "displayName": ["Ada Lovelace"]])
        #expect(Set(names(other)) == ["ada", "lovelace", "augustaadaking", "adaking", "king"])
        // Given name and surname, but a nickname that happens to be spelt like them is still a name of its own.
        let nickname = keys(["givenName": ["Ada"], "sn": ["Lovelace"], "ldapbookNickname": ["Ada Lovelace"]])
        #expect(Set(names(nickname)).isSuperset(of: ["adalovelace"]))
    }

    @Test("an address is filed by its local part's words, numbers and domain left out")
    func addresses() throws {
        let filed = keys(["mail": ["ada.lovelace.1@example.org", "countess@analytical.engine", "2ndline.support@example.org"]])
        #expect(Set(names(filed)) == ["adalovelace1", "lovelace1", "countess", "2ndlinesupport", "support"])
        #expect(!names(filed).contains { $0.hasPrefix("example") || $0.hasPrefix("analytical") || $0.hasPrefix("org") })
        #expect(words(filed).isEmpty, "an address has no words for typos")
        for query in ["ada", "lovelace", "adalove", "countess@analytical", "ada@", "2ndline", "support"] {
            #expect(try finds(query, filed), "\(query)")
        }
        #expect(IndexKeys.localPart(of: "ada@example.org") == "ada")
        #expect(IndexKeys.localPart(of: "\"a@b\"@example.org") == "\"a@b\"", "what comes before the last @")
        #expect(IndexKeys.localPart(of: "no-at-all") == "no-at-all")
        #expect(IndexKeys.localPart(of: "@example.org") == "")
    }

    @Test("a phone number is filed under its digits reversed, and without leading zeros when it has them", arguments: [
        ("+44 20 7946 0001", ["100064970244"]), ("020 7946 0001", ["10006497020", "1000649702"]), ("0001", ["1000"]),
        ("00 44 20 7946 0001", ["10006497024400", "100064970244"]), ("tel:+1-555-0100", ["00105551"]), ("(0)20 79460001", ["10006497020", "1000649702"]),
        ("123", []), ("n/a", []), ("", []), ("0000", ["0000"]), ("00012", ["21000"]),
    ] as [(String, [String])])
    func phoneKeys(_ number: String, _ expected: [String]) {
        #expect(phones(keys(["telephoneNumber": [number]])) == expected)
        #expect(phones(keys(["mobile": [number]])) == expected)
        #expect(names(keys(["pager": [number]])).isEmpty, "a number is no name")
    }

    @Test("every phone attribute is filed; a title, department or organisation is not")
    func filedAttributes() {
        let filed = keys([
            "telephoneNumber": ["1111"], "mobile": ["2222"], "homePhone": ["3333"], "pager": ["4444"],
            "title": ["Engineer"], "ou": ["Research"], "o": ["Example"],
        ])
        #expect(Set(phones(filed)) == ["1111", "2222", "3333", "4444"])
        #expect(names(filed).isEmpty && filed.words.isEmpty)
    }

    @Test("words of four letters or more, in every form, are kept for typos; each key and word once")
    func typoWords() {
        let filed = keys(["givenName": ["Ada", "Wei"], "sn": ["Müller", "王伟", "Παπαδόπουλος", "de Jong"], "cn": ["Jürgen Müller"]])
        #expect(Set(words(filed)) == ["muller", "mueller", "wang", "παπαδοπουλοσ", "papadopoulos", "jong", "jurgen", "juergen"])
        #expect(Set(filed.keys).count == filed.keys.count, "each key once")
        #expect(Set(filed.words).count == filed.words.count, "each word once")
        #expect(!words(filed).contains("ada") && !words(filed).contains("王伟") && !words(filed).contains("wei"),
                "three letters, and two of another script, are too short")
    }

    @Test("a name key says its attribute, whether it starts the value, its form, and where its later words start")
    func nameClasses() throws {
        let filed = keys(["givenName": ["Jean-Luc"], "sn": ["Müller"], "mail": ["jl.mueller@example.org"]])
        let parsed = filed.keys.compactMap { ParsedNameKey(Array($0)) }
        func key(_ letters: String, _ attribute: MatchedAttribute, otherForm: Bool = false) -> ParsedNameKey? {
            parsed.first { $0.letters.elementsEqual(letters.utf8) && $0.nameClass.attribute == attribute && $0.nameClass.isOtherForm == otherForm }
        }
        let jeanLuc = try #require(key("jeanluc", .givenName))
        #expect(jeanLuc.nameClass.isWholeName && !jeanLuc.nameClass.isCut && Array(jeanLuc.laterWords) == [4])
        #expect(jeanLuc.mayEndAWord(length: 4) && jeanLuc.mayEndAWord(length: 7) && !jeanLuc.mayEndAWord(length: 5),
                "jean and jeanluc end a word; jeanl does not")
        #expect(jeanLuc.firstWordLength == 4)
        let luc = try #require(key("luc", .givenName))
        #expect(!luc.nameClass.isWholeName && luc.firstWordLength == 3)
        #expect(key("muller", .surname)?.nameClass.isWholeName == true)
        #expect(key("mueller", .surname, otherForm: true) != nil, "the spelt-out form, marked as another form")
        #expect(key("mueller", .email) != nil && key("jlmueller", .email)?.nameClass.isWholeName == true)
        #expect(ParsedNameKey(Postings.key(.phone, "1000".utf8)) == nil, "a phone key is no name key")
        // José: `jos` matches with its accents as typed, `jose` does not.
        let jose = try #require(keys(["givenName": ["José"]]).keys.compactMap { ParsedNameKey(Array($0)) }.first)
        #expect(jose.unfolded == 3 && jose.keepsAccents(length: 3) && !jose.keepsAccents(length: 4))
        #expect(jeanLuc.unfolded == 7 && jeanLuc.keepsAccents(length: 7))
    }

    @Test("a key is at most 32 bytes, cut where a character starts")
    func longKeys() throws {
        let ascii = String(repeating: "abcdefghij", count: 5)
        let asciiKeys = names(keys(["sn": [ascii]]))
        #expect(asciiKeys == [String(ascii.prefix(32))])
        let cyrillic = "a" + String(repeating: "ж", count: 30)
        for key in keys(["sn": [cyrillic]]).keys {
            let parsed = try #require(ParsedNameKey(Array(key)))
            #expect(parsed.letters.count <= IndexKeys.maximumKeyLength)
            #expect(String(validating: parsed.letters, as: UTF8.self) != nil, "valid UTF-8")
            if parsed.nameClass.isWholeName && !parsed.nameClass.isOtherForm { #expect(parsed.nameClass.isCut, "marked as cut short") }
        }
        #expect(IndexKeys.key(.name, Array(cyrillic.utf8)[...]).count == 1 + 31, "one ж would be cut: left out")
        // A query longer than a key is looked up by its first bytes, and still finds the name.
        #expect(try finds(ascii + "klm", keys(["sn": [ascii + "klmnop"]])))
        #expect(try finds(cyrillic, keys(["sn": [cyrillic]])))
    }

    @Test("a person's keys are the same from the record as made and as read back: what lets them be taken out again")
    func sameKeysReadBack() {
        let people: [KeyValuePairs<String, [String]>] = [
            ["givenName": ["Ada"], "sn": ["Lovelace"], "cn": ["Ada Lovelace"], "mail": ["ada@example.org"], "mobile": ["+44 7700 900001"]],
            ["sn": ["王"], "givenName": ["伟"], "cn": ["王伟"], "displayName": ["Wang Wei"]],
            ["cn": ["Παπαδόπουλος Γεώργιος"], "sn": ["Παπαδόπουλος"], "givenName": ["Γεώργιος"], "telephoneNumber": ["0030 210 1234567"]],
            ["sn": ["Müller", "Mueller"], "givenName": ["Jürgen"], "ldapbookNickname": ["Jürgi"], "homePhone": ["0049 30 1234"]],
            ["sn": ["Ольга"], "cn": ["やまだ たろう", "Ольга"], "title": ["Инженер"]],
        ]
        for attributes in people {
            let entry = LDAPEntry(dn: dn, attributes)
            let record = PersonRecord(entry: entry)
            let made = IndexKeys(of: record.held, folding: NameFolding())
            let readBack = IndexKeys(of: PersonRecord(bytes: record.bytes).values(), folding: NameFolding())
            #expect(made.keys == readBack.keys, "\(attributes)")
            #expect(made.words == readBack.words)
            #expect(!made.keys.isEmpty)
        }
    }

    @Test("nothing to file: no names, empty values, attributes not held")
    func nothing() {
        let empty = keys(["sn": [""], "cn": [""], "jpegPhoto": ["…"], "uid": ["ada"], "mail": [""], "telephoneNumber": [""]])
        #expect(empty.keys.isEmpty && empty.words.isEmpty)
        let punctuation = keys(["sn": ["—"], "cn": ["..."], "givenName": ["   "]])
        #expect(punctuation.keys.isEmpty && punctuation.words.isEmpty, "no letter, no key")
        // A record read back holds no values of its own: no keys, and no crash.
        let none = IndexKeys(of: [], folding: NameFolding())
        #expect(none.keys.isEmpty && none.words.isEmpty)
    }

    @Test("the keys read a record's values by attribute number: names, then mail, then the phones")
    func attributeNumbers() {
        let named = IndexKeys.nameAttributes.map(\.attribute) + ["mail"] + MatchedAttribute.phoneAttributes
        #expect(Array(PersonRecord.attributes.prefix(named.count)) == named)
        #expect(IndexKeys.mailOffset == named.firstIndex(of: "mail"))
        #expect(IndexKeys.phoneOffsets.map { PersonRecord.attributes[$0] } == MatchedAttribute.phoneAttributes)
    }

    @Test("the order ties are broken on is the first surname's and given name's, folded and lowered")
    func order() {
        let entry = LDAPEntry(dn: dn, ["givenName": ["Zoë", "Anna"], "sn": ["Müller-Lüdenscheidt", "Abel"],
                                       "cn": ["Zoë Müller-Lüdenscheidt"]])
        let folding = NameFolding()
        let (surname, given) = (folding.fold("Müller-Lüdenscheidt"), folding.fold("Zoë"))
        #expect(IndexKeys(of: PersonRecord(entry: entry).held, folding: NameFolding()).order
                == Candidate.order(surname: (surname.folded, surname.lowered), givenName: (given.folded, given.lowered)))
        let noNames = LDAPEntry(dn: dn, ["mail": ["y@example.org"]])
        #expect(IndexKeys(of: PersonRecord(entry: noNames).held, folding: NameFolding()).order == [0, 0, 0, 0])
    }
}
