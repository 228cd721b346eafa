import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import TerminalUI

/// `ldapbook find NAME...`: the ranked result, without acting.
enum Find {
    static let spec = CommandSpec(
        "find",
        abstract: "List the people a name (and field) would reach, best first.",
        discussion: """
            Ranks as reach does: with --field, people whose field is set and whose name matches \
            first, then those whose name matches without the field, then those with the field \
            whose value starts with a word of the name (an address's local part: alan for \
            alan.t@example.com). Without --field, \
            name matches only. A word matches a name as people type it: without accents, in any \
            case, ignoring punctuation (obrien, o brien), and from the start of any word of the \
            name (berg for van der Berg); first, last, full and display names, nicknames and \
            email addresses count, the names first. --explain says which attribute each word \
            matched.
            """,
        options: [
            OptionSpec(["--field", "-f"], .value("FIELD"), help: "the field to rank by (email, phone, an attribute, a custom field)",
                       completion: .program(arguments: ["--timeout", "1", "fields", "--format", "names"], fallback: Fields.builtInNames)),
            OptionSpec(["--limit", "-n"], .value("N"), help: "list at most N people (default 20)"),
            OptionSpec(["--explain"], help: "say why each person ranks where they do"),
            OptionSpec(["--format"], .value("table|json"), help: "output format (default table)"),
        ],
        positionals: [PositionalSpec("NAME", help: "first and/or last name, or \"Last, First\"", isRepeating: true)],
        examples: [
            .init(summary: "Who is jo?", commandLine: "ldapbook find jo"),
            .init(summary: "With email, as JSON", commandLine: "ldapbook find --field email ada --format json"),
        ])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let query = try NameQuery(parsed.positionals("NAME").joined(separator: " "))
        let limit = try parsed.integer("--limit") ?? 20
        guard limit >= 1 else { throw CommandFailure(.usage, "--limit: N must be at least 1") }
        let format = parsed.value("--format") ?? "table"
        guard format == "table" || format == "json" else {
            throw CommandFailure(.usage, "--format: \"\(format)\" is not a format (table or json)")
        }
        let book = try await Directory.addressBook(parsed)
        // The people are read and written on the connection's own thread, as they arrive.
        return try await withTaskExecutorPreference(book.connection.executor) {
            let field = try await parsed.value("--field").asyncMap { try await book.field(typed: $0, nearMiss: Suggestion.closest) }
            // JSON names each field as the directory's schema has them. Without --field, find
            // reads only names and details, which are all built-in fields: the schema (tens of
            // kilobytes the server sends and the client parses) is not read for them.
            let registry = format == "json" ? (field == nil ? FieldRegistry.builtIn : try await book.fieldRegistry()) : nil
            // With a field, the people reach remembers were meant by this name come first among equals.
            let remembered = field.map { ReachHistory().chosen(field: $0.name, query: query) } ?? []
            var shown = ShownPeople(query: query, field: field, registry: registry, explain: parsed.flag("--explain"),
                                    remembered: Set(remembered))
            // What is shown of each person is made as they arrive, while the server sends the
            // rest, and put in rank order at the end.
            let ranking = try await book.rank(field: field, name: query, limit: limit) { shown.add($0) }.preferring(remembered)

            var matches = Array((ranking.fieldAndName + ranking.nameOnly).prefix(limit))
            var more = ranking.nameMatches > limit
            if let cursor = ranking.fieldOnly, matches.count < limit {
                matches += try await cursor.next(limit - matches.count)
                more = !(await cursor.isExhausted)
            } else if ranking.fieldOnly != nil {
                more = true
            }

            var output = DataOutput.Buffer(sanitizing: false)
            if registry != nil {
                json(query: query, field: field, matches: matches, more: more, truncated: ranking.isTruncated, shown: &shown,
                     to: &output)
            } else {
                table(matches: matches, more: more, shown: &shown, to: &output)
            }
            output.flush()
            if ranking.isTruncated {
                Diagnostics.say("the server stopped at its size limit after \(ranking.nameMatches) people; "
                    + "more may match \"\(Diagnostics.quoting(query.text))\": type more of the name")
            }
            UntilExit.keep(ranking)
            return matches.isEmpty ? .nothingDone : .success
        }
    }

    static func shown(_ value: LDAPValue, _ field: Field?) -> String {
        if field?.kind.isBinary == true || value.string == nil { return "<\(value.count) bytes>" }
        return value.lossyString
    }

    /// What find shows of people, made as they are found: a table row (name, the field's
    /// values and tier, details, how the name matched, DN, and why with `--explain`) without
    /// its rank, or a JSON object without commas around it. Rows are found again by
    /// ``LDAPBook/Candidate/arrival``; the table's first row is its header.
    struct ShownPeople {
        let query: NameQuery
        let field: Field?
        let explain: Bool
        /// The people chosen before for this name and field, by DN.
        let remembered: Set<String>
        private var people: PersonJSON?
        /// The table's rows: the header, then a row per person made.
        private(set) var cells: TextTable
        /// The JSON objects, one after another, and where each ends.
        private var objects = JSONWriter()
        private var ends: [Int] = []
        /// The row of each arrival, or -1 where none was made.
        private var rows: [Int] = []
        private var scratch: [UInt8] = []

        init(query: NameQuery, field: Field?, registry: FieldRegistry?, explain: Bool, remembered: Set<String>) {
            self.query = query
            self.field = field
            self.explain = explain
            self.remembered = remembered
            people = registry.map { PersonJSON(registry: $0) }
            let header = ["NAME"] + (field.map { [$0.name.uppercased(), "TIER"] } ?? []) + ["DETAILS", "MATCH", "DN"]
                + (explain ? ["WHY"] : [])
            cells = TextTable(columns: header.count)
            for title in header { cells.append(title) }
        }

        /// Makes what is shown of `candidate`, who arrived from the name search.
        mutating func add(_ candidate: Candidate) {
            guard let arrival = candidate.arrival else { return }
            while rows.count < arrival { rows.append(-1) }
            rows.append(make(candidate))
        }

        /// The row made for `candidate`: the one made when they arrived, else one made now
        /// (the field-only tier's people are read after the name search).
        mutating func row(of candidate: Candidate) -> Int {
            if let arrival = candidate.arrival, arrival < rows.count, rows[arrival] >= 0 { return rows[arrival] }
            return make(candidate)
        }

        /// Makes `candidate`'s row or object, and returns its number.
        private mutating func make(_ candidate: Candidate) -> Int {
            if people != nil {
                Find.write(candidate, field: field, people: &people!, to: &objects)
                ends.append(objects.bytes.count)
                return ends.count - 1
            }
            let person = candidate.person
            if let name = person.storedDisplayName {
                name.withUnsafeBufferPointer { cells.append(utf8: $0) }
            } else {
                cells.append(person.displayName)
            }
            if field != nil {
                cells.append(candidate.values.map { shown($0, field) }.joined(separator: ", "))
                cells.append(candidate.tier?.rawValue ?? "")
            }
            scratch.removeAll(keepingCapacity: true)
            person.forEachDetail { detail in
                if !scratch.isEmpty { scratch.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                detail.withUnsafeBufferPointer { scratch.append(contentsOf: $0) }
            }
            scratch.withUnsafeBufferPointer { cells.append(utf8: $0) }
            cells.append(candidate.score.match.rawValue)
            person.dn.utf8.withUnsafeBufferPointer { cells.append(utf8: $0) }
            if explain {
                cells.append(candidate.explanation(for: query, remembered: remembered.contains(person.dn.string)))
            }
            return cells.rows - 1
        }

        /// Writes `candidate` as the next JSON value of `json`.
        mutating func writeObject(of candidate: Candidate, to json: inout JSONWriter) {
            let object = row(of: candidate)
            json.value(json: objects.bytes[(object == 0 ? 0 : ends[object - 1])..<ends[object]])
        }
    }

    /// The table of `matches`, in rank order: the number of each, and the row made of them.
    /// Directory text in the rows is sanitised, so that it cannot drive the terminal.
    static func table(matches: [Candidate], more: Bool, shown: inout ShownPeople, to output: inout DataOutput.Buffer) {
        guard !matches.isEmpty else {
            output.bytes += Array("no match\n".utf8)
            if more { output.bytes += Array("(more matches; raise --limit)\n".utf8) }
            return
        }
        let rows = [0] + matches.map { shown.row(of: $0) }
        let cells = shown.cells
        let widths = (0..<cells.columns).map { column in rows.lazy.map { cells.width(ofRow: $0, column: column) }.max() ?? 0 }
        let numberWidth = String(matches.count).utf8.count
        for (rank, row) in rows.enumerated() {
            let number = rank == 0 ? "#" : String(rank)
            output.bytes += number.utf8
            output.bytes += repeatElement(UInt8(ascii: " "), count: numberWidth - number.utf8.count + 2)
            cells.write(row: row, widths: widths, to: &output.bytes)
            output.endRecord()
        }
        if more { output.bytes += Array("(more matches; raise --limit)\n".utf8) }
    }

    /// The JSON form: `{"query":…,"field":…,"matches":[…],"more":…,"truncated":…}`, in rank
    /// order; each match is a person in ldapbook's JSON shape (``Person/writeJSON(to:registry:uid:members:)``)
    /// with how it matched: `"match":{"name":…,"tier":…,"values":[…]}`. `truncated` says the
    /// server's size limit cut the search short.
    static func json(query: NameQuery, field: Field?, matches: [Candidate], more: Bool, truncated: Bool,
                     shown: inout ShownPeople, to output: inout DataOutput.Buffer) {
        var json = JSONWriter(appendingTo: &output.bytes)
        json.beginObject()
        json.key("query")
        json.string(query.text)
        json.key("field")
        if let field {
            json.beginObject()
            json.key("name")
            json.string(field.name)
            json.key("attribute")
            json.string(field.attribute)
            json.endObject()
        } else {
            json.null()
        }
        json.key("matches")
        json.beginArray()
        for match in matches {
            shown.writeObject(of: match, to: &json)
            if json.bytes.count >= DataOutput.Buffer.capacity { output.write(json.take()) }
        }
        json.endArray()
        json.key("more")
        json.bool(more)
        json.key("truncated")
        json.bool(truncated)
        json.endObject()
        json.end(into: &output.bytes)
        output.bytes.append(UInt8(ascii: "\n"))
    }

    /// One match: the person as ldapbook's JSON has them, and how they matched.
    static func write(_ match: Candidate, field: Field?, people: inout PersonJSON, to json: inout JSONWriter) {
        people.write(match.person, to: &json) { json in
            json.key("match")
            json.beginObject()
            json.key("name")
            json.string(match.score.match.rawValue)
            if let field {
                json.key("tier")
                json.string(match.tier?.rawValue)
                json.key("values")
                json.beginArray()
                for value in match.values {
                    if field.kind.isBinary || !value.isUTF8 { json.base64(value) } else { json.string(value) }
                }
                json.endArray()
            }
            json.endObject()
        }
    }
}

extension Optional {
    /// Maps the wrapped value with an async throwing closure.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
