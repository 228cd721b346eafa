import LDAPKit

/// The steps of reaching someone that need a person's decision. The flow
/// (``AddressBook/reach(field:name:presenter:pageSize:action:)``) is the same
/// for every front end; a presenter draws it: a terminal, a test script, a GUI.
///
/// Returning `nil` (or ``ReachMenu/Choice/cancel``), or throwing
/// `CancellationError`, cancels the flow: nothing is written and the action
/// does not run.
public protocol ReachPresenter: Sendable {
    /// The last step: asks whether to act on a person's value, once what the flow collected
    /// is written (``ReachConfirmation/write``). Saying no writes nothing.
    func confirm(_ confirmation: ReachConfirmation) async throws -> Bool
    /// Steps 2–4: asks which value or person is meant.
    func choose(from menu: ReachMenu) async throws -> ReachMenu.Choice
    /// Step 5: asks for what `request.person` lacks: the field value and/or the name.
    func edit(_ request: EditRequest) async throws -> EditAnswer?
    /// Step 6: asks for a new person's names and field value.
    func create(_ request: CreateRequest) async throws -> CreateAnswer?
    /// Step 6, before the new person is added: says that `namesakes` have the same first
    /// and last name already. They are different people; the new one is added all the
    /// same, unless this throws `CancellationError`. By default, nothing is said.
    func noteNamesakes(_ namesakes: [Person], of answer: CreateAnswer) async throws
    /// Step 6, before the new person is added: says that `holders` have the value the new
    /// person is to get already (an address is someone's: is the new person one of them?).
    /// The new one is added all the same, unless this throws `CancellationError`. By
    /// default, nothing is said.
    func noteHolders(_ holders: [Person], of answer: CreateAnswer, field: Field) async throws
}

extension ReachPresenter {
    /// Says nothing.
    public func noteNamesakes(_ namesakes: [Person], of answer: CreateAnswer) async throws {}
    /// Says nothing.
    public func noteHolders(_ holders: [Person], of answer: CreateAnswer, field: Field) async throws {}
}

/// What the flow asks before it acts: the person, the value, and what will be written first.
public struct ReachConfirmation: Sendable {
    /// The person as they will be once ``write`` is made (a new person's entry, not yet added,
    /// has no DN of its own yet).
    public let person: Person
    /// The value the action gets.
    public let value: LDAPValue
    /// The field being reached.
    public let field: Field
    /// What saying yes writes first, in one atomic modify or add; `nil` when nothing is written.
    public let write: ReachWrite?
}

/// What the flow writes, once, when the user confirms.
public enum ReachWrite: Sendable {
    /// Adds to an existing person what was filled in: a value of the field, a first name and
    /// a last name (each optional), keeping every value there.
    case fillIn(value: LDAPValue?, givenName: String?, surname: String?)
    /// Adds a new person.
    case newPerson(NewPerson)

    /// What it writes, in words: "adds email ada@example.com and the name Ada Lovelace".
    public func summary(field: Field) -> String {
        switch self {
        case .fillIn(let value, let given, let surname):
            var parts: [String] = []
            if let value { parts.append("\(field.name) \(field.kind.isBinary ? "<\(value.count) bytes>" : value.lossyString)") }
            let name = [given, surname].compactMap { $0 }.joined(separator: " ")
            if !name.isEmpty { parts.append("the name \(name)") }
            return "adds " + parts.joined(separator: " and ")
        case .newPerson(let person):
            return "adds a new entry for \(person.commonName)"
        }
    }
}

/// A list to choose from: the field-and-name values, or the people of case 2,
/// with "add new entry" always offered (first in the people's list, as the spec's top bar).
public struct ReachMenu: Sendable {
    /// What the items are.
    public enum Kind: Sendable, Hashable {
        /// Steps 2 and 3: every (person, value) pair of the field-and-name
        /// tier, then the name-only people.
        case values
        /// Step 4: the name-only people, then the field-only people whose value relates to
        /// the name.
        case people
    }

    /// One line of the list.
    public enum Item: Sendable {
        /// A value of a person who has the field: choosing it reaches the person.
        case value(Candidate, LDAPValue)
        /// A person: choosing them leads to filling in what they lack.
        case person(Candidate)

        /// The candidate the item shows.
        public var candidate: Candidate {
            switch self {
            case .value(let candidate, _), .person(let candidate): candidate
            }
        }
    }

    /// What the user chose.
    public enum Choice: Sendable, Hashable {
        /// The item at this index of ``items``.
        case item(Int)
        /// Add a new entry (step 6).
        case addNewEntry
        /// Load more (only when ``moreAvailable``): everyone the name matches when the list
        /// holds only the best of them (``bestOnly``); else more field-only people, whose
        /// value relates to the name, then, on request, anyone with the field.
        case showMore
        /// Stop: nothing is written.
        case cancel
    }

    /// What the items are.
    public let kind: Kind
    /// The field being reached.
    public let field: Field
    /// The name searched for.
    public let query: NameQuery
    /// The items, in rank order.
    public let items: [Item]
    /// Whether more people can be loaded with ``Choice/showMore``.
    public let moreAvailable: Bool
    /// Whether the items are only the best of the people the name matches, and
    /// ``Choice/showMore`` lists everyone: a choice beyond them is made in that list.
    public var bestOnly = false
}

/// What step 5 asks for.
public struct EditRequest: Sendable {
    /// The person whose entry lacks something.
    public let person: Person
    /// The field being reached.
    public let field: Field
    /// Whether the field value is missing (a name-only person).
    public let needsValue: Bool
    /// Whether the name is missing (a field-only person: their names do not match the query).
    public let needsName: Bool
    /// The names the query suggests.
    public let suggestedGivenName: String?
    /// The surname the query suggests.
    public let suggestedSurname: String
    /// The value the caller already gave (``ReachOptions/value``), if any.
    public let suggestedValue: LDAPValue?

    /// Why `value` cannot be the field's value, or `nil` when it can.
    public func problem(with value: LDAPValue) -> String? {
        field.problem(with: value)
    }
}

/// What was filled in at step 5.
public struct EditAnswer: Sendable {
    /// The field value, when it was missing.
    public var value: LDAPValue?
    /// A first name to add, when the name was missing.
    public var givenName: String?
    /// A last name to add, when the name was missing.
    public var surname: String?

    /// Creates an answer.
    public init(value: LDAPValue? = nil, givenName: String? = nil, surname: String? = nil) {
        self.value = value
        self.givenName = givenName
        self.surname = surname
    }
}

/// What step 6 asks for.
public struct CreateRequest: Sendable {
    /// The field being reached.
    public let field: Field
    /// The first name guessed from the query.
    public let suggestedGivenName: String?
    /// The surname guessed from the query.
    public let suggestedSurname: String
    /// The value the caller already gave (``ReachOptions/value``), if any.
    public let suggestedValue: LDAPValue?

    /// Why `value` cannot be the field's value, or `nil` when it can.
    public func problem(with value: LDAPValue) -> String? {
        field.problem(with: value)
    }
}

/// A new person described at step 6.
public struct CreateAnswer: Sendable {
    /// The first name, if any.
    public var givenName: String?
    /// The surname (required).
    public var surname: String
    /// The field value.
    public var value: LDAPValue

    /// Creates an answer.
    public init(givenName: String?, surname: String, value: LDAPValue) {
        self.givenName = givenName
        self.surname = surname
        self.value = value
    }
}

/// What the caller of a reach already knows, besides what the presenter answers.
public struct ReachOptions: Sendable {
    /// Go straight to describing a new person (the spec's "add new entry"), whoever matches.
    public var newEntry: Bool
    /// The value meant. A new person or a person without the field is offered it; a person
    /// with other values gets it added (after the confirmation, like any write); a person
    /// who has it uses it. A single-valued field that holds another value refuses it.
    public var value: LDAPValue?

    /// The people chosen before for this field and name (``ReachHistory``), by DN, most often
    /// first: each comes first among the people who match as well.
    public var remembered: [String]

    /// Options for a reach.
    public init(newEntry: Bool = false, value: LDAPValue? = nil, remembered: [String] = []) {
        self.newEntry = newEntry
        self.value = value
        self.remembered = remembered
    }
}

/// How reaching someone ended.
public enum ReachOutcome: Sendable {
    /// The action ran on this person's value.
    case reached(Person, LDAPValue)
    /// The user said no at the confirmation; nothing was written and the action did not run.
    case declined
    /// The user cancelled; nothing was written and the action did not run.
    case cancelled
}
