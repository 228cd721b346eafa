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

        let output: String
        if format == "json" {
            output = json(query: query, field: field, matches: matches, more: more, truncated: ranking.isTruncated,
                          registry: try await book.fieldRegistry())
        } else {
            output = table(query: query, field: field, matches: matches, more: more, explain: parsed.flag("--explain"))
        }
        if ranking.isTruncated {
            Diagnostics.say("the server stopped at its size limit after \(ranking.nameMatches) people; "
                + "more may match \"\(Diagnostics.quoting(query.text))\": type more of the name")
        }
        StandardStream.output.write(output)
        UntilExit.keep(ranking)
        return matches.isEmpty ? .nothingDone : .success
    }

    static func shown(_ value: LDAPValue, _ field: Field?) -> String {
        if field?.kind.isBinary == true || value.string == nil { return "<\(value.count) bytes>" }
        return value.lossyString
    }

    /// An aligned table; directory text is sanitised so it cannot drive the terminal.
    static func table(query: NameQuery, field: Field?, matches: [Candidate], more: Bool, explain: Bool) -> String {
        var rows: [[String]] = [["#", "NAME"] + (field.map { [$0.name.uppercased(), "TIER"] } ?? []) + ["DETAILS", "MATCH", "DN"]
            + (explain ? ["WHY"] : [])]
        for (index, match) in matches.enumerated() {
            var row = ["\(index + 1)", match.person.displayName]
            if field != nil {
                row.append(match.values.map { shown($0, field) }.joined(separator: ", "))
                row.append(match.tier?.rawValue ?? "")
            }
            row += [match.person.details.joined(separator: ", "), match.score.match.rawValue, match.person.dn.string]
            if explain { row.append(match.explanation(for: query)) }
            rows.append(row.map { TerminalText.sanitized($0) })
        }
        let widths = rows[0].indices.map { column in rows.map { TerminalText.displayWidth($0[column]) }.max() ?? 0 }
        var text = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - TerminalText.displayWidth(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
        if matches.isEmpty { text = "no match\n" }
        if more { text += "(more matches; raise --limit)\n" }
        return text
    }

    /// The JSON form: `{"query":…,"field":…,"matches":[…],"more":…,"truncated":…}`, in rank
    /// order; each match is a person in ldapbook's JSON shape (``Person/writeJSON(to:registry:uid:members:)``)
    /// with how it matched: `"match":{"name":…,"tier":…,"values":[…]}`. `truncated` says the
    /// server's size limit cut the search short.
    static func json(query: NameQuery, field: Field?, matches: [Candidate], more: Bool, truncated: Bool,
                     registry: FieldRegistry) -> String {
        var json = JSONWriter()
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
            match.person.writeJSON(to: &json, registry: registry) { json in
                json.key("match")
                json.beginObject()
                json.key("name")
                json.string(match.score.match.rawValue)
                if let field {
                    json.key("tier")
                    json.string(match.tier?.rawValue)
                    json.key("values")
                    json.strings(match.values.map { value in
                        field.kind.isBinary || value.string == nil ? Data(value.bytes).base64EncodedString() : value.lossyString
                    })
                }
                json.endObject()
            }
        }
        json.endArray()
        json.key("more")
        json.bool(more)
        json.key("truncated")
        json.bool(truncated)
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self) + "\n"
    }
}

extension Optional {
    /// Maps the wrapped value with an async throwing closure.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
