@testable import LDAPBook
import Testing

@Suite("Nicknames: the names a given name is known by")
struct NicknamesTests {
    @Test("a diminutive stands for its formal name, and the formal name finds it", arguments: [
        ("bob", "robert"), ("bill", "william"), ("tom", "thomas"), ("liz", "elizabeth"), ("beth", "elizabeth"),
        ("betty", "elizabeth"), ("peggy", "margaret"), ("dick", "richard"), ("kate", "katherine"), ("jim", "james"),
        ("jack", "john"), ("ted", "edward"), ("tony", "anthony"), ("sandy", "alexander"), ("sasha", "aleksandr"),
        ("katya", "ekaterina"), ("dima", "dmitry"), ("misha", "mikhail"), ("kolya", "nikolai"), ("vova", "vladimir"),
        ("volodya", "vladimir"), ("lena", "elena"), ("pepe", "jose"), ("paco", "francisco"), ("hans", "johannes"),
        ("sepp", "josef"), ("jan", "johannes"), ("kasia", "katarzyna"), ("gosia", "malgorzata"), ("kees", "cornelis"),
        ("beppe", "giuseppe"), ("ze", "jose"), ("pista", "istvan"), ("kostas", "konstantinos"), ("kalle", "karl"),
    ] as [(String, String)])
    func diminutiveAndFormalName(_ nickname: String, _ formal: String) {
        #expect(Nicknames.formalNames(for: nickname).contains(formal))
        #expect(Nicknames.alternatives(of: nickname).contains(formal))
        #expect(Nicknames.alternatives(of: formal).contains(nickname))
        #expect(Nicknames.formalNames(for: formal).isEmpty, "\(formal) is formal in every group it is in")
    }

    @Test("a formal name's alternatives are its group's, formal names first")
    func formalNameAlternatives() {
        #expect(Nicknames.alternatives(of: "robert") == ["rob", "robbie", "robby", "bob", "bobby", "bert"])
        #expect(Nicknames.alternatives(of: "bob").first == "robert")
        #expect(Nicknames.alternatives(of: "catherine").contains("katherine"), "another spelling of the formal name")
        #expect(Nicknames.alternatives(of: "catherine").contains("kate"))
        #expect(Nicknames.formalNames(for: "catherine").isEmpty)
        #expect(Nicknames.formalNames(for: "katie") == ["katherine"], "the group is known by its first formal name")
        #expect(Nicknames.formalNames(for: "kathy") == ["katherine", "kathleen"], "in the order of the data")
        #expect(Nicknames.formalNames(for: "bob") == ["robert"])
    }

    @Test("a diminutive of several names stands for each of them", arguments: [
        ("alex", ["alexander", "alexandra", "alexis"]), ("chris", ["christopher", "christina", "christian"]),
        ("sam", ["samuel", "samantha"]), ("harry", ["henry", "harold"]), ("ed", ["edward", "edmund", "edwin", "edgar"]),
        ("sasha", ["aleksandr", "aleksandra"]), ("slava", ["vyacheslav", "vladislav", "yaroslav"]),
        ("beto", ["roberto", "alberto", "humberto"]), ("jan", ["johannes"]),
    ] as [(String, [String])])
    func severalGroups(_ nickname: String, _ formal: [String]) {
        let found = Nicknames.formalNames(for: nickname)
        for name in formal {
            #expect(found.contains(name), "\(nickname) → \(name)")
            #expect(Nicknames.alternatives(of: name).contains(nickname))
        }
        #expect(Nicknames.groups(containing: nickname).count >= formal.count)
        #expect(Set(found).count == found.count, "each formal name once")
    }

    @Test("a name that is in no group, or not folded, has no alternatives")
    func unknownNames() {
        for word in ["", "zzyzx", "lovelace", "Bob", "ROBERT", "josé", "bob ", "jo"] {
            #expect(Nicknames.alternatives(of: word).isEmpty, "\(word.debugDescription)")
            #expect(Nicknames.formalNames(for: word).isEmpty, "\(word.debugDescription)")
            #expect(Nicknames.groups(containing: word).isEmpty, "\(word.debugDescription)")
        }
    }

    @Test("every stored name is one word as NameFolding folds it: lower-case ASCII letters")
    func namesAreFolded() {
        let folding = NameFolding()
        for group in Nicknames.groups {
            for name in group.names {
                let folded = folding.fold(name)
                #expect(folded.folded == Array(name.utf8) && folded.foldedWords == [0], "\(name.debugDescription) folds otherwise")
                #expect(!name.isEmpty && name.utf8.allSatisfy { $0 &- 0x61 < 26 }, "\(name.debugDescription) is not letters a–z")
            }
        }
    }

    @Test("every line of the data is a heading or a group, and every group has a formal name and another name")
    func noEmptyGroups() {
        #expect(Nicknames.table.malformedLines.isEmpty)
        for group in Nicknames.groups {
            #expect(!group.formalNames.isEmpty && group.names.count >= 2, "\(group.names)")
            #expect(!group.diminutives.isEmpty, "\(group.formalName) has no diminutives")
            #expect(!group.language.isEmpty, "\(group.formalName) is under no heading")
        }
    }

    @Test("no group lists a name twice, and within a language a formal name heads one group only")
    func noRepeats() {
        var heads: [String: Set<String>] = [:]
        for group in Nicknames.groups {
            #expect(Set(group.names).count == group.names.count, "\(group.formalName): \(group.names)")
            for name in group.formalNames {
                #expect(heads[group.language, default: []].insert(name).inserted,
                        "\(name) is a formal name of two \(group.language) groups: merge them")
            }
        }
    }

    @Test("alternatives go both ways, never hold the name itself, and never repeat")
    func alternativesAreSymmetric() {
        for name in Set(Nicknames.groups.flatMap(\.names)) {
            let alternatives = Nicknames.alternatives(of: name)
            #expect(!alternatives.isEmpty && !alternatives.contains(name), "\(name)")
            #expect(Set(alternatives).count == alternatives.count, "\(name): \(alternatives)")
            for other in alternatives {
                #expect(Nicknames.alternatives(of: other).contains(name), "\(name) → \(other) but not back")
            }
        }
    }

    @Test("the table is of a sensible size, English first, every language with groups")
    func size() {
        let groups = Nicknames.groups
        #expect((500...3000).contains(groups.count), "\(groups.count) groups")
        let names = Set(groups.flatMap(\.names))
        #expect((1000...10000).contains(names.count), "\(names.count) names")
        #expect(groups.allSatisfy { $0.names.count <= 20 }, "a group of more than 20 names is several groups")
        #expect(groups.first?.language == "English")
        let byLanguage = Dictionary(grouping: groups, by: \.language).mapValues(\.count)
        #expect(byLanguage["English", default: 0] >= 200)
        for language in ["German", "Dutch", "French", "Spanish", "Portuguese", "Italian", "Russian", "Ukrainian", "Polish",
                         "Scandinavian"] {
            #expect(byLanguage[language, default: 0] >= 10, "\(language): \(byLanguage[language, default: 0]) groups")
        }
    }

    @Test("a name looked up in the text finds the groups the table gives it, for every name of the data")
    func textAndTable() {
        let names = Set(Nicknames.groups.flatMap(\.names))
        for name in names.sorted() {
            #expect(Nicknames.Table.groups(containing: name, in: Nicknames.text) == Nicknames.table.groups(containing: name), "\(name)")
        }
        #expect(names.count > 1500)
    }

    @Test("the data's form: headings, comments, spellings, diminutives")
    func parsing() {
        let text = """
            # A comment.
            [English]
              robert:  rob bob   # trailing comment
            katherine catherine: kate

            [Welsh and more]
            dafydd dewi
            : orphan
            """
        let table = Nicknames.Table(parsing: text)
        #expect(table.malformedLines == [": orphan"])
        #expect(table.groups == [
            .init(formalNames: ["robert"], diminutives: ["rob", "bob"], language: "English"),
            .init(formalNames: ["katherine", "catherine"], diminutives: ["kate"], language: "English"),
            .init(formalNames: ["dafydd", "dewi"], diminutives: [], language: "Welsh and more"),
        ])
        #expect(table.groups[1].formalName == "katherine")
        // A name is looked up in the text itself as in the table.
        let bytes = Array(text.utf8)
        func alternatives(_ word: String) -> [String] {
            let groups = Nicknames.Table.groups(containing: word, in: bytes)
            #expect(groups == table.groups(containing: word), "\(word)")
            return Nicknames.alternatives(of: word, among: groups)
        }
        func formalNames(_ word: String) -> [String] {
            Nicknames.formalNames(for: word, among: Nicknames.Table.groups(containing: word, in: bytes))
        }
        #expect(alternatives("bob") == ["robert", "rob"])
        #expect(formalNames("bob") == ["robert"])
        #expect(alternatives("catherine") == ["katherine", "kate"])
        #expect(formalNames("catherine") == [])
        #expect(formalNames("kate") == ["katherine"])
        #expect(Nicknames.Table.groups(containing: "dewi", in: bytes) == [table.groups[2]], "under its heading")
        for absent in ["orphan", "comment", "trailing", "rober", "English", "kate katherine", ""] {
            #expect(Nicknames.Table.groups(containing: absent, in: bytes).isEmpty && table.groups(containing: absent).isEmpty,
                    "\(absent)")
        }
    }
}
