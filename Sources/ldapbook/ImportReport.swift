import LDAPBook
import LDAPKit
import TerminalUI

/// What `ldapbook import` prints: on standard error, a line for each person with something
/// to say (rejected, values left out, a possible duplicate) and why an import stopped; on
/// standard output, with `--dry-run`, each write the import would make, and always the
/// summary last.
struct ImportReport {
    let result: ImportResult
    /// `FILE: line N: NAME` for each record.
    let sources: [String]
    /// Cards and records refused before the import (they never became records).
    let rejectedBeforehand: [String]
    /// LDIF entries that are not people, left out.
    let notPeople: [String]
    let dryRun: Bool

    /// How many people not tried are named before the rest are counted.
    static let namedNotTried = 10

    /// Prints the report and returns the exit code: 69 or 77 when the directory stopped the
    /// import, 65 when a card or record was rejected, 0 otherwise.
    func print() -> ExitCode {
        var added = 0, updated = 0, unchanged = 0, rejected = rejectedBeforehand.count, unknown = 0
        var notTried: [Int] = []
        var refused: [Int] = []
        var duplicates = 0
        for reason in rejectedBeforehand { Diagnostics.say("rejected: \(reason)") }
        for entry in notPeople { Diagnostics.say("not a person, left out: \(entry)") }
        if dryRun {
            // Containers go first: the people below them need them.
            for container in result.containers { StandardStream.output.write(TerminalText.sanitized("add \(container)  (a container)") + "\n") }
        }
        for (index, outcome) in result.outcomes.enumerated() {
            let source = sources[index]
            switch outcome.result {
            case .added:
                added += 1
                if dryRun, let dn = outcome.dn { StandardStream.output.write(TerminalText.sanitized("add \(dn)  (\(source))") + "\n") }
            case .updated(let attributes):
                updated += 1
                if dryRun, let dn = outcome.dn {
                    StandardStream.output.write(TerminalText.sanitized("update \(dn): \(attributes.joined(separator: ", "))  (\(source))") + "\n")
                }
            case .unchanged:
                unchanged += 1
            case .rejected(let error):
                rejected += 1
                Diagnostics.say("rejected: \(source): \(Self.message(error))")
            case .unknown(let error):
                unknown += 1
                Diagnostics.say("\(source): \(error.description)")
            case .refused:
                refused.append(index)
            case .notTried:
                notTried.append(index)
            }
            for note in outcome.notes {
                if case .possibleDuplicate = note { duplicates += 1 }
                if let text = Self.text(of: note, outcome: outcome) { Diagnostics.say("\(source): \(text)") }
            }
        }
        if !result.keepsCardUIDs && result.outcomes.contains(where: { if case .added = $0.result { return true } else { return false } }) {
            Diagnostics.say("this directory lacks ldapbook's schema, so card UIDs are not kept: a later import finds these "
                + "people by email address (see ldapbook schema install)")
        }
        let verb = dryRun ? "would be " : ""
        var summary = "\(verb)added \(added), \(verb)updated \(updated), unchanged \(unchanged), rejected \(rejected)"
        if !notPeople.isEmpty { summary += ", not people \(notPeople.count)" }
        if !notTried.isEmpty || !refused.isEmpty || unknown > 0 { summary += ", not imported \(notTried.count + refused.count + unknown)" }
        if duplicates > 0 { summary += "; possible duplicates \(duplicates) (see above)" }
        guard let stop = result.stoppedBy else {
            StandardStream.output.write(summary + "\n")
            return rejected > 0 ? .invalidValue : .success
        }
        let (code, reason) = ExitCode.forError(stop)
        Diagnostics.say("the import stopped: \(reason)")
        if !refused.isEmpty {
            Diagnostics.say("refused: " + refused.prefix(Self.namedNotTried).map { sources[$0] }.joined(separator: "; ")
                + (refused.count > Self.namedNotTried ? "; and \(refused.count - Self.namedNotTried) more" : ""))
        }
        if !notTried.isEmpty {
            let named = notTried.prefix(Self.namedNotTried).map { sources[$0] }
            Diagnostics.say("not tried: \(notTried.count) \(notTried.count == 1 ? "person" : "people"): "
                + named.joined(separator: "; ") + (notTried.count > named.count ? "; and \(notTried.count - named.count) more" : ""))
        }
        Diagnostics.say("what was written stays written; importing the same files again finishes the job, "
            + "finding who is there already instead of adding them twice")
        StandardStream.output.write(summary + "\n")
        return code == .noPermission ? .noPermission : .unavailable
    }

    /// A rejection's reason, as a person reads it.
    static func message(_ error: any Error) -> String {
        switch error {
        case let error as AddressBookError: error.message
        case let error as LDAPError: error.description
        default: "\(error)"
        }
    }

    /// What a note says, or `nil` for one that needs no words.
    static func text(of note: ImportOutcome.Note, outcome: ImportOutcome) -> String? {
        switch note {
        case .skipped(let attributes):
            return "not written: " + attributes.map(\.description).joined(separator: ", ")
        case .possibleDuplicate(let others, let sameEmail):
            let who = others.prefix(5).map(\.string).joined(separator: "; ") + (others.count > 5 ? "; and \(others.count - 5) more" : "")
            let added = outcome.dn.map { "added as \($0)" } ?? "added"
            return sameEmail
                ? "\(added); possibly the same person as \(who) (the same email address)"
                : "\(added); possibly the same person as \(who) (the same name, and nothing that tells them apart; "
                    + "--merge-by-name takes them for one)"
        case .movedFrom(let original):
            return "\(original) is outside this directory's base; the person goes under the people base as \(outcome.dn.map(\.string) ?? "")"
        case .namesakesNotCompared:
            return "more people have this name than one search may return, so none was compared"
        }
    }
}
