import Foundation
import LDAPBook
import LDAPKit
import SlapdKit

// MARK: - 6. The local index of people

/// What workload 6 measured at one size, for the summary.
struct IndexMeasurements {
    var size: Int
    var syncRatio: Double
    var incrementalSeconds: Double
    var incrementalMethod: String
    var bytesPerPerson: Int
    /// Query, median seconds, slapd CPU seconds per run.
    var lookups: [(query: String, median: Double, serverCPU: Double)]
    /// Query, slapd CPU of `find --no-cache` over that of ldapsearch's prefix filter.
    var serverRatios: [(query: String, ratio: Double)]
}

extension Bench {
    /// The queries of the lookups: hits (a full name, a surname, two letters, a typo, a
    /// nickname, the last digits of a phone number) and misses.
    static let indexQueries: [(label: String, words: [String], hit: Bool)] = [
        ("john smith", ["john", "smith"], true), ("smith", ["smith"], true), ("jo", ["jo"], true),
        ("lovelcae", ["lovelcae"], true), ("bob", ["bob"], true), ("7946 0001", ["7946", "0001"], true),
        ("zzzzzz", ["zzzzzz"], false), ("xq", ["xq"], false),
    ]

    /// Workload 6: the local index against the server. Making it (`sync --rebuild`) against
    /// `ldapsearch` reading the same people and attributes; bringing it up to date after 100
    /// changes; its size; then lookups through it, and the server's CPU for the same lookups
    /// without it (`--no-cache`) against ldapsearch's prefix filter.
    func indexWorkload(size: Int, server: Slapd) async throws -> IndexMeasurements {
        let cache = work.appendingPathComponent("index-cache-\(size)")
        try? FileManager.default.removeItem(at: cache)
        var environment = childEnvironment
        environment["XDG_CACHE_HOME"] = cache.path
        let connection = ["-H", server.ldapURI, "-b", suffix]
        let attributes = PeopleIndex.readAttributes

        // Making it: both read every person with the same attributes, in pages of 1,000.
        var making = TurnTaking([
            .init(label: "ldapsearch, every person, the index's attributes, pages of 1,000",
                  shown: "ldapsearch -x -LLL -H URI -b BASE -E pr=1000/noprompt '(objectClass=person)' ATTRIBUTES > /dev/null",
                  arguments: ["/usr/bin/ldapsearch", "-x", "-LLL"] + connection + ["-E", "pr=1000/noprompt", "(objectClass=person)"] + attributes),
            .init(label: "ldapbook sync --rebuild (reads everyone, files them)", shown: "ldapbook sync --rebuild -H URI -b BASE",
                  arguments: [ldapbook, "sync", "--rebuild"] + connection),
        ])
        try making.run(size >= 1_000_000 ? 3 : (quick ? 3 : 5), warmUps: 1, server: server, environment: environment)
        let printed = try ChildRun.run(["/usr/bin/ldapsearch", "-x", "-LLL"] + connection + ["-E", "pr=1000/noprompt", "(objectClass=person)", "1.1"],
                                       environment: environment, capture: true).output
            .split(separator: "\n").filter { $0.hasPrefix("dn:") }.count
        let status = try ChildRun.run([ldapbook, "sync", "--status"] + connection, environment: environment, capture: true).output
        let people = Self.statusValue(status, "people").flatMap { Int($0) } ?? -1
        guard people == printed else { throw BenchError("ldapsearch read \(printed) people, the index holds \(people)") }
        let bytes = Self.statusValue(status, "size").flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
        let bytesPerPerson = bytes / max(people, 1)
        report.section("6a. Making the local index (\(size.formatted()) entries)",
                       headers: ["command", "median", "p95", "client CPU/run", "slapd CPU/run", "peak RSS", "vs ldapsearch"],
                       rows: making.rows(reference: 0),
                       note: "Target: ≤ 2× ldapsearch reading the same \(printed.formatted()) people and attributes. The index then "
                        + "holds \(people.formatted()) people in \(bytes.formatted()) bytes: **\(bytesPerPerson) bytes a person** "
                        + "(target ≤ 300). \(making.runs) runs each, taking turns. Commands: \(making.commandLines).")

        // Bringing it up to date after 100 changes, three times.
        let root = try await connect(server, asRoot: true, pageSize: 1000)
        var changed: [DistinguishedName] = []
        for try await entry in root.search(base: base, filter: .equal("objectClass", "person"), attributes: ["1.1"]) {
            changed.append(entry.dn)
            if changed.count == 300 { break }
        }
        var incremental = Timings()
        var method = "?"
        for round in 0..<3 {
            for dn in changed[(round * 100)..<min(round * 100 + 100, changed.count)] {
                try await root.modify(dn, [.replace("title", values: [LDAPValue("Changed \(round)")])])
            }
            let run = try ChildRun.run([ldapbook, "sync"] + connection, environment: environment, capture: true)
            guard run.status == 0 else { throw BenchError("ldapbook sync exited \(run.status)") }
            incremental.append(run.wall)
            method = run.output.split(separator: "\n").first.map(String.init) ?? "?"
        }
        // Every change is in the index: the last round's title is found.
        let check = try ChildRun.run([ldapbook, "show", "--format", "ldif", changed[200].string] + connection, environment: environment, capture: true)
        guard check.output.contains("title: Changed 2") else { throw BenchError("the index missed a change: \(check.output.prefix(300))") }
        report.section("6b. Bringing it up to date after 100 changes (\(size.formatted()) entries)",
                       headers: ["what", "median", "slowest", "what sync said"],
                       rows: [["100 entries' title replaced, then `ldapbook sync`", formatSeconds(incremental.median),
                               formatSeconds(incremental.percentile(100)), method]],
                       note: "Target: ≤ 1 s at 100,000 entries. Three rounds of 100 changes.")

        // Lookups through the index (brought up to date just before, so within its age).
        var lookups = TurnTaking(Self.indexQueries.map { query in
            .init(label: "ldapbook find \(query.label)", shown: "ldapbook find \(query.label) -H URI -b BASE",
                  arguments: [ldapbook, "find"] + query.words + connection)
        })
        _ = try ChildRun.run([ldapbook, "sync"] + connection, environment: environment)
        try lookups.run(quick ? 10 : 30, warmUps: 2, server: server, environment: environment, allowing: [0, 1])
        let measured = Self.indexQueries.indices.map { index in
            (Self.indexQueries[index].label, lookups.timings[index].median, lookups.serverCPU[index] / Double(max(lookups.runs, 1)))
        }
        report.section("6c. Lookups through the index (\(size.formatted()) entries)",
                       headers: ["command", "median", "p95", "client CPU/run", "slapd CPU/run", "peak RSS", "vs the first"],
                       rows: lookups.rows(reference: 0),
                       note: "Target: ≤ 20 ms median for hits and misses alike, and no slapd CPU. Each is a whole process, as a "
                        + "shell or mutt runs it: start-up, opening the index, ranking, printing the first 20. \(lookups.runs) runs "
                        + "each, taking turns.")

        // Without the index: what the server spends on each lookup, against ldapsearch's prefix filter.
        var serverRows: [[String]] = []
        var ratios: [(String, Double)] = []
        let serverQueries = Self.indexQueries.filter { ["john smith", "smith", "zzzzzz", "xq", "lovelcae"].contains($0.label) }
        for query in serverQueries {
            // ldapsearch reads what find reads of each person, so that the server's work differs
            // only by the filter.
            let read = NameMatcher(try NameQuery(query.words.joined(separator: " "))).readAttributes
            var turns = TurnTaking([
                .init(label: "ldapsearch prefix filter", shown: "ldapsearch -x -LLL -H URI -b BASE '\(plainPrefixFilter(query.words))' ATTRIBUTES",
                      arguments: ["/usr/bin/ldapsearch", "-x", "-LLL"] + connection + [plainPrefixFilter(query.words).description] + read),
                .init(label: "ldapbook find --no-cache", shown: "ldapbook find \(query.label) --no-cache -H URI -b BASE",
                      arguments: [ldapbook, "find", "--no-cache"] + query.words + connection),
            ])
            // slapd's CPU time is counted in clock ticks (10 ms), while a miss costs it under
            // 1 ms: a cheap lookup is run a few hundred times, so that the ratio is more than a
            // tick or two either way; one that costs the server much, fifteen times.
            let probe = try ChildRun.run(turns.commands[1].arguments, environment: environment)
            let milliseconds = max(probe.wall / .milliseconds(1), 1)
            let count = quick ? 5 : min(300, max(15, Int(4000 / milliseconds)))
            try turns.run(count, warmUps: 1, server: server, environment: environment, allowing: [0, 1])
            let runs = Double(max(turns.runs, 1))
            let reference = turns.serverCPU[0] / runs, ours = turns.serverCPU[1] / runs
            let ratio = ours / max(reference, 0.0005)
            ratios.append((query.label, ratio))
            serverRows.append([query.label, formatSeconds(reference), formatSeconds(ours), String(format: "%.2f×", ratio),
                               formatSeconds(turns.timings[0].median), formatSeconds(turns.timings[1].median)])
        }
        report.section("6d. Without the index: the server's CPU per lookup (\(size.formatted()) entries)",
                       headers: ["query", "slapd CPU, ldapsearch", "slapd CPU, find --no-cache", "ratio", "wall, ldapsearch", "wall, find"],
                       rows: serverRows,
                       note: "Target: ≤ 2× ldapsearch's prefix filter `(|(givenName=W*)(sn=W*))` (one term a word), reading the "
                        + "attributes find reads, for hits and misses alike. slapd's CPU is read from /proc before and after each run; a ratio against less than 0.5 ms "
                        + "is taken against 0.5 ms.")
        return IndexMeasurements(size: size, syncRatio: making.ratio(1, to: 0), incrementalSeconds: incremental.median,
                                 incrementalMethod: method, bytesPerPerson: bytesPerPerson, lookups: measured, serverRatios: ratios)
    }

    /// The value of `key: value` in `sync --status`'s output.
    static func statusValue(_ status: String, _ key: String) -> String? {
        status.split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }
}
