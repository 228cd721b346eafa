import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import TerminalUI
#if canImport(Glibc)
import Glibc
#endif

/// `ldapbook edit NAME|DN`: the person as text in `$VISUAL` or `$EDITOR`, saved as one change.
enum Edit {
    static let spec = CommandSpec(
        "edit",
        abstract: "Edit a person in your editor ($VISUAL, $EDITOR, else vi).",
        discussion: """
            The person is written as "field: value" lines, one per value (a line break in a value \
            as \\n, a backslash as \\\\; a photo as its size, kept unless its line is deleted). \
            Change, add or delete lines and save: the changes are checked, shown on a terminal \
            for confirmation (--yes applies them without asking), and written as one modify that \
            changes only those values and fails, writing nothing, if anyone changed the person \
            meanwhile. Quitting the editor with an error, or saving no change, writes nothing. \
            Fields ldapbook does not write (uid, references such as manager) are shown as \
            comments.
            """,
        options: PersonArgument.options + [OptionSpec(["--yes"], help: "apply the changes without asking")],
        positionals: [PositionalSpec("NAME", help: "a name that matches one person, or a DN", isRepeating: true)],
        examples: [.init(summary: "Edit Ada in nano", commandLine: "EDITOR=nano ldapbook edit ada lovelace")])

    /// What the file shows of a binary value: its size; the line keeps the value.
    static func placeholder(_ value: LDAPValue) -> String { "<\(value.count) bytes, kept>" }

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let book = try await Directory.addressBook(parsed)
        let registry = try await book.fieldRegistry()
        let summary = try await PersonArgument.resolve(parsed.positionals("NAME"), book: book, fields: [], parsed: parsed)
        guard let read = try await book.connection.read(summary.dn, attributes: ["*", "entryCSN", "modifyTimestamp"]) else {
            throw CommandFailure(.nothingDone, "\(summary.dn) is gone")
        }
        // The entry as read, asserted when writing: any change meanwhile stops the edit.
        let unchanged: LDAPFilter? = read.string("entryCSN").map { .equal("entryCSN", LDAPValue($0)) }
            ?? read.string("modifyTimestamp").map { .equal("modifyTimestamp", LDAPValue($0)) }
        var entry = read.removingSecrets(registry)
        entry["entryCSN"] = []
        entry["modifyTimestamp"] = []
        let person = Person(entry: entry)
        let shown = person.fieldValues(registry: registry)
        let original = text(for: person, fields: shown)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ldapbook-edit-\(UUID().uuidString.prefix(8)).txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(original.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CommandFailure(.cannotCreate, "cannot write \(file.path)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let status = try runEditor(on: file.path)
        guard status == 0 else {
            throw CommandFailure(.nothingDone, "the editor exited with status \(status): nothing written")
        }
        guard let edited = try? String(contentsOf: file, encoding: .utf8) else {
            throw CommandFailure(.invalidValue, "the edited file is not UTF-8 text: nothing written")
        }
        guard edited != original else {
            Diagnostics.say("no change: nothing written")
            return .nothingDone
        }
        let change = try changes(from: edited, to: person, fields: shown, registry: registry)
        let modifications = try book.modifications(for: change, of: person)
        guard !modifications.isEmpty else {
            Diagnostics.say("no change: nothing written")
            return .nothingDone
        }
        let difference = describe(change, of: person)
        if !parsed.flag("--yes") && isatty(STDIN_FILENO) != 0 {
            StandardStream.error.write(difference.map { TerminalText.sanitized($0) + "\n" }.joined())
            guard try await TerminalUI.makePrompter().confirm("Write these changes to \(person.displayName)?", defaultAnswer: false) else {
                throw CommandFailure(.nothingDone, "nothing written")
            }
        }
        try await book.update(person, with: change, unchanged: unchanged)
        Diagnostics.say("updated \(person.dn)", details: difference)
        return .success
    }

    /// The file the editor opens.
    static func text(for person: Person, fields: [(field: Field, values: [LDAPValue])]) -> String {
        var lines = ["# \(person.displayName) (\(person.dn))",
                     "# One \"field: value\" line per value: change, add or delete lines, then save.",
                     "# A line break in a value is \\n, a backslash \\\\. Quit without saving to write nothing."]
        for (field, values) in fields {
            let writable = (try? field.checkWritable()) != nil
            for value in values {
                let text = field.kind.isBinary || value.string == nil ? placeholder(value) : escaped(value.lossyString)
                lines.append((writable ? "" : "# not edited here: ") + "\(field.name): \(text)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\r\n", with: "\\n")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func unescaped(_ text: String) throws -> String {
        var result = ""
        var characters = text.makeIterator()
        while let character = characters.next() {
            guard character == "\\" else {
                result.append(character)
                continue
            }
            switch characters.next() {
            case "n": result.append("\n")
            case "\\": result.append("\\")
            case let other:
                throw CommandFailure(.invalidValue, "\"\\\(other.map(String.init) ?? "")\" is no escape: a line break is \\n, a backslash \\\\")
            }
        }
        return result
    }

    /// The edited text as a change to `person`: each field whose values differ is replaced
    /// by the values the text gives (only the values that differ are written).
    static func changes(from text: String, to person: Person, fields: [(field: Field, values: [LDAPValue])],
                        registry: FieldRegistry) throws -> PersonChange {
        var edited: [(field: Field, values: [LDAPValue])] = []
        func append(_ field: Field, _ value: LDAPValue) {
            if let index = edited.firstIndex(where: { $0.field == field }) {
                edited[index].values.append(value)
            } else {
                edited.append((field, [value]))
            }
        }
        var keptBinary: [String: Int] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw CommandFailure(.invalidValue, "line \(number + 1): \"\(Diagnostics.quoting(String(line)))\" is not \"field: value\": nothing written")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            var value = String(line[line.index(after: colon)...])
            if value.hasPrefix(" ") { value.removeFirst() }
            let field: Field
            do {
                field = try registry.field(named: name)
            } catch {
                throw CommandFailure(.invalidValue, "line \(number + 1): \(error.message): nothing written")
            }
            if field.kind.isBinary {
                // A binary value is kept by its line, in order; new ones come with set FIELD=@FILE.
                let existing = person.values(of: field)
                let index = keptBinary[field.name, default: 0]
                guard index < existing.count, value == placeholder(existing[index]) else {
                    throw CommandFailure(.invalidValue, "line \(number + 1): \(field.name) is binary: keep or delete its lines; "
                        + "set a new one with ldapbook set NAME \(field.name)=@FILE. Nothing written")
                }
                keptBinary[field.name] = index + 1
                append(field, existing[index])
                continue
            }
            append(field, LDAPValue(try unescaped(value)))
        }
        var change = PersonChange()
        // Fields shown as comments (not written) keep their values whatever the text says.
        let writable = fields.map(\.field).filter { (try? $0.checkWritable()) != nil }
        for field in writable + edited.map(\.field) where !change.replacing.contains(where: { $0.field == field }) {
            let before = person.values(of: field)
            let after = edited.first { $0.field == field }?.values ?? []
            guard Set(before.map(\.bytes)) != Set(after.map(\.bytes)) || before.count != after.count else { continue }
            do {
                try field.validate(after, rules: .entered)
            } catch {
                throw CommandFailure(.invalidValue, "\(error.message): nothing written")
            }
            change.replacing.append((field, after))
        }
        return change
    }

    /// The change in lines: `- field: old`, `+ field: new`.
    static func describe(_ change: PersonChange, of person: Person) -> [String] {
        change.replacing.flatMap { field, values -> [String] in
            let before = person.values(of: field)
            let removed = before.filter { old in !values.contains { $0.bytes == old.bytes } }
            let added = values.filter { new in !before.contains { $0.bytes == new.bytes } }
            func shown(_ value: LDAPValue) -> String { field.kind.isBinary ? placeholder(value) : escaped(value.lossyString) }
            return removed.map { "  - \(field.name): \(shown($0))" } + added.map { "  + \(field.name): \(shown($0))" }
        }
    }

    /// Runs `$VISUAL`, else `$EDITOR`, else vi on `path` (through the shell, so the variable
    /// may hold arguments), on this terminal (``ForegroundProcess``); its exit status.
    static func runEditor(on path: String) throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        return try ForegroundProcess.run("/bin/sh", ["sh", "-c", editor + " \"$1\"", "sh", path]).status
    }
}
