import LDAPBook
import LDAPKit
import Synchronization
import TerminalUI

/// Answers given on the command line, so every step can run without asking.
struct ReachAnswers: Sendable {
    /// `--yes`: confirm.
    var yes = false
    /// `--pick`, in order: the answer to each list the flow shows, one after the other: a
    /// number as listed (from 1), a DN, or a value.
    var picks: [String] = []
    /// `--given G`: the first name for a new or edited record.
    var givenName: String?
    /// `--surname S`: the last name for a new or edited record.
    var surname: String?
    /// `--no-input`: never ask; a step without an answer ends with exit 3.
    var noInput = false
}

/// Draws the reach flow on the terminal (never on stdout), or answers it from
/// the command line. A step whose answer is on the command line asks nothing.
final class CommandLinePresenter: ReachPresenter {
    private let answers: ReachAnswers
    private let prompter: (any Prompter)?
    /// What the action does, for the confirmation's question.
    private let action: ReachAction
    /// How many `--pick` answers the lists have taken.
    private let picksTaken = Mutex(0)

    /// - Parameter prompter: where to ask; `nil` under `--no-input`.
    init(answers: ReachAnswers, action: ReachAction, prompter: (any Prompter)?) {
        self.answers = answers
        self.action = action
        self.prompter = prompter
    }

    private func askOrFail(_ what: String, _ choices: [String] = []) throws -> any Prompter {
        guard let prompter else {
            throw CommandFailure(.inputNeeded, "input needed: \(what)", details: choices)
        }
        return prompter
    }

    static func shown(_ value: LDAPValue, _ field: Field) -> String {
        field.kind.isBinary ? "<\(value.count) bytes>" : value.lossyString
    }

    func confirm(_ confirmation: ReachConfirmation) async throws -> Bool {
        if answers.yes { return true }
        var question = action.question(confirmation)
        if let write = confirmation.write {
            // What saying yes writes first: "This adds email … to Alan Turing.", "This adds a new entry for …".
            let summary = write.summary(field: confirmation.field)
            if case .newPerson = write {
                question = "This \(summary). " + question
            } else {
                question = "This \(summary) to \(confirmation.person.displayName). " + question
            }
        }
        let prompter = try askOrFail("\(question) (answer with --yes)")
        do {
            return try await prompter.confirm(question, defaultAnswer: false)
        } catch PromptError.cancelled {
            // Esc or end of input at a confirmation stops the flow like any cancel.
            throw CancellationError()
        }
    }

    /// The lines of a menu as shown (and numbered for `--pick`): each person's name, the value
    /// (or values), and what tells namesakes apart (title, department, organisation).
    static func items(of menu: ReachMenu) -> [PickerItem] {
        menu.items.map { item in
            let person = item.candidate.person
            let details = person.details.isEmpty ? "" : "  — " + person.details.joined(separator: ", ")
            switch item {
            case .value(_, let value):
                return PickerItem(title: person.displayName, detail: shown(value, menu.field) + details)
            case .person(let candidate):
                let values = candidate.values.prefix(3).map { shown($0, menu.field) }.joined(separator: ", ")
                let detail = values.isEmpty ? "no \(menu.field.name)" : values
                return PickerItem(title: person.displayName, detail: "\(detail)  (\(candidate.tier?.rawValue ?? "name"))\(details)")
            }
        }
    }

    /// The picker filter of a list of people: what a line shows, and the person's names,
    /// matched by the name matcher.
    static func filter(_ items: [PickerItem], people: [Person]) -> PickerFilter {
        let texts = zip(items, people).map { item, person in [item.title, item.detail ?? ""] + person.matchableNames }
        return { typed, index in NameMatcher.filter(typed, matches: texts[index]) }
    }

    func choose(from menu: ReachMenu) async throws -> ReachMenu.Choice {
        let items = Self.items(of: menu)
        // Each list takes the next --pick; nothing is written before the end, so the numbers
        // of every list are those it shows.
        let pick = picksTaken.withLock { taken -> String? in
            guard taken < answers.picks.count else { return nil }
            taken += 1
            return answers.picks[taken - 1]
        }
        if let pick {
            do {
                return .item(try Self.item(pick, in: menu))
            } catch where menu.bestOnly && Int(pick) == nil {
                // A DN or value not among the best listed: the list of everyone takes it.
                picksTaken.withLock { $0 -= 1 }
                return .showMore
            }
        }
        let title = menu.kind == .values
            ? "Which \(menu.field.name) for \"\(menu.query)\"?"
            : "Who is \"\(menu.query)\"? (choose to fill in what is missing)"
        let listing = items.enumerated().map { "  \($0.offset + 1)) \($0.element.title) — \($0.element.detail ?? "")" }
            + (menu.bestOnly ? ["  (more match: the best are listed; a DN or a value picks from everyone)"] : [])
            + ["  (--pick N, a DN or a value; or --new to add a new entry)"]
        let prompter = try askOrFail(title, listing)
        switch try await prompter.pick(title: title, items: items, extraAction: "add new entry",
                                       extraActionFirst: menu.kind == .people, moreAvailable: menu.moreAvailable,
                                       filter: Self.filter(items, people: menu.items.map(\.candidate.person))) {
        case .item(let index): return .item(index)
        case .extra: return .addNewEntry
        case .more: return .showMore
        case .cancelled: return .cancel
        }
    }

    /// The index of the item `pick` names: a number as listed, a DN, or a value shown.
    static func item(_ pick: String, in menu: ReachMenu) throws -> Int {
        if let number = Int(pick) {
            guard menu.items.indices.contains(number - 1) else {
                throw CommandFailure(.usage, "--pick \(number): the list has \(menu.items.count) entr\(menu.items.count == 1 ? "y" : "ies")")
            }
            return number - 1
        }
        if let dn = try? DistinguishedName(parsing: pick),
           let index = menu.items.firstIndex(where: { $0.candidate.person.dn == dn }) {
            return index
        }
        if let index = menu.items.firstIndex(where: { item in
            if case .value(_, let value) = item { return value.lossyString == pick }
            return item.candidate.values.contains { $0.lossyString == pick }
        }) {
            return index
        }
        throw CommandFailure(.usage, "--pick \(Diagnostics.quoting(pick)): no entry of the list has that number, DN or value")
    }

    func edit(_ request: EditRequest) async throws -> EditAnswer? {
        var answer = EditAnswer()
        if request.needsName {
            // Names given on the command line are taken as they are, none completed by a guess:
            // this person is named otherwise, and only the user can say what to add.
            let named = answers.givenName != nil || answers.surname != nil
            answer.givenName = named ? answers.givenName : request.suggestedGivenName
            answer.surname = named ? answers.surname : request.suggestedSurname
        }
        if request.needsValue, let value = request.suggestedValue {
            answer.value = value
        }
        let valueMissing = request.needsValue && answer.value == nil
        // Names guessed from the query are only a suggestion: someone found by the field alone
        // is someone else until the user says what to call them, here or with --given/--surname.
        let namesUnconfirmed = request.needsName && answers.givenName == nil && answers.surname == nil
        guard valueMissing || namesUnconfirmed else { return answer }

        let person = request.person.displayName
        var missing: [String] = []
        if namesUnconfirmed {
            missing.append("the names to add to \(person), who has \(request.field.name) but another name "
                + "(answer with --given and --surname)")
        }
        if valueMissing { missing.append("\(request.field.name) for \(person) (answer with --value)") }
        let prompter = try askOrFail(missing.joined(separator: "; "))
        var fields: [FormField] = []
        if request.needsName {
            fields.append(FormField(label: "First name", value: answer.givenName ?? ""))
            fields.append(FormField(label: "Last name", value: answer.surname ?? "", validate: { $0.isEmpty ? "required" : nil }))
        }
        if request.needsValue {
            fields.append(FormField(label: request.field.name, value: answer.value?.lossyString ?? "",
                                    validate: { request.problem(with: LDAPValue($0)) }))
        }
        guard let filled = try await prompter.form(title: "Fill in \(person)", fields: fields) else { return nil }
        var index = 0
        if request.needsName {
            answer.givenName = filled[0]
            answer.surname = filled[1]
            index = 2
        }
        if request.needsValue { answer.value = LDAPValue(filled[index]) }
        return answer
    }

    func create(_ request: CreateRequest) async throws -> CreateAnswer? {
        let given = answers.givenName ?? request.suggestedGivenName
        let surname = answers.surname ?? request.suggestedSurname
        if let value = request.suggestedValue {
            return CreateAnswer(givenName: given, surname: surname, value: value)
        }
        let prompter = try askOrFail("a new entry's \(request.field.name) (answer with --value)")
        let fields = [
            FormField(label: "First name", value: given ?? ""),
            FormField(label: "Last name", value: surname, validate: { $0.isEmpty ? "required" : nil }),
            FormField(label: request.field.name, value: "", validate: { request.problem(with: LDAPValue($0)) }),
        ]
        guard let filled = try await prompter.form(title: "New entry", fields: fields) else { return nil }
        return CreateAnswer(givenName: filled[0].isEmpty ? nil : filled[0], surname: filled[1], value: LDAPValue(filled[2]))
    }

    func noteNamesakes(_ namesakes: [Person], of answer: CreateAnswer) async throws {
        Diagnostics.say(NamesakeNote.text(namesakes, name: NewPerson(givenName: answer.givenName, surname: answer.surname).commonName))
    }

    func noteHolders(_ holders: [Person], of answer: CreateAnswer, field: Field) async throws {
        let listed = holders.prefix(5).map { "\($0.displayName)'s (\($0.dn))" }.joined(separator: "; ")
        let whose = holders.count == 1 ? "already \(listed)" : "already \(holders.count) people's: \(listed)"
        Diagnostics.say("note: \(field.name) \(answer.value.lossyString) is \(whose); this adds a different person with it")
    }
}

/// The note that someone of the same name exists already, for `add` and reach's create step.
enum NamesakeNote {
    static func text(_ namesakes: [Person], name: String) -> String {
        let listed = namesakes.prefix(5).map { person in
            person.dn.string + (person.entry.string("mail").map { " <\($0)>" } ?? "")
        }
        let more = namesakes.count > listed.count ? "; and more" : ""
        let who = namesakes.count == 1 ? "someone named \(name) exists already" : "\(namesakes.count)\(more.isEmpty ? "" : "+") people named \(name) exist already"
        return "note: \(who) (\(listed.joined(separator: "; "))\(more)); this adds a different person"
    }
}
