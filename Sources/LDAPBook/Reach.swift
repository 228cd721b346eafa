import LDAPKit

extension AddressBook {
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
    ///    person, then step 5.
    /// 5. One person with one of the two: fill in the missing value and/or
    ///    name, written back value by value, then confirm and act.
    /// 6. Nobody, or "add new entry": describe the new person, who is added;
    ///    then confirm and act.
    ///
    /// After step 5 or 6, reaching the same field and name again goes
    /// straight to step 1. Cancelling at any step writes nothing and does not act.
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
    ///   - presenter: draws the steps that need a decision.
    ///   - pageSize: how many field-only people step 4 lists at a time.
    ///   - action: what to do with the chosen person and value.
    @discardableResult
    public func reach(
        field fieldName: String,
        name: String,
        presenter: some ReachPresenter,
        pageSize: Int = 50,
        action: @Sendable (Person, LDAPValue) async throws -> Void
    ) async throws -> ReachOutcome {
        let field = try await field(named: fieldName)
        let query = try NameQuery(name)
        let ranking = try await rank(field: field, name: query)
        let flow = ReachFlow(book: self, field: field, query: query, ranking: ranking, presenter: presenter,
                             pageSize: max(pageSize, 1))
        do {
            guard let (person, value) = try await flow.run() else { return flow.endedByDecline ? .declined : .cancelled }
            try await action(person, value)
            return .reached(person, value)
        } catch is CancellationError {
            return .cancelled
        }
    }

    /// Adds what step 5 filled in, in one atomic, value-level change: the
    /// field value (with the auxiliary class if needed) and the names (a
    /// `givenName`, an `sn` and the matching `cn`). Nothing is replaced.
    func fillIn(_ person: Person, field: Field, value: LDAPValue?, givenName: String?, surname: String?)
        async throws -> Person
    {
        var changes: [LDAPModification] = []
        if let value {
            try field.validate([value])
            if field.isSingleValued && !person.values(of: field).isEmpty && !person.values(of: field).contains(value) {
                throw AddressBookError(.tooManyValues, "\(field.name) holds a single value and \(person.displayName) already has one")
            }
            if field.needsLDAPBookClass && !person.hasLDAPBookClass {
                changes.append(.add("objectClass", LDAPValue(LDAPBookSchemaName.objectClass)))
            }
            changes.append(.add(field.attribute, field.stored(value)))
        }
        let given = givenName?.trimmingWhitespace().nonEmpty
        let sn = surname?.trimmingWhitespace().nonEmpty
        if given != nil || sn != nil {
            let nameField = Field(name: "name", attribute: "cn", kind: .text, isSingleValued: false, origin: .builtIn)
            try nameField.validate([given, sn].compactMap { $0 }.map { LDAPValue($0) })
            if let given { changes.append(.add("givenName", LDAPValue(given))) }
            if let sn { changes.append(.add("sn", LDAPValue(sn))) }
            let full = [given ?? person.givenNames.first, sn ?? person.surnames.first].compactMap { $0 }.joined(separator: " ")
            if !full.isEmpty { changes.append(.add("cn", LDAPValue(full))) }
        }
        guard !changes.isEmpty else { return person }
        return try await apply(changes, to: person.dn, reading: [field])
    }
}

/// One run of the reach flow; see ``AddressBook/reach(field:name:presenter:pageSize:action:)``.
private final class ReachFlow<Presenter: ReachPresenter> {
    let book: AddressBook
    let field: Field
    let query: NameQuery
    let ranking: Ranking
    let presenter: Presenter
    let pageSize: Int
    private(set) var endedByDecline = false

    init(book: AddressBook, field: Field, query: NameQuery, ranking: Ranking, presenter: Presenter, pageSize: Int) {
        self.book = book
        self.field = field
        self.query = query
        self.ranking = ranking
        self.presenter = presenter
        self.pageSize = pageSize
    }

    /// The chosen person and value, or `nil` when cancelled or declined.
    func run() async throws -> (Person, LDAPValue)? {
        let pairs = ranking.fieldAndNamePairs
        // One person matches every word of the name: they are the one meant, whoever else
        // shares a word of it; declining shows everyone.
        if let only = ranking.uniqueFullMatch {
            if only.values.count == 1 {
                if try await presenter.confirm(person: only.person, value: only.values[0], field: field) {
                    return (only.person, only.values[0])
                }
                return try await chooseValue()
            }
            if only.values.isEmpty && pairs.isEmpty { return try await edit(only) }
        }
        if pairs.count == 1 {
            let (candidate, value) = pairs[0]
            if try await presenter.confirm(person: candidate.person, value: value, field: field) {
                return (candidate.person, value)
            }
            return try await chooseValue()
        }
        if pairs.count > 1 {
            return try await chooseValue()
        }
        let fieldOnly = try await ranking.fieldOnly?.next(pageSize) ?? []
        let exhausted = await ranking.fieldOnly?.isExhausted ?? true
        let people = ranking.nameOnly + fieldOnly
        if people.isEmpty {
            return try await create()
        }
        if people.count == 1 && exhausted {
            return try await edit(people[0])
        }
        return try await choosePerson(people, exhausted: exhausted)
    }

    /// Steps 2 and 3 (and step 1 declined).
    private func chooseValue() async throws -> (Person, LDAPValue)? {
        let items = ranking.fieldAndNamePairs.map { ReachMenu.Item.value($0.candidate, $0.value) }
            + ranking.nameOnly.map { ReachMenu.Item.person($0) }
        let menu = ReachMenu(kind: .values, field: field, query: query, items: items, moreAvailable: false)
        switch try await presenter.choose(from: menu) {
        case .item(let index) where items.indices.contains(index):
            switch items[index] {
            case .value(let candidate, let value): return (candidate.person, value)
            case .person(let candidate): return try await edit(candidate)
            }
        case .addNewEntry:
            return try await create()
        case .item, .showMore, .cancel:
            return nil
        }
    }

    /// Step 4, loading more field-only people when asked.
    private func choosePerson(_ initial: [Candidate], exhausted initiallyExhausted: Bool) async throws -> (Person, LDAPValue)? {
        var people = initial
        var exhausted = initiallyExhausted
        while true {
            let menu = ReachMenu(kind: .people, field: field, query: query, items: people.map { .person($0) },
                                 moreAvailable: !exhausted)
            switch try await presenter.choose(from: menu) {
            case .item(let index) where people.indices.contains(index):
                return try await edit(people[index])
            case .addNewEntry:
                return try await create()
            case .showMore where !exhausted:
                people += try await ranking.fieldOnly?.next(pageSize) ?? []
                exhausted = await ranking.fieldOnly?.isExhausted ?? true
            case .item, .showMore, .cancel:
                return nil
            }
        }
    }

    /// Step 5: fill in what the person lacks, write it back, then confirm.
    private func edit(_ candidate: Candidate) async throws -> (Person, LDAPValue)? {
        let guess = query.guessedNames
        let request = EditRequest(person: candidate.person, field: field, needsValue: candidate.values.isEmpty,
                                  needsName: !candidate.score.match.matches,
                                  suggestedGivenName: guess.given, suggestedSurname: guess.surname)
        guard let answer = try await presenter.edit(request) else { return nil }
        if request.needsValue && answer.value == nil {
            return nil
        }
        let updated = try await book.fillIn(candidate.person, field: field, value: request.needsValue ? answer.value : nil,
                                            givenName: request.needsName ? answer.givenName : nil,
                                            surname: request.needsName ? answer.surname : nil)
        let values = updated.values(of: field)
        let value: LDAPValue
        if let entered = answer.value, request.needsValue {
            value = entered
        } else if values.count == 1 {
            value = values[0]
        } else {
            let refreshed = Candidate(person: updated, tier: .fieldAndName, score: candidate.score, values: values)
            let items = values.map { ReachMenu.Item.value(refreshed, $0) }
            let menu = ReachMenu(kind: .values, field: field, query: query, items: items, moreAvailable: false)
            guard case .item(let index) = try await presenter.choose(from: menu), items.indices.contains(index) else {
                return nil
            }
            return (updated, values[index])
        }
        return try await confirm(updated, value)
    }

    /// Step 6: describe and add a new person, then confirm.
    private func create() async throws -> (Person, LDAPValue)? {
        let guess = query.guessedNames
        let request = CreateRequest(field: field, suggestedGivenName: guess.given, suggestedSurname: guess.surname)
        guard let answer = try await presenter.create(request) else { return nil }
        let namesakes = try await book.namesakes(givenName: answer.givenName, surname: answer.surname)
        if !namesakes.isEmpty { try await presenter.noteNamesakes(namesakes, of: answer) }
        let person = try await book.add(NewPerson(givenName: answer.givenName, surname: answer.surname,
                                                  values: [(field, [answer.value])]))
        return try await confirm(person, answer.value)
    }

    private func confirm(_ person: Person, _ value: LDAPValue) async throws -> (Person, LDAPValue)? {
        if try await presenter.confirm(person: person, value: value, field: field) {
            return (person, value)
        }
        endedByDecline = true
        return nil
    }
}

extension String {
    /// The string, or `nil` when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
