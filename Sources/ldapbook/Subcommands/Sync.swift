import CommandLineKit
import Foundation
import LDAPBook
import TerminalUI

/// `ldapbook sync`: brings the local index of people up to date now, or says what it holds.
enum Sync {
    static let spec = CommandSpec(
        "sync",
        abstract: "Bring the local index of people up to date, or say what it holds.",
        discussion: """
            find, reach, show, query and photo look names up in a local index of the directory's \
            people (names, nickname, display name, addresses, phones, title, department, \
            organisation; never a secret or a photo), in $XDG_CACHE_HOME/ldapbook/index, readable \
            by you only, one file per server, base and bind identity. A lookup brings it up to \
            date first when it is older than cache-max-age (300 seconds unless configured); \
            before reach adds someone nobody matched, it is brought up to date whatever its age. \
            sync does that now: it asks the server what changed (RFC 4533 content \
            synchronization where the server offers it, else modifyTimestamp and entryUUID), or \
            reads everyone the first time. --rebuild reads everyone again; --status says how \
            old the index is and what it holds, without asking the server. --no-cache (or \
            cache = no in the configuration) turns the index off: every lookup asks the server.
            """,
        options: [
            OptionSpec(["--status"], help: "say what the index holds and how old it is; ask the server nothing"),
            OptionSpec(["--rebuild"], help: "read everyone again, rather than only what changed"),
        ],
        examples: [
            .init(summary: "Bring the index up to date", commandLine: "ldapbook sync"),
            .init(summary: "How old is it?", commandLine: "ldapbook sync --status"),
        ])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        if parsed.flag("--status") && parsed.flag("--rebuild") {
            throw CommandFailure(.usage, "sync: --status asks the server nothing; --rebuild reads everyone again: choose one")
        }
        let book = try await Directory.addressBook(parsed)
        guard let index = book.configuration.index else {
            throw CommandFailure(.usage, "the local index of people is turned off (--no-cache, or cache = no in the configuration)")
        }
        if parsed.flag("--status") {
            StandardStream.output.write(describe(try index.status()).map { $0 + "\n" }.joined())
            return .success
        }
        let started = ContinuousClock.now
        let outcome = try await book.updateIndex(full: parsed.flag("--rebuild"))
        let took = ContinuousClock.now - started
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        let read = outcome.wasFull ? "read everyone" : "\(outcome.filed) changed, \(outcome.removed) gone"
        StandardStream.output.write("synced (\(outcome.method), \(read)) in \(String(format: "%.2f", seconds)) s\n")
        StandardStream.output.write(describe(try index.status()).map { $0 + "\n" }.joined())
        return .success
    }

    /// The status as lines of `key: value`.
    static func describe(_ status: PeopleIndex.Status) -> [String] {
        let age = status.syncedAt.flatMap { $0.timeIntervalSince1970 > 0 ? $0 : nil }
            .map { PeopleIndex.describe(age: Date().timeIntervalSince($0)) + " ago" }
        let perPerson = status.people > 0 ? " (\(status.bytes / status.people) bytes a person)" : ""
        return [
            "index: \(status.path)",
            "of: \(status.scope)",
            "people: \(status.people)",
            "size: \(status.bytes) bytes\(perPerson)",
            "synced: \(age ?? (status.syncedAt == nil ? "never" : "out of date since a write"))",
            "method: \(status.method ?? "none yet")",
        ].map(TerminalText.sanitized)
    }
}
