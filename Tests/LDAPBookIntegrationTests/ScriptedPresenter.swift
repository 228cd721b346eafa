import LDAPBook
import LDAPKit
import Synchronization

/// A presenter that answers from a script and records what it was shown,
/// so every step of the flow can be driven and checked.
final class ScriptedPresenter: ReachPresenter {
    enum Answer {
        case confirm(Bool)
        case choose(ReachMenu.Choice)
        case edit(EditAnswer?)
        case create(CreateAnswer?)
    }

    enum Shown {
        case confirm(person: Person, value: LDAPValue, write: ReachWrite?)
        case menu(ReachMenu)
        case edit(EditRequest)
        case create(CreateRequest)
    }

    private let state: Mutex<(answers: [Answer], shown: [Shown])>

    init(_ answers: [Answer]) {
        state = Mutex((answers, []))
    }

    var shown: [Shown] { state.withLock { $0.shown } }
    var unusedAnswers: Int { state.withLock { $0.answers.count } }

    private func next(_ shown: Shown) throws -> Answer {
        try state.withLock { state in
            state.shown.append(shown)
            guard !state.answers.isEmpty else { throw ScriptError.noAnswerFor("\(shown)") }
            return state.answers.removeFirst()
        }
    }

    func confirm(_ confirmation: ReachConfirmation) async throws -> Bool {
        guard case .confirm(let yes) = try next(.confirm(person: confirmation.person, value: confirmation.value,
                                                         write: confirmation.write)) else {
            throw ScriptError.unexpected("confirm")
        }
        return yes
    }

    func choose(from menu: ReachMenu) async throws -> ReachMenu.Choice {
        guard case .choose(let choice) = try next(.menu(menu)) else { throw ScriptError.unexpected("menu") }
        return choice
    }

    func edit(_ request: EditRequest) async throws -> EditAnswer? {
        guard case .edit(let answer) = try next(.edit(request)) else { throw ScriptError.unexpected("edit") }
        return answer
    }

    func create(_ request: CreateRequest) async throws -> CreateAnswer? {
        guard case .create(let answer) = try next(.create(request)) else { throw ScriptError.unexpected("create") }
        return answer
    }

    /// The namesakes the create step named, each time it did.
    var notedNamesakes: [[DistinguishedName]] { noted.withLock { $0 } }
    private let noted = Mutex<[[DistinguishedName]]>([])

    func noteNamesakes(_ namesakes: [Person], of answer: CreateAnswer) async throws {
        noted.withLock { $0.append(namesakes.map(\.dn)) }
    }

    enum ScriptError: Error {
        case noAnswerFor(String)
        case unexpected(String)
    }
}

/// Records what the action was called with.
final class ActionLog: Sendable {
    private let calls = Mutex<[(DistinguishedName, LDAPValue)]>([])

    var all: [(DistinguishedName, LDAPValue)] { calls.withLock { $0 } }

    func record(_ person: Person, _ value: LDAPValue) {
        calls.withLock { $0.append((person.dn, value)) }
    }
}
