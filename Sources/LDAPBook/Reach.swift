import LDAPKit

extension AddressBook {
    /// The most people of each tier ``reach(field:name:options:presenter:pageSize:action:)``
    /// lists at first, best first; `m` lists everyone. From the local index only they are
    /// read: `reach email jo` read the 12,000 people `jo` may mean at 100,000 entries (0.4 s).
    public static let reachLimit = 100

    /// Reaches a person: finds who `name` and `field` mean, resolves to
    /// exactly one value with the presenter's help, and runs `action` on it.
    ///
    /// 1. One (person, value) pair whose name matches and whose field is
    ///    populated, or one person who alone matches every word of the name
    ///    (``Ranking/uniqueFullMatch``) with one value: confirm, then act.
    ///    Declining opens the list of step 3.
    /// 2. One such person with several values, or 3. several people: choose a
    ///    value (or a name-only person, or "add new entry"), then act.
    /// 4. Nobody with both, several people with one of the two: choose the
    ///    person ("add new entry" first), then step 5. The people with the field
    ///    are those whose value relates to the name (an address that starts with
    ///    a word of it); the others only on request (``ReachMenu/Choice/showMore``).
    /// 5. One person with one of the two: fill in the missing value and/or
    ///    name, then confirm and act.
    /// 6. Nobody, "add new entry", or ``ReachOptions/newEntry``: describe the new
    ///    person, then confirm and act.
    ///
    /// Nothing is written before the last confirmation: what steps 5 and 6 collect
    /// is written once, when the user says yes, as one atomic modify or add
    /// (``ReachConfirmation/write``). Cancelling or declining at any step writes
    /// nothing and does not act. After step 5 or 6, reaching the same field and
    /// name again goes straight to step 1.
    ///
    /// ```swift
    /// let outcome = try await book.reach(field: "email", name: "Ada Lovelace", presenter: terminal) { person, address in
    ///     try await mailer.compose(to: address.string!)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - field: the field name (see ``FieldRegistry``).
    ///   - name: the person's name, as typed.
    ///   - options: what the caller already knows (a new person is meant; the value).
    ///   - presenter: draws the steps that need a decision.
    ///   - pageSize: how many more people with the field step 4 adds each time more are asked for.
    ///   - action: what to do with the chosen person and value.
    @discardableResult
    public func reach(
        field fieldName: String,
        name: String,
        options: ReachOptions = ReachOptions(),
        presenter: some ReachPresenter,
        pageSize: Int = 50,
        action: @Sendable (Person, LDAPValue) async throws -> Void
    ) async throws -> ReachOutcome {
        let field = try await field(named: fieldName)
        let query = try NameQuery(name)
        if let value = options.value { try field.validate([value]) }
        // The best few of each tier, which is all the index reads, unless a value is meant (its
        // holder may be anyone) or a remembered choice is not among them.
        var ranking = try await rank(field: field, name: query, limit: options.value == nil ? Self.reachLimit : nil)
        if !ranking.holdsEveryNameMatch, !options.remembered.isEmpty {
            let listed = Set((ranking.fieldAndName + ranking.nameOnly).map(\.person.dn.string))
            if options.remembered.contains(where: { !listed.contains($0) }) { ranking = try await rank(field: field, name: query) }
        }
        ranking = ranking.preferring(options.remembered)
        let flow = ReachFlow(book: self, field: field, query: query, ranking: ranking, options: options,
                             presenter: presenter, pageSize: max(pageSize, 1))
        do {
            guard let (person, value) = try await flow.run() else { return flow.endedByDecline ? .declined : .cancelled }
            try await action(person, value)
            return .reached(person, value)
        } catch is CancellationError {
            return .cancelled
        }
    }

    /// The one atomic, value-level change that adds what step 5 filled in: the field value
    /// (with the auxiliary class if needed) and the names (a `givenName`, an `sn` and the
    /// matching `cn`). Nothing is replaced. Checked before anything is sent.
    ///
    /// - Throws: ``AddressBookError`` for an invalid value or name, or a second value of a
    ///   single-valued field.
    func fillInChanges(_ person: Person, field: Field, value: LDAPValue?, givenName: String?, surname: String?)
        throws -> [LDAPModification]
    {
        var changes: [LDAPModification] = []
        if let value, !person.values(of: field).contains(value) {
            try field.validate([value])
            if field.isSingleValued && !person.values(of: field).isEmpty {
                throw AddressBookError(.tooManyValues, "\(field.name) holds a single value and \(person.displayName) already has one; "
                    + "replace it with ldapbook set --replace")
            }
            if field.needsLDAPBookClass && !person.hasLDAPBookClass {
                changes.append(.add("objectClass", LDAPValue(LDAPBookSchemaName.objectClass)))
            }
            changes.append(.add(field.attribute, field.stored(value)))
        }
        if givenName != nil || surname != nil {
            let nameField = Field(name: "name", attribute: "cn", kind: .text, isSingleValued: false, origin: .builtIn)
            try nameField.validate([givenName, surname].compactMap { $0 }.map { LDAPValue($0) })
            for name in [givenName, surname].compactMap({ $0 }) { try NewPerson.checkHasLetter(name) }
            if let givenName { changes.append(.add("givenName", LDAPValue(givenName))) }
            if let surname { changes.append(.add("sn", LDAPValue(surname))) }
            let full = [givenName ?? person.givenNames.first, surname ?? person.surnames.first].compactMap { $0 }.joined(separator: " ")
            if !full.isEmpty { changes.append(.add("cn", LDAPValue(full))) }
        }
        return changes
    }
}

/// One run of the reach flow; see ``AddressBook/reach(field:name:options:presenter:pageSize:action:)``.
private final class ReachFlow<Presenter: ReachPresenter> {
    let book: AddressBook
    let field: Field
    let query: NameQuery
    private(set) var ranking: Ranking
    let options: ReachOptions
    let presenter: Presenter
    let pageSize: Int
    private(set) var endedByDecline = false

    init(book: AddressBook, field: Field, query: NameQuery, ranking: Ranking, options: ReachOptions, presenter: Presenter,
         pageSize: Int) {
        self.book = book
        self.field = field
        self.query = query
        self.ranking = ranking
        self.options = options
        self.presenter = presenter
        self.pageSize = pageSize
    }

    /// The chosen person and value, or `nil` when cancelled or declined.
    func run() async throws -> (Person, LDAPValue)? {
        if options.newEntry { return try await create() }
        let pairs = ranking.fieldAndNamePairs
        // One person matches every word of the name: they are the one meant, whoever else
        // shares a word of it; declining shows everyone.
        if let only = ranking.uniqueFullMatch {
            // One value, or the value meant (theirs already, or to be added): confirm it.
            if only.values.count == 1 || (options.value != nil && !only.values.isEmpty) {
                return try await confirmOrList(only, only.values[0])
            }
            // Several values: theirs to choose from; everyone else on request.
            if only.values.count > 1 { return try await chooseValue(of: only) }
            // Without the field, and nobody's value relates to the name: their editor, whoever
            // else shares a word of the name (`adam smith` is not Adam Jones, who has one).
            if only.values.isEmpty, try await relatedPeople().isEmpty { return try await edit(only) }
        }
        // The value meant is one person's already: that person.
        if let wanted = options.value {
            let holders = pairs.filter { $0.value == wanted }
            if holders.count == 1 { return try await confirmOrList(holders[0].candidate, wanted) }
        }
        if pairs.count == 1 { return try await confirmOrList(pairs[0].candidate, pairs[0].value) }
        if pairs.count > 1 { return try await chooseValue() }
        // Case 2: the people the name matches, and those whose value relates to it.
        let people = ranking.nameOnly + (try await relatedPeople())
        if people.isEmpty {
            // Nobody, as the local index has it: the server says whether anyone came since,
            // before a new entry is offered, so that nobody is added twice. Without the index,
            // or while another ldapbook brings it up to date, the server is asked again,
            // forgiving a typo or an accent past the first letters.
            var refreshed = false, busy = false
            do {
                refreshed = try await book.refreshIndexBeforeConcluding()
            } catch is PeopleIndex.SyncUnderWay {
                busy = true
            }
            let indexed = try await book.usableIndex() != nil
            if refreshed || !indexed || busy {
                ranking = try await book.rank(field: field, name: query, forgiving: !refreshed).preferring(options.remembered)
                related = nil
                let byValue = try await relatedPeople()
                if !ranking.fieldAndName.isEmpty || !ranking.nameOnly.isEmpty || !byValue.isEmpty { return try await run() }
            }
            return try await create()
        }
        // One person to fill in, when every word of the name is theirs, or when nobody's name
        // matched and the one person's value relates to it; a person only some words match
        // is offered among the choices, with a new entry, never filled in unasked.
        if people.count == 1, ranking.nameOnly.isEmpty || people[0].score.matchedWords == query.tokens.count {
            return try await edit(people[0])
        }
        return try await choosePerson(people)
    }

    /// The field-only people whose value relates to the name, all of them (the cursor reads
    /// them at once), so that a list's filter searches every candidate; read once.
    private func relatedPeople() async throws -> [Candidate] {
        if let related { return related }
        let read = try await ranking.fieldOnly?.next(.max) ?? []
        related = read
        return read
    }

    private var related: [Candidate]?

    /// Ranks everyone the name matches, when the lists held only the best (`m`).
    private func rankEveryone() async throws {
        ranking = try await book.rank(field: field, name: query).preferring(options.remembered)
        related = nil
    }

    /// Step 1: confirm; declining opens the list of steps 2 and 3.
    private func confirmOrList(_ candidate: Candidate, _ value: LDAPValue) async throws -> (Person, LDAPValue)? {
        let (value, added) = meant(candidate.person, value)
        if let reached = try await finish(candidate.person, value, adding: added, declining: .opensTheList) {
            return reached
        }
        return try await chooseValue()
    }

    /// Steps 2 and 3 (and step 1 declined).
    private func chooseValue() async throws -> (Person, LDAPValue)? {
        endedByDecline = false
        let items = ranking.fieldAndNamePairs.map { ReachMenu.Item.value($0.candidate, $0.value) }
            + ranking.nameOnly.map { ReachMenu.Item.person($0) }
        // The best of many: everyone on request.
        let limited = !ranking.holdsEveryNameMatch
        let menu = ReachMenu(kind: .values, field: field, query: query, items: items, moreAvailable: limited, bestOnly: limited)
        switch try await presenter.choose(from: menu) {
        case .showMore where limited:
            try await rankEveryone()
            return try await chooseValue()
        case .item(let index) where items.indices.contains(index):
            switch items[index] {
            case .value(let candidate, let value):
                let (value, added) = meant(candidate.person, value)
                return try await finish(candidate.person, value, adding: added, picked: true)
            case .person(let candidate):
                return try await edit(candidate)
            }
        case .addNewEntry:
            return try await create()
        case .item, .showMore, .cancel:
            return nil
        }
    }

    /// Step 2 for the one person every word means: their values; everyone else's on `m`.
    private func chooseValue(of only: Candidate) async throws -> (Person, LDAPValue)? {
        let items = only.values.map { ReachMenu.Item.value(only, $0) }
        let menu = ReachMenu(kind: .values, field: field, query: query, items: items, moreAvailable: true)
        switch try await presenter.choose(from: menu) {
        case .item(let index) where items.indices.contains(index):
            let (value, added) = meant(only.person, only.values[index])
            return try await finish(only.person, value, adding: added, picked: true)
        case .showMore:
            return try await chooseValue()
        case .addNewEntry:
            return try await create()
        case .item, .cancel:
            return nil
        }
    }

    /// Step 4, loading more field-only people when asked: more whose value relates to the
    /// name, then anyone with the field.
    private func choosePerson(_ initial: [Candidate]) async throws -> (Person, LDAPValue)? {
        var people = initial
        while true {
            // The best of many name matches: everyone first, then more field-only people.
            let limited = !ranking.holdsEveryNameMatch
            let fieldOnlyMore = await ranking.fieldOnly?.hasMore ?? false
            let more = limited || fieldOnlyMore
            let menu = ReachMenu(kind: .people, field: field, query: query, items: people.map { .person($0) },
                                 moreAvailable: more, bestOnly: limited)
            switch try await presenter.choose(from: menu) {
            case .item(let index) where people.indices.contains(index):
                return try await edit(people[index])
            case .addNewEntry:
                return try await create()
            case .showMore where limited:
                try await rankEveryone()
                people = ranking.nameOnly + (try await relatedPeople())
            case .showMore where more:
                people += try await ranking.fieldOnly?.more(pageSize) ?? []
            case .item, .showMore, .cancel:
                return nil
            }
        }
    }

    /// Step 5: fill in what the person lacks, then confirm; written only on yes.
    private func edit(_ candidate: Candidate) async throws -> (Person, LDAPValue)? {
        let guess = query.guessedNames
        // Someone found by their value alone is named otherwise: their name is what is missing,
        // unless what was typed is no name (a phone number, an address).
        let needsName = candidate.tier == .fieldOnly && query.isAName
        let request = EditRequest(person: candidate.person, field: field, needsValue: candidate.values.isEmpty,
                                  needsName: needsName, suggestedGivenName: guess.given, suggestedSurname: guess.surname,
                                  suggestedValue: options.value)
        guard let answer = try await presenter.edit(request) else { return nil }
        var added = Additions()
        if needsName {
            added.givenName = answer.givenName?.trimmingWhitespace().nonEmpty
            added.surname = answer.surname?.trimmingWhitespace().nonEmpty
        }
        let person = candidate.person
        if request.needsValue {
            guard let value = answer.value ?? options.value else { return nil }
            added.value = value
            return try await finish(person, value, adding: added)
        }
        // The person has values: the one meant, the only one, or the one chosen.
        if options.value != nil || candidate.values.count == 1 {
            let (value, withValue) = meant(person, candidate.values[0])
            added.value = withValue.value
            return try await finish(person, value, adding: added)
        }
        let items = candidate.values.map { ReachMenu.Item.value(candidate, $0) }
        let menu = ReachMenu(kind: .values, field: field, query: query, items: items, moreAvailable: false)
        guard case .item(let index) = try await presenter.choose(from: menu), items.indices.contains(index) else {
            return nil
        }
        return try await finish(person, candidate.values[index], adding: added)
    }

    /// Step 6: describe a new person, then confirm; added only on yes.
    private func create() async throws -> (Person, LDAPValue)? {
        endedByDecline = false
        let guess = query.guessedNames
        let request = CreateRequest(field: field, suggestedGivenName: guess.given, suggestedSurname: guess.surname,
                                    suggestedValue: options.value)
        guard let answer = try await presenter.create(request) else { return nil }
        let newPerson = NewPerson(givenName: answer.givenName, surname: answer.surname, values: [(field, [answer.value])])
        // Checked, and shown as it will be, before anything is asked or sent.
        let draft = Person(entry: try book.draftEntry(for: newPerson))
        let namesakes = try await book.namesakes(givenName: answer.givenName, surname: answer.surname)
        if !namesakes.isEmpty { try await presenter.noteNamesakes(namesakes, of: answer) }
        let holders = try await book.holders(of: answer.value, in: field)
        if !holders.isEmpty { try await presenter.noteHolders(holders, of: answer, field: field) }
        let confirmation = ReachConfirmation(person: draft, value: answer.value, field: field, write: .newPerson(newPerson))
        guard try await presenter.confirm(confirmation) else {
            endedByDecline = true
            return nil
        }
        return (try await book.add(newPerson), answer.value)
    }

    /// What a person with values is reached by: `value`, or ``ReachOptions/value``, which
    /// is added when they lack it.
    private func meant(_ person: Person, _ value: LDAPValue) -> (LDAPValue, Additions) {
        guard let wanted = options.value else { return (value, Additions()) }
        return (wanted, Additions(value: person.values(of: field).contains(wanted) ? nil : wanted))
    }

    /// What declining the last confirmation does.
    private enum Declining { case ends, opensTheList }

    /// The last step: asks to act on `value` of `person`, with `added` written first, once,
    /// when the user says yes. A value `picked` from a list is acted on without asking again,
    /// unless something is to be written.
    private func finish(_ person: Person, _ value: LDAPValue, adding added: Additions,
                        declining: Declining = .ends, picked: Bool = false) async throws -> (Person, LDAPValue)? {
        // Checked before anything is asked: a refusal says why, and nothing is sent.
        let changes = try book.fillInChanges(person, field: field, value: added.value, givenName: added.givenName,
                                             surname: added.surname)
        let write: ReachWrite? = changes.isEmpty ? nil
            : .fillIn(value: added.value, givenName: added.givenName, surname: added.surname)
        if picked && changes.isEmpty { return (person, value) }
        let confirmation = ReachConfirmation(person: person.adding(changes), value: value, field: field, write: write)
        guard try await presenter.confirm(confirmation) else {
            if declining == .ends { endedByDecline = true }
            return nil
        }
        guard !changes.isEmpty else { return (person, value) }
        // The server says who is at that DN now: a stale index never sends a write to the
        // wrong person.
        let confirmed = try await book.confirmed(person, fields: [field])
        let written = try book.fillInChanges(confirmed, field: field, value: added.value, givenName: added.givenName,
                                             surname: added.surname)
        guard !written.isEmpty else { return (confirmed, value) }
        return (try await book.apply(written, to: confirmed.dn, reading: [field]), value)
    }
}

/// What step 5 collected, to be added to a person when the user confirms.
private struct Additions {
    var value: LDAPValue?
    var givenName: String?
    var surname: String?
}

extension Person {
    /// The person with `additions` made in memory: what a confirmation shows before they are sent.
    func adding(_ additions: [LDAPModification]) -> Person {
        var entry = self.entry
        for change in additions {
            var values = entry[change.attribute]
            for value in change.values where !values.contains(value) { values.append(value) }
            entry[change.attribute] = values
        }
        return Person(entry: entry)
    }
}

extension String {
    /// The string, or `nil` when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
