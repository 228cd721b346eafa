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
        // JSON names the fields as the directory's schema has them: read while the people are.
        async let jsonRegistry = format == "json" ? book.fieldRegistry() : nil
        let field = try await parsed.value("--field").asyncMap { try await book.field(typed: $0, nearMiss: Suggestion.closest) }
        // With a field, the people reach remembers were meant by this name come first among equals.
        let remembered = field.map { ReachHistory().chosen(field: $0.name, query: query) } ?? []
        let ranking = try await book.rank(field: field, name: query, limit: limit).preferring(remembered)

        var matches = Array((ranking.fieldAndName + ranking.nameOnly).prefix(limit))
        var more = ranking.nameMatches > limit
        if let cursor = ranking.fieldOnly, matches.count < limit {
            matches += try await cursor.next(limit - matches.count)
            more = !(await cursor.isExhausted)
        } else if ranking.fieldOnly != nil {
            more = true
        }

        var output = DataOutput.Buffer(sanitizing: false)
        if let registry = try await jsonRegistry {
            await json(query: query, field: field, matches: matches, more: more, truncated: ranking.isTruncated,
                 registry: registry, to: &output)
        } else {
            await table(query: query, field: field, matches: matches, more: more, explain: parsed.flag("--explain"), to: &output)
        }
        output.flush()
        if ranking.isTruncated {
            Diagnostics.say("the server stopped at its size limit after \(ranking.nameMatches) people; "
                + "more may match \"\(Diagnostics.quoting(query.text))\": type more of the name")
        }
        UntilExit.keep(ranking)
        return matches.isEmpty ? .nothingDone : .success
    }

    static func shown(_ value: LDAPValue, _ field: Field?) -> String {
        if field?.kind.isBinary == true || value.string == nil { return "<\(value.count) bytes>" }
        return value.lossyString
    }

    /// An aligned table; directory text is sanitised so it cannot drive the terminal. Each
    /// cell is measured once (``TextTable``), and the lines go to `output` as they are made.
    static func table(query: NameQuery, field: Field?, matches: [Candidate], more: Bool, explain: Bool,
                      to output: inout DataOutput.Buffer) async {
        guard !matches.isEmpty else {
            output.bytes += Array("no match\n".utf8)
            if more { output.bytes += Array("(more matches; raise --limit)\n".utf8) }
            return
        }
        let header = ["#", "NAME"] + (field.map { [$0.name.uppercased(), "TIER"] } ?? []) + ["DETAILS", "MATCH", "DN"]
            + (explain ? ["WHY"] : [])
        let parts = await inParts(matches) { range in
            var table = TextTable(columns: header.count)
            if range.lowerBound == 0 { for title in header { table.append(title) } }
            var cell: [UInt8] = []
            for index in range {
                let person = matches[index].person
                table.append(String(index + 1))
                if let name = person.storedDisplayName {
                    name.withUnsafeBufferPointer { table.append(utf8: $0) }
                } else {
                    table.append(person.displayName)
                }
                if field != nil {
                    table.append(matches[index].values.map { shown($0, field) }.joined(separator: ", "))
                    table.append(matches[index].tier?.rawValue ?? "")
                }
                cell.removeAll(keepingCapacity: true)
                person.forEachDetail { detail in
                    if !cell.isEmpty { cell.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                    detail.withUnsafeBufferPointer { cell.append(contentsOf: $0) }
                }
                cell.withUnsafeBufferPointer { table.append(utf8: $0) }
                table.append(matches[index].score.match.rawValue)
                person.dn.utf8.withUnsafeBufferPointer { table.append(utf8: $0) }
                if explain { table.append(matches[index].explanation(for: query)) }
            }
            return table
        }
        let widths = parts.dropFirst().reduce(parts[0].widths) { zip($0, $1.widths).map(max) }
        for table in parts {
            for start in stride(from: 0, to: table.rows, by: 256) {
                table.write(rows: start..<start + 256, widths: widths, to: &output.bytes)
                output.endRecord()
            }
        }
        if more { output.bytes += Array("(more matches; raise --limit)\n".utf8) }
    }

    /// `render` of each part of `matches`, in order: made at once on the machine's cores
    /// when there are many, since their lines are all that is left to do once the server
    /// has sent the last of them (the 11,996 people of `jo` at 100,000 entries took 40-50 ms
    /// to print on one core, 20-24 ms on two).
    static func inParts<Part: Sendable>(_ matches: [Candidate],
                                        _ render: @escaping @Sendable (Range<Int>) -> Part) async -> [Part] {
        let count = matches.count < 2048 ? 1 : max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let size = (matches.count + count - 1) / count
        let ranges = stride(from: 0, to: max(matches.count, 1), by: max(size, 1)).map { $0..<min($0 + size, matches.count) }
        guard ranges.count > 1 else { return [render(0..<matches.count)] }
        return await withTaskGroup(of: (Int, Part).self) { group in
            for (index, range) in ranges.enumerated() { group.addTask { (index, render(range)) } }
            var parts: [(Int, Part)] = []
            for await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The JSON form: `{"query":…,"field":…,"matches":[…],"more":…,"truncated":…}`, in rank
    /// order; each match is a person in ldapbook's JSON shape (``Person/writeJSON(to:registry:uid:members:)``)
    /// with how it matched: `"match":{"name":…,"tier":…,"values":[…]}`. `truncated` says the
    /// server's size limit cut the search short.
    static func json(query: NameQuery, field: Field?, matches: [Candidate], more: Bool, truncated: Bool,
                     registry: FieldRegistry, to output: inout DataOutput.Buffer) async {
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
        // The matches in parts, each an array of its own, put together in order.
        let parts = await inParts(matches) { range in
            var part = JSONWriter()
            var people = PersonJSON(registry: registry)
            part.beginArray()
            for match in matches[range] { write(match, field: field, people: &people, to: &part) }
            part.endArray()
            return part.bytes
        }
        for part in parts {
            json.elements(ofArray: part)
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
