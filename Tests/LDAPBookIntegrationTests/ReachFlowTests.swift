import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
import Testing

@Suite("The reach flow, step by step, on a real directory")
struct ReachFlowTests {
    /// A fresh people container with the given people, and a book whose searches stay inside it.
    private func book(_ people: [(String?, String, [String])]) async throws -> AddressBook {
        let server = try await BookDirectory.shared()
        let connection = try await BookDirectory.connection(server)
        let base = try DistinguishedName(parsing: BookDirectory.suffix).child("ou", LDAPValue("reach-\(UUID().uuidString.prefix(8))"))
        try await connection.add(LDAPEntry(dn: base, ["objectClass": ["organizationalUnit"], "ou": [base.rdn!.attributes[0].value.string!]]))
        let scoped = LDAPConnection(configuration: .init(
            servers: connection.configuration.servers, base: base,
            authentication: connection.configuration.authentication, systemDefaults: .ignored))
        let book = AddressBook(connection: scoped, configuration: .init(peopleBase: base, naming: .commonName))
        let email = try await book.field(named: "email")
        for (given, surname, mails) in people {
            try await book.add(NewPerson(givenName: given, surname: surname, values: mails.isEmpty ? [] : [(email, mails.map { LDAPValue($0) })]))
        }
        return book
    }

    private func snapshot(_ book: AddressBook) async throws -> [String] {
        try await book.connection.search(attributes: ["*"]).collect()
            .map { entry in entry.dn.string + ":" + entry.attributes.map { "\($0.name)=\($0.values.map(\.lossyString).sorted())" }.sorted().joined(separator: ";") }
            .sorted()
    }

    @Test("1: one person with one value: confirm, then act")
    func stepOne() async throws {
        let book = try await book([("Ada", "Lovelace", ["ada@example.com"]), ("Alan", "Turing", [])])
        let presenter = ScriptedPresenter([.confirm(true)])
        let log = ActionLog()
        let outcome = try await book.reach(field: "email", name: "Ada Lovelace", presenter: presenter) { log.record($0, $1) }
        guard case .reached(let person, let value) = outcome else { Issue.record("not reached: \(outcome)"); return }
        #expect(person.commonNames == ["Ada Lovelace"])
        #expect(value == "ada@example.com")
        #expect(log.all.map(\.1) == ["ada@example.com"])
        #expect(presenter.unusedAnswers == 0)
    }

    @Test("1 declined: the list of step 3 opens, and the user can pick anyone there")
    func stepOneDeclined() async throws {
        let book = try await book([("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", [])])
        let presenter = ScriptedPresenter([.confirm(false), .choose(.item(0))])
        let log = ActionLog()
        let outcome = try await book.reach(field: "email", name: "ada", presenter: presenter) { log.record($0, $1) }
        guard case .reached = outcome else { Issue.record("not reached: \(outcome)"); return }
        guard case .menu(let menu) = presenter.shown[1] else { Issue.record("no menu"); return }
        #expect(menu.kind == .values)
        #expect(menu.items.count == 2, "the pair, then the name-only person")
        #expect(log.all.count == 1)
    }

    @Test("2: one person with several values: choose the value")
    func stepTwo() async throws {
        let book = try await book([("Grace", "Hopper", ["grace@example.com", "amazing@example.com"])])
        let presenter = ScriptedPresenter([.choose(.item(1))])
        let log = ActionLog()
        try await book.reach(field: "email", name: "grace", presenter: presenter) { log.record($0, $1) }
        guard case .menu(let menu) = presenter.shown[0] else { Issue.record("no menu"); return }
        #expect(menu.items.count == 2)
        let chosen = menu.items[1]
        guard case .value(_, let value) = chosen else { Issue.record("not a value"); return }
        #expect(log.all.map(\.1) == [value])
    }

    @Test("3: several people: every pair in rank order, then the name-only people, then add new")
    func stepThree() async throws {
        let book = try await book([
            ("Ada", "Lovelace", ["ada@example.com"]),
            ("Adam", "Smith", ["adam@example.com", "smith@example.com"]),
            ("Ada", "Adams", []),
            ("Adalbert", "Stifter", ["adalbert@example.com"]),
        ])
        let presenter = ScriptedPresenter([.choose(.item(0))])
        let log = ActionLog()
        try await book.reach(field: "email", name: "ada", presenter: presenter) { log.record($0, $1) }
        guard case .menu(let menu) = presenter.shown[0] else { Issue.record("no menu"); return }
        let names = menu.items.map { $0.candidate.person.commonNames[0] }
        // "Ada Adams" matches first and last name, but has no email: name-only, after the pairs.
        // Prefix matches of the first name rank by last name: Smith before Stifter.
        #expect(names == ["Ada Lovelace", "Adam Smith", "Adam Smith", "Adalbert Stifter", "Ada Adams"])
        #expect(log.all.map(\.1) == ["ada@example.com"], "exact first name ranks first")
    }

    @Test("4 and 5: several people with one of the two: choose, fill in, write back, confirm; the second call confirms at once")
    func stepsFourAndFive() async throws {
        let book = try await book([("Ada", "Lovelace", []), ("Ada", "Byron", []), ("Zed", "Other", ["zed@example.com"])])
        let presenter = ScriptedPresenter([.choose(.item(0)), .edit(EditAnswer(value: "ada@example.com")), .confirm(true)])
        let log = ActionLog()
        let outcome = try await book.reach(field: "email", name: "ada", presenter: presenter) { log.record($0, $1) }
        guard case .reached(let person, _) = outcome else { Issue.record("not reached: \(outcome)"); return }
        guard case .menu(let menu) = presenter.shown[0] else { Issue.record("no menu"); return }
        #expect(menu.kind == .people)
        #expect(menu.items.map { $0.candidate.tier } == [.nameOnly, .nameOnly], "Zed's address has nothing of ada: no candidate")
        #expect(log.all.map(\.1) == ["ada@example.com"])

        let again = ScriptedPresenter([.confirm(true)])
        let second = try await book.reach(field: "email", name: person.commonNames[0], presenter: again) { log.record($0, $1) }
        guard case .reached(let same, let value) = second else { Issue.record("not reached: \(second)"); return }
        #expect(same.dn == person.dn)
        #expect(value == "ada@example.com")
        #expect(again.shown.count == 1, "straight to the confirmation")
    }

    @Test("5: one person lacking the field: fill in, then confirm")
    func stepFive() async throws {
        let book = try await book([("Alan", "Turing", [])])
        let presenter = ScriptedPresenter([.edit(EditAnswer(value: "alan@example.com")), .confirm(true)])
        let log = ActionLog()
        try await book.reach(field: "email", name: "turing", presenter: presenter) { log.record($0, $1) }
        guard case .edit(let request) = presenter.shown[0] else { Issue.record("no edit"); return }
        #expect(request.needsValue && !request.needsName)
        #expect(request.problem(with: "not an address") != nil)
        #expect(log.all.map(\.1) == ["alan@example.com"])
        let again = ScriptedPresenter([.confirm(true)])
        try await book.reach(field: "email", name: "turing", presenter: again) { log.record($0, $1) }
        #expect(again.shown.count == 1)
    }

    @Test("5: one person whose name does not match but whose address does: add the name, then confirm")
    func stepFiveName() async throws {
        let book = try await book([("Augusta", "King", ["lovelace@example.com"])])
        let presenter = ScriptedPresenter([.edit(EditAnswer(givenName: "Ada", surname: "Lovelace")), .confirm(true)])
        let log = ActionLog()
        try await book.reach(field: "email", name: "Ada Lovelace", presenter: presenter) { log.record($0, $1) }
        guard case .edit(let request) = presenter.shown[0] else { Issue.record("no edit"); return }
        #expect(request.needsName && !request.needsValue)
        #expect(request.suggestedGivenName == "Ada" && request.suggestedSurname == "Lovelace")
        #expect(log.all.map(\.1) == ["lovelace@example.com"])
        let person = try #require(try await book.connection.search(filter: .equal("mail", "lovelace@example.com")).collect().first)
        #expect(Set(person.strings("givenName")) == ["Augusta", "Ada"])
        #expect(Set(person.strings("sn")) == ["King", "Lovelace"])
        let again = ScriptedPresenter([.confirm(true)])
        try await book.reach(field: "email", name: "Ada Lovelace", presenter: again) { log.record($0, $1) }
        #expect(again.shown.count == 1)
    }

    @Test("5 with cn-named entries: adding a name keeps the RDN's value, so the DN stays valid without a rename")
    func nameAddedUnderCommonNameRDN() async throws {
        let book = try await book([("Augusta", "King", ["lovelace@example.com"])])
        let before = try #require(try await book.connection.search(filter: .equal("mail", "lovelace@example.com")).collect().first)
        #expect(before.dn.rdn?.attributes.first?.type == "cn")
        let presenter = ScriptedPresenter([.edit(EditAnswer(givenName: "Ada", surname: "Lovelace")), .confirm(true)])
        try await book.reach(field: "email", name: "Ada Lovelace", presenter: presenter) { _, _ in }
        let after = try #require(try await book.connection.read(before.dn))
        #expect(Set(after.strings("cn")) == ["Augusta King", "Ada Lovelace"], "the RDN value stays; the new name is added")
    }

    @Test("6: nobody: create the entry, confirm, act; the second call confirms at once")
    func stepSix() async throws {
        let book = try await book([])
        let presenter = ScriptedPresenter([.create(CreateAnswer(givenName: "Grace", surname: "Hopper", value: "grace@example.com")), .confirm(true)])
        let log = ActionLog()
        try await book.reach(field: "email", name: "Grace Hopper", presenter: presenter) { log.record($0, $1) }
        guard case .create(let request) = presenter.shown[0] else { Issue.record("no create"); return }
        #expect(request.suggestedGivenName == "Grace" && request.suggestedSurname == "Hopper")
        #expect(log.all.map(\.1) == ["grace@example.com"])
        let again = ScriptedPresenter([.confirm(true)])
        try await book.reach(field: "email", name: "Grace Hopper", presenter: again) { log.record($0, $1) }
        #expect(again.shown.count == 1)
        #expect(log.all.count == 2)
    }

    @Test("6 from the list: add new entry")
    func addNewFromTheList() async throws {
        let book = try await book([("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", ["byron@example.com"])])
        let presenter = ScriptedPresenter([.choose(.addNewEntry), .create(CreateAnswer(givenName: "Ada", surname: "Yonath", value: "yonath@example.com")), .confirm(true)])
        let log = ActionLog()
        try await book.reach(field: "email", name: "ada", presenter: presenter) { log.record($0, $1) }
        #expect(log.all.map(\.1) == ["yonath@example.com"])
    }

    @Test("the create step names the namesakes of the new person, then adds a different person")
    func createNamesNamesakes() async throws {
        let book = try await book([("Ada", "Lovelace", ["ada@example.com"]), ("Ada", "Byron", ["byron@example.com"])])
        let presenter = ScriptedPresenter([.choose(.addNewEntry),
                                           .create(CreateAnswer(givenName: "Ada", surname: "Lovelace", value: "ada2@example.com")),
                                           .confirm(true)])
        let log = ActionLog()
        try await book.reach(field: "email", name: "ada", presenter: presenter) { log.record($0, $1) }
        let lovelace = try await book.namesakes(givenName: "Ada", surname: "Lovelace")
        #expect(lovelace.count == 2, "the new person is a second Ada Lovelace")
        #expect(presenter.notedNamesakes.count == 1 && presenter.notedNamesakes[0].count == 1)
        #expect(log.all.map(\.1) == ["ada2@example.com"])
    }

    @Test("a custom field goes through the same flow")
    func customField() async throws {
        let book = try await book([("Ada", "Lovelace", [])])
        let presenter = ScriptedPresenter([.edit(EditAnswer(value: "38")), .confirm(true)])
        let log = ActionLog()
        try await book.reach(field: "shoe-size", name: "ada", presenter: presenter) { log.record($0, $1) }
        #expect(log.all.map(\.1) == ["38"])
        let again = ScriptedPresenter([.confirm(true)])
        try await book.reach(field: "shoe-size", name: "ada", presenter: again) { log.record($0, $1) }
        #expect(again.shown.count == 1)
    }

    @Test("cancelling at any step writes nothing and does not act", arguments: [0, 1, 2, 3, 4])
    func cancelWritesNothing(_ step: Int) async throws {
        let people: [(String?, String, [String])] = switch step {
        case 0: [("Ada", "Lovelace", []), ("Ada", "King", ["king@example.com"])]
        case 4: []
        default: [("Ada", "Lovelace", []), ("Ada", "Byron", []), ("Ada", "King", ["king@example.com"]), ("Ada", "Kong", ["kong@example.com"])]
        }
        let book = try await book(people)
        let before = try await snapshot(book)
        let script: [ScriptedPresenter.Answer] = switch step {
        case 0: [.confirm(false), .choose(.cancel)]           // step 1 declined, then the list cancelled
        case 1: [.choose(.cancel)]                            // step 3
        case 2: [.choose(.item(2)), .edit(nil)]               // step 5 from the list
        case 3: [.choose(.addNewEntry), .create(nil)]         // step 6 from the list
        default: [.create(nil)]                                 // step 6
        }
        let presenter = ScriptedPresenter(script)
        let log = ActionLog()
        let outcome = try await book.reach(field: "email", name: "ada", presenter: presenter) { log.record($0, $1) }
        if case .reached = outcome { Issue.record("reached despite cancelling") }
        #expect(log.all.isEmpty)
        #expect(try await snapshot(book) == before)
    }

    @Test("every way out of every path writes nothing: cancel, decline, the last confirmation declined", arguments: [
        "edit cancelled", "edit declined", "create cancelled", "create declined", "value list cancelled after names",
        "field-only list cancelled", "added value declined", "new entry declined after the list",
    ])
    func everyWayOutWritesNothing(_ path: String) async throws {
        let book = try await book([
            ("Ada", "Lovelace", []), ("Augusta", "King", ["ada.king@example.com", "augusta@example.com"]),
            ("Grace", "Hopper", ["grace@example.com"]),
        ])
        let before = try await snapshot(book)
        let (name, options, script): (String, ReachOptions, [ScriptedPresenter.Answer]) = switch path {
        case "edit cancelled": ("lovelace", ReachOptions(), [.edit(nil)])
        case "edit declined": ("lovelace", ReachOptions(), [.edit(EditAnswer(value: "ada@example.com")), .confirm(false)])
        case "create cancelled": ("Yolanda Nobody", ReachOptions(), [.create(nil)])
        case "create declined": ("Yolanda Nobody", ReachOptions(),
                                 [.create(CreateAnswer(givenName: "Yolanda", surname: "Nobody", value: "y@example.com")), .confirm(false)])
        case "value list cancelled after names": ("ada", ReachOptions(),
                                                 [.choose(.item(1)), .edit(EditAnswer(givenName: "Ada", surname: "King")), .choose(.cancel)])
        case "field-only list cancelled": ("ada", ReachOptions(), [.choose(.cancel)])
        case "added value declined": ("grace hopper", ReachOptions(value: "amazing@example.com"), [.confirm(false), .choose(.cancel)])
        default: ("grace", ReachOptions(), [.confirm(false), .choose(.addNewEntry),
                                            .create(CreateAnswer(givenName: "Grace", surname: "Murray", value: "murray@example.com")),
                                            .confirm(false)])
        }
        let presenter = ScriptedPresenter(script)
        let log = ActionLog()
        let outcome = try await book.reach(field: "email", name: name, options: options, presenter: presenter) { log.record($0, $1) }
        if case .reached = outcome { Issue.record("reached on \(path)") }
        #expect(presenter.unusedAnswers == 0, "\(path): \(presenter.shown)")
        #expect(log.all.isEmpty)
        #expect(try await snapshot(book) == before, "\(path) wrote")
    }

    @Test("what the flow fills in is written once, after the last confirmation, which says what it writes")
    func oneWriteAtTheEnd() async throws {
        let book = try await book([("Augusta", "King", ["ada.king@example.com", "augusta@example.com"])])
        let presenter = ScriptedPresenter([.edit(EditAnswer(givenName: "Ada", surname: "Lovelace")), .choose(.item(0)), .confirm(true)])
        let outcome = try await book.reach(field: "email", name: "Ada Lovelace", presenter: presenter) { _, _ in }
        guard case .reached(let person, let value) = outcome else { Issue.record("not reached: \(outcome)"); return }
        #expect(value == "ada.king@example.com")
        guard case .confirm(let shown, _, let write) = presenter.shown[2] else { Issue.record("no confirmation"); return }
        #expect(shown.displayName.contains("Augusta") || shown.givenNames.contains("Ada"))
        guard case .fillIn(let added, let given, let surname)? = write else { Issue.record("no write announced"); return }
        #expect(added == nil && given == "Ada" && surname == "Lovelace")
        #expect(Set(person.givenNames) == ["Augusta", "Ada"])
    }

    @Test("field-only candidates are the people whose value starts with a word of the name, never everyone with the field")
    func plausibleCandidatesOnly() async throws {
        let strangers: [(String?, String, [String])] = (1...12).map { ("Person\($0)", "Stranger", ["p\($0)@example.com"]) }
        // Alan has no email, and nobody's address has anything of alan: straight to his editor.
        var book = try await self.book([("Alan", "Turing", [])] + strangers)
        var presenter = ScriptedPresenter([.edit(nil)])
        _ = try await book.reach(field: "email", name: "alan", presenter: presenter) { _, _ in }
        guard case .edit(let request) = presenter.shown.first else { Issue.record("no editor: \(presenter.shown)"); return }
        #expect(request.person.givenNames == ["Alan"] && request.needsValue)

        // One address starts with alan: the list holds Alan and that person, "add new entry" offered.
        book = try await self.book([("Alan", "Turing", []), ("Bob", "Builder", ["alan.t@example.com"])] + strangers)
        presenter = ScriptedPresenter([.choose(.cancel)])
        _ = try await book.reach(field: "email", name: "alan", presenter: presenter) { _, _ in }
        guard case .menu(let menu) = presenter.shown.first else { Issue.record("no list"); return }
        #expect(menu.items.map { $0.candidate.person.surnames[0] } == ["Turing", "Builder"])
        #expect(menu.items.map { $0.candidate.tier } == [.nameOnly, .fieldOnly])
        #expect(menu.moreAvailable, "the others with an email only on request")

        // Nobody: straight to creating the entry.
        book = try await self.book(strangers)
        presenter = ScriptedPresenter([.create(nil)])
        _ = try await book.reach(field: "email", name: "yolanda", presenter: presenter) { _, _ in }
        guard case .create = presenter.shown.first else { Issue.record("no create step: \(presenter.shown)"); return }
    }

    @Test("asked for, more shows the people whose value relates to the name, then anyone with the field")
    func browsingOnRequest() async throws {
        let book = try await book([("Alan", "Turing", []), ("Alan", "Kay", []), ("Zed", "Other", ["zed@example.com"])])
        let presenter = ScriptedPresenter([.choose(.showMore), .choose(.cancel)])
        _ = try await book.reach(field: "email", name: "alan", presenter: presenter) { _, _ in }
        guard case .menu(let first) = presenter.shown[0], case .menu(let second) = presenter.shown[1] else {
            Issue.record("no lists"); return
        }
        #expect(first.items.count == 2 && first.moreAvailable)
        #expect(second.items.count == 3 && !second.moreAvailable)
    }

    @Test("--new is a new person even when a confirmation would come first; a value for someone with values is added after yes")
    func optionsMeanWhatTheySay() async throws {
        let book = try await book([("Pieter", "van der Berg", ["pieter@example.com"])])
        let created = ScriptedPresenter([.create(CreateAnswer(givenName: "Johannes", surname: "van der Waals", value: "jd@waals.example")),
                                         .confirm(true)])
        let outcome = try await book.reach(field: "email", name: "van der Waals", options: ReachOptions(newEntry: true),
                                           presenter: created) { _, _ in }
        guard case .reached(let person, let value) = outcome else { Issue.record("not reached"); return }
        #expect(person.surnames == ["van der Waals"] && value == "jd@waals.example")

        let added = ScriptedPresenter([.confirm(true)])
        let second = try await book.reach(field: "email", name: "pieter", options: ReachOptions(value: "pvdb@example.com"),
                                          presenter: added) { _, _ in }
        guard case .reached(let pieter, let used) = second else { Issue.record("not reached"); return }
        #expect(used == "pvdb@example.com")
        #expect(Set(pieter.values(of: try await book.field(named: "email")).map(\.lossyString)) == ["pieter@example.com", "pvdb@example.com"])
        guard case .confirm(_, _, .fillIn(let value?, nil, nil)?) = added.shown[0] else { Issue.record("no write announced"); return }
        #expect(value == "pvdb@example.com")
    }

    @Test("a second value for a single-valued field is refused before anything is asked or written")
    func singleValuedRefused() async throws {
        let book = try await book([("Ada", "Lovelace", [])])
        let number = try await book.field(named: "employee-number")
        let ada = try #require(try await book.rank(field: nil, name: try NameQuery("ada lovelace")).uniqueFullMatch)
        try await book.add(["1815"], to: number, of: ada.person)
        let before = try await snapshot(book)
        let presenter = ScriptedPresenter([])
        let error = await #expect(throws: AddressBookError.self) {
            try await book.reach(field: "employee-number", name: "ada lovelace", options: ReachOptions(value: "1852"),
                                 presenter: presenter) { _, _ in }
        }
        #expect(error?.code == .tooManyValues)
        #expect(presenter.shown.isEmpty)
        #expect(try await snapshot(book) == before)
    }

    @Test("the one person every word means, without the field, is edited even when someone sharing a word has it")
    func uniqueFullMatchEdited() async throws {
        let book = try await book([("Adam", "Smith", []), ("Adam", "Jones", ["adam.jones@example.com"])])
        let presenter = ScriptedPresenter([.edit(EditAnswer(value: "adam.smith@example.com")), .confirm(true)])
        let outcome = try await book.reach(field: "email", name: "adam smith", presenter: presenter) { _, _ in }
        guard case .edit(let request) = presenter.shown.first else { Issue.record("no editor: \(presenter.shown)"); return }
        #expect(request.person.surnames == ["Smith"])
        guard case .reached(let person, let value) = outcome else { Issue.record("not reached"); return }
        #expect(person.surnames == ["Smith"] && value == "adam.smith@example.com")
    }

    @Test("an invalid value from the presenter is refused and nothing is written")
    func invalidAnswer() async throws {
        let book = try await book([("Alan", "Turing", [])])
        let before = try await snapshot(book)
        let presenter = ScriptedPresenter([.edit(EditAnswer(value: "not an address"))])
        let error = await #expect(throws: AddressBookError.self) {
            try await book.reach(field: "email", name: "turing", presenter: presenter) { _, _ in }
        }
        #expect(error?.code == .invalidValue)
        #expect(try await snapshot(book) == before)
    }
}
