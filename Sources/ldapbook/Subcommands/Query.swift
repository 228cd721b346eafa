import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit

/// `ldapbook query STRING`: mutt's and aerc's address completion.
enum Query {
    static let spec = CommandSpec(
        "query",
        abstract: "Complete email addresses for mutt/neomutt (query_command) or aerc.",
        discussion: """
            Prints the email addresses of the people STRING names, matched and ranked as find \
            matches them (an address's local part counts as a name), one per line as \
            address<TAB>name<TAB>title, department, organisation, after a header line (mutt's \
            format) or without one (--format aerc). A mail domain finds everyone there: \
            @example.org, or example.org (any address whose domain starts with it), after the \
            people whose names match. Exits 1 when nothing matches. In muttrc: \
            set query_command = "ldapbook query %s"; in aerc: address-book-cmd = ldapbook query --format aerc "%s".
            """,
        options: [
            OptionSpec(["--format"], .value("mutt|aerc"), help: "output format (default mutt)"),
            OptionSpec(["--limit", "-n"], .value("N"), help: "at most N addresses (default 50)"),
            OptionSpec(["--info"], .repeatedValue("FIELD"),
                       help: "what the third column shows: these fields' values (default title, department, organization)",
                       completion: .program(arguments: ["--timeout", "1", "fields", "--format", "names"], fallback: Fields.builtInNames)),
        ],
        positionals: [PositionalSpec("STRING", help: "a name, or the start of an address", isRepeating: true)])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let format = try parsed.choice("--format", from: ["mutt", "aerc"]) ?? "mutt"
        let limit = try parsed.integer("--limit", in: 1...) ?? 50
        let book = try await Directory.addressBook(parsed)
        let email = try await book.field(named: "email")
        let text = parsed.positionals("STRING").joined(separator: " ")
        var infoFields: [Field] = []
        for name in parsed.values("--info") { infoFields.append(try await book.field(typed: name, nearMiss: Suggestion.closest)) }
        // The third column: the fields asked for, else title, department and organisation.
        func info(_ person: Person) -> String {
            guard !infoFields.isEmpty else { return person.details.joined(separator: ", ") }
            return infoFields.flatMap { person.values(of: $0).filter { $0.string != nil }.map(\.lossyString) }.joined(separator: ", ")
        }
        let ranking = try await book.rank(field: email, name: try NameQuery(text), reading: infoFields)
        var lines: [String] = []
        func clean(_ text: String) -> String {
            String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        }
        // People whose names match, then those whose address starts with a word of the query
        // (the field-only tier: jerome.dubois@… for "jerome.d"): the third column tells
        // namesakes apart.
        let byAddress = try await ranking.fieldOnly?.next(limit) ?? []
        let matcher = NameMatcher(ranking.query)
        for candidate in ranking.fieldAndName + byAddress {
            let info = info(candidate.person)
            // Of someone found by an address, that address: their others are not what was typed.
            let values = candidate.tier == .fieldOnly ? candidate.values.filter(matcher.startsAWord) : candidate.values
            for value in values where lines.count < limit {
                lines.append("\(clean(value.lossyString))\t\(clean(candidate.person.displayName))\t\(clean(info))")
            }
        }
        if let domain = Self.domain(in: text), lines.count < limit {
            var listed = Set(lines.map { $0.prefix { $0 != "\t" }.lowercased() })
            for person in try await book.people(withEmailDomain: domain, email: email, limit: limit, reading: infoFields) {
                let info = clean(info(person))
                for value in person.values(of: email) where lines.count < limit && Self.address(value.lossyString, isIn: domain) {
                    guard listed.insert(value.lossyString.lowercased()).inserted else { continue }
                    lines.append("\(clean(value.lossyString))\t\(clean(person.displayName))\t\(info)")
                }
            }
        }
        guard !lines.isEmpty else {
            if format == "mutt" { StandardStream.output.write("no match\n") }
            return .nothingDone
        }
        let header = format == "mutt" ? ["ldapbook: \(lines.count) address\(lines.count == 1 ? "" : "es")"] : []
        StandardStream.output.write((header + lines).joined(separator: "\n") + "\n")
        return .success
    }

    /// The mail domain a query names: `@example.org` or `@exam`, or one word with a dot and no
    /// `@` (`example.org`); `nil` for a name.
    static func domain(in text: String) -> String? {
        let word = text.trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty, !word.contains(where: \.isWhitespace) else { return nil }
        if word.hasPrefix("@") { return word.count > 1 ? String(word.dropFirst()) : nil }
        guard !word.contains("@"), word.contains("."), !word.hasPrefix("."), !word.hasSuffix(".") || word.count > 1 else {
            return nil
        }
        return word
    }

    /// Whether `address`'s domain starts with `domain` (ignoring case).
    static func address(_ address: String, isIn domain: String) -> Bool {
        guard let at = address.lastIndex(of: "@") else { return false }
        return address[address.index(after: at)...].lowercased().hasPrefix(domain.lowercased())
    }
}
