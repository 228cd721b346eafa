import Foundation
import LDAPBook
import LDAPKit
import SlapdKit

/// Runs the workloads of one benchmark run and collects the report.
final class Bench: @unchecked Sendable {
    let work: URL
    let ldapbook: String
    let suffix = "dc=bench,dc=example"
    let photos: [[UInt8]]
    let quick: Bool
    var report = Report()
    /// The ratios to the peer found so far, for the summary: size, what, ratio.
    var lookupRatios: [(size: Int, what: String, ratio: Double)] = []
    var exportRatios: [(size: Int, what: String, ratio: Double)] = []
    var importRatios: [(size: Int, ratio: Double)] = []
    /// Peak RSS of each export, by size.
    var exportPeaks: [(size: Int, what: String, bytes: Int)] = []
    var exportCommands = ""
    /// What workload 6 measured, by size.
    var indexMeasurements: [IndexMeasurements] = []

    init(work: URL, ldapbook: String, photos: [[UInt8]], quick: Bool) {
        self.work = work
        self.ldapbook = ldapbook
        self.photos = photos
        self.quick = quick
    }

    var base: DistinguishedName { (try? DistinguishedName(parsing: suffix)) ?? DistinguishedName(rdns: []) }

    /// The environment of child processes: no ldap.conf, no user configuration.
    var childEnvironment: [String: String] {
        let empty = work.appendingPathComponent("home").path
        return ["LDAPNOINIT": "1", "HOME": empty, "XDG_CONFIG_HOME": empty + "/config", "XDG_DATA_HOME": empty + "/data",
                "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    /// The LDIF of `count` people (and their container), generated once per size. The
    /// version in the name is the generator's: a new one when what it generates changes.
    func dataset(_ count: Int) throws -> URL {
        let file = work.appendingPathComponent("people-v2-\(count).ldif")
        if !FileManager.default.fileExists(atPath: file.path) {
            let started = ContinuousClock.now
            try BenchPeople.writeLDIF(count: count, suffix: suffix, photos: photos, to: file.appendingPathExtension("tmp"))
            try FileManager.default.moveItem(at: file.appendingPathExtension("tmp"), to: file)
            log("generated \(count) people in \(ContinuousClock.now - started)")
        }
        return file
    }

    /// A server holding `count` people, loaded offline with `slapadd -q`.
    func loadedServer(_ count: Int) async throws -> Slapd {
        let server = try Slapd(configuration: serverConfiguration())
        let started = ContinuousClock.now
        try server.bulkLoad(ldifFile: try dataset(count))
        log("slapadd -q of \(count) people: \(ContinuousClock.now - started)")
        try await server.start()
        return server
    }

    /// An empty server (with its suffix entry).
    func emptyServer() async throws -> Slapd {
        let server = try Slapd(configuration: serverConfiguration())
        try await server.start()
        return server
    }

    /// A server as `ldapbook server-config` makes one: with content synchronization (RFC 4533),
    /// which keeps the local index of workload 6 current.
    func serverConfiguration() -> SlapdConfiguration {
        var configuration = SlapdConfiguration(suffix: suffix)
        configuration.workingDirectory = nil
        configuration.syncProvider = .init()
        return configuration
    }

    /// A connection to `server`, anonymous unless `asRoot`.
    func connect(_ server: Slapd, asRoot: Bool = false, pageSize: Int? = 0) async throws -> LDAPConnection {
        let authentication: LDAPConnection.Authentication = asRoot
            ? .simple(dn: try DistinguishedName(parsing: server.rootDN), password: .init(server.rootPassword)) : .anonymous
        return try await LDAPConnection.connect(configuration: .init(
            servers: [server.ldapURI], base: base, authentication: authentication, operationTimeout: .seconds(600),
            pageSize: pageSize, systemDefaults: .ignored))
    }

    /// A 0600 file holding the root password of `server`, for `-y`.
    func passwordFile(_ server: Slapd) throws -> String {
        let file = server.directory.appendingPathComponent("bench-password")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(server.rootPassword.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw BenchError("cannot write \(file.path)")
        }
        return file.path
    }

    /// The entries in `server` below the suffix that are people.
    func personCount(_ server: Slapd) async throws -> Int {
        let connection = try await connect(server, pageSize: 1000)
        let count = try await connection.search(filter: .equal("objectClass", "inetOrgPerson"), attributes: ["1.1"]).collect().count
        await connection.close()
        return count
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
}

/// The plain prefix filter a user would give ldapsearch for `words`: each word a prefix of a
/// first or last name, `(|(givenName=w*)(sn=w*)...)`.
func plainPrefixFilter(_ words: [String]) -> LDAPFilter {
    .or(words.flatMap { word in [LDAPFilter.prefix("givenName", LDAPValue(word)), .prefix("sn", LDAPValue(word))] })
}

// MARK: - 1. One lookup as a user runs it

/// Commands that take turns, and what each run of them took.
struct TurnTaking {
    struct Command {
        let label: String
        /// The command line as BENCHMARKS.md shows it.
        let shown: String
        let arguments: [String]
    }

    let commands: [Command]
    private(set) var timings: [Timings]
    private(set) var cpu: [Double]
    private(set) var serverCPU: [Double]
    private(set) var peakRSS: [Int]
    private(set) var runs = 0

    init(_ commands: [Command]) {
        self.commands = commands
        timings = Array(repeating: Timings(), count: commands.count)
        cpu = Array(repeating: 0, count: commands.count)
        serverCPU = Array(repeating: 0, count: commands.count)
        peakRSS = Array(repeating: 0, count: commands.count)
    }

    /// Runs each command `warmUps` times, then all of them in turn `runs` times, one run
    /// each, so that what else the shared machine does at the time weighs on all alike.
    /// (Measured as blocks, one command after the other, the same two binaries gave 1.17×
    /// once and 1.04× taking turns.)
    mutating func run(_ runs: Int, warmUps: Int = 2, server: Slapd, environment: [String: String],
                      allowing allowed: Set<Int32> = [0]) throws {
        for command in commands {
            for _ in 0..<warmUps { _ = try ChildRun.run(command.arguments, environment: environment) }
        }
        for _ in 0..<runs {
            for (index, command) in commands.enumerated() {
                let serverBefore = CPUUsage.processSeconds(server.processIdentifier ?? 0)
                let run = try ChildRun.run(command.arguments, environment: environment)
                serverCPU[index] += CPUUsage.processSeconds(server.processIdentifier ?? 0) - serverBefore
                guard allowed.contains(run.status) else { throw BenchError("\(command.label) exited \(run.status)") }
                timings[index].append(run.wall)
                cpu[index] += run.cpu
            }
        }
        // Memory in runs of their own: reading /proc every 2 ms takes a share of the CPU the
        // timed runs would feel.
        for (index, command) in commands.enumerated() {
            peakRSS[index] = max(peakRSS[index], try ChildRun.run(command.arguments, environment: environment, watchesMemory: true).maxRSS)
        }
        self.runs += runs
    }

    /// The median wall time of command `index` over that of command `reference`.
    func ratio(_ index: Int, to reference: Int) -> Double {
        timings[index].median / timings[reference].median
    }

    /// A row per command: median, p95, CPU per run (client and slapd), peak RSS, and the ratio
    /// to `reference`'s median.
    func rows(reference: Int) -> [[String]] {
        commands.indices.map { index in
            [commands[index].label, formatSeconds(timings[index].median), formatSeconds(timings[index].p95),
             formatSeconds(cpu[index] / Double(max(runs, 1))), formatSeconds(serverCPU[index] / Double(max(runs, 1))),
             formatMB(peakRSS[index]), index == reference ? "1" : String(format: "**%.2f×**", ratio(index, to: reference))]
        }
    }

    /// The exact command lines, for the report.
    var commandLines: String {
        commands.map { "`\($0.shown)`" }.joined(separator: "; ")
    }
}

extension Bench {
    func processLookup(size: Int, server: Slapd) throws {
        // The people ldapbook's name search reads, and what it reads of them: ldapsearch asked
        // for the same prints the same people, in one page of up to 20,000 as ldapbook asks.
        let matcher = NameMatcher(try NameQuery("jo"))
        let filter = matcher.filter.description
        let attributes = matcher.readAttributes
        let connection = ["-H", server.ldapURI, "-b", suffix]
        var turns = TurnTaking([
            .init(label: "ldapsearch, the same filter and attributes, one page of up to 20,000",
                  shown: "ldapsearch -x -LLL -H URI -b BASE -E pr=20000/noprompt \"$(ldapbook-bench filter jo | head -1)\" $(ldapbook-bench filter jo | tail -n +2)",
                  arguments: ["/usr/bin/ldapsearch", "-x", "-LLL"] + connection + ["-E", "pr=20000/noprompt", filter] + attributes),
            .init(label: "ldapbook find jo (the table of the first 20)", shown: "ldapbook find jo --no-cache -H URI -b BASE",
                  arguments: [ldapbook, "find", "jo", "--no-cache"] + connection),
            .init(label: "ldapbook find jo --format json (the first 20)", shown: "ldapbook find jo --format json --no-cache -H URI -b BASE",
                  arguments: [ldapbook, "find", "jo", "--format", "json", "--no-cache"] + connection),
            .init(label: "ldapbook find jo --limit 1000000 (the table of all)", shown: "ldapbook find jo --limit 1000000 --no-cache -H URI -b BASE",
                  arguments: [ldapbook, "find", "jo", "--limit", "1000000", "--no-cache"] + connection),
            .init(label: "ldapbook find jo --limit 1000000 --format json (all)",
                  shown: "ldapbook find jo --limit 1000000 --format json --no-cache -H URI -b BASE",
                  arguments: [ldapbook, "find", "jo", "--limit", "1000000", "--format", "json", "--no-cache"] + connection),
        ])
        try turns.run(quick ? 10 : 40, warmUps: 3, server: server, environment: childEnvironment)
        // The same people: as many as ldapsearch prints, ldapbook lists.
        let printed = try ChildRun.run(turns.commands[0].arguments, environment: childEnvironment, capture: true).output
            .split(separator: "\n").filter { $0.hasPrefix("dn:") }.count
        let listed = try ChildRun.run(turns.commands[4].arguments, environment: childEnvironment, capture: true).output
            .components(separatedBy: "\"dn\":").count - 1
        guard printed == listed else { throw BenchError("ldapsearch printed \(printed) people, ldapbook find listed \(listed)") }
        let plain = try ChildRun.run(["/usr/bin/ldapsearch", "-x", "-LLL"] + connection + ["-E", "pr=20000/noprompt",
                                      plainPrefixFilter(["jo"]).description, "1.1"], environment: childEnvironment, capture: true).output
            .split(separator: "\n").filter { $0.hasPrefix("dn:") }.count
        report.section("1. One lookup as a user runs it (\(size.formatted()) entries, \(listed) people found for `jo`)",
                       headers: ["command", "median", "p95", "client CPU/run", "slapd CPU/run", "peak RSS", "vs ldapsearch"],
                       rows: turns.rows(reference: 0),
                       note: String(format: "Target: within 1.10× of ldapsearch printing the same people, in table and JSON form. "
                                    + "%d runs each, taking turns, after 3 warm-up runs each. Both send ldapbook's filter for `jo` (its "
                                    + "accented spellings, on first, last and full names) and ask for the same "
                                    + "attributes; both get the same %d people (ldapsearch's are counted, and ldapbook's JSON of all), "
                                    + "against %d for the plain `%@`. Commands: %@.",
                                    turns.runs, listed, plain, plainPrefixFilter(["jo"]).description, turns.commandLines))
        lookupRatios += [(size, "find jo", turns.ratio(1, to: 0)), (size, "find jo --format json", turns.ratio(2, to: 0)),
                         (size, "find jo, all, table", turns.ratio(3, to: 0)), (size, "find jo, all, JSON", turns.ratio(4, to: 0))]
    }
}

// MARK: - 2. Many lookups through the library

extension Bench {
    func libraryLookups(size: Int, server: Slapd) async throws {
        let prefixes = BenchPeople.prefixes(count: 1000, from: BenchPeople(count: size, suffix: suffix, photos: []))
        let filters = prefixes.map { plainPrefixFilter([$0]) }
        let attributes = Person.attributes(for: [])
        let inFlight = 8
        var rows: [[String]] = []
        var rates: [String: Double] = [:]
        let serverPID = server.processIdentifier

        // ldapbook's LDAPKit, one connection.
        let connection = try await connect(server)
        for filter in filters.prefix(50) { _ = try await connection.search(filter: filter, attributes: attributes).collect() }
        var latencies = Timings()
        var entries = 0
        var before = CPUUsage.now(server: serverPID)
        var started = ContinuousClock.now
        for filter in filters {
            let one = ContinuousClock.now
            entries += try await connection.search(filter: filter, attributes: attributes).collect().count
            latencies.append(ContinuousClock.now - one)
        }
        var elapsed = seconds(ContinuousClock.now - started)
        var cpu = CPUUsage.now(server: serverPID) - before
        rates["swift-serial"] = Double(filters.count) / elapsed
        rows.append(["ldapbook (LDAPKit), serial", formatRate(rates["swift-serial"]!), formatSeconds(latencies.median),
                     formatSeconds(latencies.p95), "\(entries)", String(format: "%.2f s", cpu.client), String(format: "%.2f s", cpu.server)])
        let expectedEntries = entries

        before = CPUUsage.now(server: serverPID)
        started = ContinuousClock.now
        let counted = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<inFlight {
                group.addTask {
                    var total = 0
                    for index in stride(from: worker, to: filters.count, by: inFlight) {
                        total += try await connection.search(filter: filters[index], attributes: attributes).collect().count
                    }
                    return total
                }
            }
            return try await group.reduce(0, +)
        }
        elapsed = seconds(ContinuousClock.now - started)
        cpu = CPUUsage.now(server: serverPID) - before
        guard counted == expectedEntries else { throw BenchError("in-flight lookups found \(counted) entries, serial \(expectedEntries)") }
        rates["swift-inflight"] = Double(filters.count) / elapsed
        rows.append(["ldapbook (LDAPKit), \(inFlight) in flight", formatRate(rates["swift-inflight"]!), "", "", "\(counted)",
                     String(format: "%.2f s", cpu.client), String(format: "%.2f s", cpu.server)])

        await connection.close()

        // The Python peers read the same filters and attributes.
        let filterFile = work.appendingPathComponent("filters-\(size).txt")
        try filters.map(\.description).joined(separator: "\n").write(to: filterFile, atomically: true, encoding: .utf8)
        let peers: [(String, String, [String])] = [
            ("python-ldap, serial", "python-serial", ["python_ldap_lookups.py", "serial"]),
            ("python-ldap, \(inFlight) in flight", "python-inflight", ["python_ldap_lookups.py", "inflight", "\(inFlight)"]),
            ("ldap3, serial", "ldap3-serial", ["ldap3_lookups.py", "serial"]),
        ]
        for (label, key, script) in peers {
            let path = benchDirectory.appendingPathComponent(script[0]).path
            let arguments = ["/usr/bin/python3", path, server.ldapURI, suffix, filterFile.path, attributes.joined(separator: ",")]
                + Array(script.dropFirst())
            let serverBefore = CPUUsage.processSeconds(serverPID ?? 0)
            let run = try ChildRun.run(arguments, environment: childEnvironment, capture: true)
            let serverCPU = CPUUsage.processSeconds(serverPID ?? 0) - serverBefore
            guard run.status == 0, let result = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
                  let lookups = result["lookups"] as? Int, let secondsTaken = result["seconds"] as? Double,
                  let found = result["entries"] as? Int
            else {
                rows.append([label, "failed (exit \(run.status))", "", "", "", "", ""])
                continue
            }
            let expected = filters.prefix(lookups).count == filters.count ? expectedEntries : nil
            if let expected, found != expected {
                throw BenchError("\(label) found \(found) entries, LDAPKit \(expected)")
            }
            rates[key] = Double(lookups) / secondsTaken
            rows.append([label + (lookups < filters.count ? " (first \(lookups))" : ""), formatRate(rates[key]!),
                         (result["median"] as? Double).map(formatSeconds) ?? "", (result["p95"] as? Double).map(formatSeconds) ?? "",
                         "\(found)", String(format: "%.2f s", run.cpu), String(format: "%.2f s", serverCPU)])
        }
        var notes: [String] = []
        if let python = rates["python-serial"] {
            notes.append(String(format: "serial vs python-ldap serial: **%.2f×** (target ≥ 1)", rates["swift-serial"]! / python))
            notes.append(String(format: "%d in flight vs python-ldap serial: **%.2f×** (target ≥ 2)", inFlight, rates["swift-inflight"]! / python))
        }
        if let ldap3 = rates["ldap3-serial"] {
            notes.append(String(format: "serial vs ldap3 serial: **%.1f×** (target ≥ 10)", rates["swift-serial"]! / ldap3))
        }
        report.section("2. Many lookups through the library (\(size.formatted()) entries, \(filters.count) prefixes of 2–4 letters)",
                       headers: ["client", "lookups/s", "median", "p95", "entries", "client CPU", "slapd CPU"], rows: rows,
                       note: notes.joined(separator: "; ") + ". One connection each; the same filters `(|(givenName=P*)(sn=P*))` and attributes; no paging.")
    }

    var benchDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("bench")
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

// MARK: - 3. The full resolver

/// Confirms every single match; the resolver's flow needs no other answer for a resolved name.
struct ConfirmingPresenter: ReachPresenter {
    func confirm(_ confirmation: ReachConfirmation) async throws -> Bool { true }
    func choose(from menu: ReachMenu) async throws -> ReachMenu.Choice { throw BenchError("the name did not resolve to one value") }
    func edit(_ request: EditRequest) async throws -> EditAnswer? { nil }
    func create(_ request: CreateRequest) async throws -> CreateAnswer? { nil }
}

extension Bench {
    func resolver(size: Int, server: Slapd) async throws {
        let connection = try await connect(server, pageSize: 500)
        let book = AddressBook(connection: connection)
        let counter = Counter()
        let runs = quick ? 100 : 500
        for _ in 0..<20 {
            try await book.reach(field: "phone", name: "alan turing", presenter: ConfirmingPresenter()) { _, _ in counter.increment() }
        }
        var timings = Timings()
        let before = CPUUsage.now(server: server.processIdentifier)
        for _ in 0..<runs {
            let started = ContinuousClock.now
            let outcome = try await book.reach(field: "phone", name: "alan turing", presenter: ConfirmingPresenter()) { _, _ in
                counter.increment()
            }
            timings.append(ContinuousClock.now - started)
            guard case .reached = outcome else { throw BenchError("alan turing did not resolve") }
        }
        let cpu = CPUUsage.now(server: server.processIdentifier) - before
        await connection.close()
        report.section("3. The full resolver on a resolved name (\(size.formatted()) entries)",
                       headers: ["what", "median", "p95", "per second", "client CPU/run", "slapd CPU/run"],
                       rows: [["`reach(field: \"phone\", name: \"alan turing\")`: field lookup, search, rank, confirm, action",
                               formatSeconds(timings.median), formatSeconds(timings.p95), formatRate(1 / timings.median),
                               formatSeconds(cpu.client / Double(runs)), formatSeconds(cpu.server / Double(runs))]],
                       note: "\(runs) runs in-process after 20 warm-up runs, one connection; the action only counts.")

    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.lock(); value += 1; lock.unlock() }
}

extension Bench {
    /// Workload 2's lookups alone against a served directory of `count` people, for a
    /// profiler: prints the time and the CPU used.
    static func profileLookups(uri: String, count: Int, inFlight: Int) async throws {
        let prefixes = BenchPeople.prefixes(count: 1000, from: BenchPeople(count: count, suffix: "dc=bench,dc=example", photos: []))
        let filters = prefixes.map { plainPrefixFilter([$0]) }
        let connection = try await LDAPConnection.connect(configuration: .init(
            servers: [uri], base: try DistinguishedName(parsing: "dc=bench,dc=example"), pageSize: 0, systemDefaults: .ignored))
        let attributes = Person.attributes(for: [])
        let started = ContinuousClock.now
        let cpuStarted = CPUUsage.now(server: nil).client
        let entries = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<max(inFlight, 1) {
                group.addTask {
                    var total = 0
                    for index in stride(from: worker, to: filters.count, by: max(inFlight, 1)) {
                        total += try await connection.search(filter: filters[index], attributes: attributes).collect().count
                    }
                    return total
                }
            }
            return try await group.reduce(0, +)
        }
        let cpu = CPUUsage.now(server: nil).client - cpuStarted
        FileHandle.standardError.write(Data("\(filters.count) lookups, \(entries) entries in \(ContinuousClock.now - started) (\(Int(cpu * 1000)) ms of CPU)\n".utf8))
        await connection.close()
    }
}

// MARK: - 4. Bulk import

extension Bench {
    /// The people-only LDIF of `size` people: ldapbook creates the people container itself,
    /// and ldapadd gets it added beforehand, untimed.
    func importFile(_ size: Int) throws -> URL {
        let file = work.appendingPathComponent("people-only-v1-\(size).ldif")
        if !FileManager.default.fileExists(atPath: file.path) {
            try BenchPeople.writeLDIF(count: size, suffix: suffix, photos: photos, to: file.appendingPathExtension("tmp"),
                                      includingContainer: false)
            try FileManager.default.moveItem(at: file.appendingPathExtension("tmp"), to: file)
        }
        return file
    }

    /// `ldapadd -f` and `ldapbook import` of the same `size` unique people, each into an
    /// empty directory of its own: the rows, and the ratio in words.
    /// With `exportingCards`, the people imported are exported as vCards for ``cardImport(count:)``.
    func bulkImport(size: Int, exportingCards: Bool) async throws -> (rows: [[String]], ratio: String) {
        let file = try importFile(size)
        var rows: [[String]] = []

        let plain = try await emptyServer()
        let container = try await connect(plain, asRoot: true)
        try await container.add(BenchPeople.container(suffix: suffix))
        await container.close()
        let ldapadd = ["/usr/bin/ldapadd", "-x", "-H", plain.ldapURI, "-D", plain.rootDN, "-y", try passwordFile(plain), "-f", file.path]
        var serverBefore = CPUUsage.processSeconds(plain.processIdentifier ?? 0)
        let added = try ChildRun.run(ldapadd, environment: childEnvironment)
        var serverCPU = CPUUsage.processSeconds(plain.processIdentifier ?? 0) - serverBefore
        guard added.status == 0 else { throw BenchError("ldapadd exited \(added.status)") }
        let plainCount = try await personCount(plain)
        plain.cleanup()
        rows.append([size.formatted(), "`ldapadd -x -H URI -D ROOTDN -y FILE -f people.ldif` (one add at a time)",
                     formatSeconds(seconds(added.wall)), formatRate(Double(size) / seconds(added.wall)),
                     "\(plainCount)", String(format: "%.1f s", added.cpu), String(format: "%.1f s", serverCPU)])

        let book = try await emptyServer()
        let importArguments = [ldapbook, "import", file.path, "-H", book.ldapURI, "-b", suffix, "-D", book.rootDN, "-y", try passwordFile(book)]
        serverBefore = CPUUsage.processSeconds(book.processIdentifier ?? 0)
        let imported = try ChildRun.run(importArguments, environment: childEnvironment)
        serverCPU = CPUUsage.processSeconds(book.processIdentifier ?? 0) - serverBefore
        guard imported.status == 0 else { throw BenchError("ldapbook import exited \(imported.status)") }
        let bookCount = try await personCount(book)
        guard bookCount == plainCount else { throw BenchError("ldapbook import made \(bookCount) people, ldapadd \(plainCount)") }
        if exportingCards { try exportCards(from: book) }
        book.cleanup()
        rows.append([size.formatted(), "`ldapbook import people.ldif -H URI -b BASE -D ROOTDN -y FILE` (identity checks)",
                     formatSeconds(seconds(imported.wall)), formatRate(Double(size) / seconds(imported.wall)), "\(bookCount)",
                     String(format: "%.1f s", imported.cpu), String(format: "%.1f s", serverCPU)])
        importRatios.append((size, seconds(added.wall) / seconds(imported.wall)))
        return (rows, String(format: "At %@: ldapbook import vs ldapadd **%.2f×** (target ≥ 1.0×).", size.formatted(),
                             seconds(added.wall) / seconds(imported.wall)))
    }

    /// What the import rows compare.
    static let importNote = """
        Both commands read the same LDIF file of unique people and add every one (the people after each are counted, \
        and must be equal); each runs against an empty directory of its own (the default indexes, MDB with one fsync per \
        write). ldapbook also finds out who is there already: for each batch of records, one search for the entries at \
        their DNs and one for the names new entries could take, made while the previous batch's adds are in flight, \
        and keeps up to 32 adds in flight on one connection. Neither uses LDAP transactions: each add is a write of its own.
        """

    /// The vCards of the people of `server`, for ``cardImport(count:)``.
    func exportCards(from server: Slapd) throws {
        let cards = quick ? 500 : 10_000
        let export = try ChildRun.run([ldapbook, "export", "--format", "vcard", "-H", server.ldapURI, "-b", suffix],
                                      environment: childEnvironment, capture: true)
        let some = export.output.components(separatedBy: "END:VCARD\r\n").prefix(cards)
        try (some.joined(separator: "END:VCARD\r\n") + "END:VCARD\r\n")
            .write(to: work.appendingPathComponent("people-\(cards).vcf"), atomically: true, encoding: .utf8)
    }

    /// `ldapbook import` of `count` vCards (exported by ``exportCards(from:)``) into an empty directory.
    func cardImport(count: Int) async throws -> [[String]] {
        let vcf = work.appendingPathComponent("people-\(count).vcf")
        let server = try await emptyServer()
        let serverBefore = CPUUsage.processSeconds(server.processIdentifier ?? 0)
        let run = try ChildRun.run([ldapbook, "import", vcf.path, "-H", server.ldapURI, "-b", suffix, "-D", server.rootDN,
                                    "-y", try passwordFile(server)], environment: childEnvironment)
        let serverCPU = CPUUsage.processSeconds(server.processIdentifier ?? 0) - serverBefore
        guard run.status == 0 else { throw BenchError("ldapbook import of vCards exited \(run.status)") }
        let people = try await personCount(server)
        server.cleanup()
        return [[count.formatted(), "`ldapbook import people.vcf …` (vCards exported from the people above; no ldapadd peer)",
                 formatSeconds(seconds(run.wall)), formatRate(Double(count) / seconds(run.wall)), "\(people)",
                 String(format: "%.1f s", run.cpu), String(format: "%.1f s", serverCPU)]]
    }
}

// MARK: - 5. Export

extension Bench {
    /// Every format of `ldapbook export` against ldapsearch printing the same entries as
    /// LDIF, in pages of 500 each, taking turns; a row per command.
    func exportRun(size: Int, server: Slapd) throws -> [[String]] {
        let connection = ["-H", server.ldapURI, "-b", suffix]
        var commands: [TurnTaking.Command] = [
            .init(label: "ldapsearch LDIF", shown: "ldapsearch -x -LLL -H URI -b BASE -E pr=500/noprompt '(objectClass=inetOrgPerson)'",
                  arguments: ["/usr/bin/ldapsearch", "-x", "-LLL"] + connection + ["-E", "pr=500/noprompt", "(objectClass=inetOrgPerson)"]),
        ]
        for format in ["ldif", "vcard", "json", "csv"] {
            commands.append(.init(label: "ldapbook \(format)", shown: "ldapbook export --format \(format) -H URI -b BASE",
                                  arguments: [ldapbook, "export", "--format", format] + connection))
        }
        var turns = TurnTaking(commands)
        try turns.run(quick ? 2 : size >= 1_000_000 ? 3 : 5, warmUps: size >= 1_000_000 ? 0 : 1, server: server,
                      environment: childEnvironment)
        exportRatios += commands.indices.dropFirst().map { (size, commands[$0].label, turns.ratio($0, to: 0)) }
        exportPeaks += commands.indices.map { (size, commands[$0].label, turns.peakRSS[$0]) }
        exportCommands = turns.commandLines
        return turns.rows(reference: 0).map { [size.formatted()] + $0 }
    }

    /// What a command that finds nothing takes (its start-up): median wall time and peak RSS.
    func startUp(server: Slapd) throws -> [[String]] {
        var turns = TurnTaking([
            .init(label: "ldapsearch, nobody found", shown: "ldapsearch -x -LLL -H URI -b BASE '(sn=zzzzzz)'",
                  arguments: ["/usr/bin/ldapsearch", "-x", "-LLL", "-H", server.ldapURI, "-b", suffix, "(sn=zzzzzz)"]),
            .init(label: "ldapbook export, nobody found", shown: "ldapbook export zzzzzz --no-cache -H URI -b BASE",
                  arguments: [ldapbook, "export", "zzzzzz", "--no-cache", "-H", server.ldapURI, "-b", suffix]),
        ])
        try turns.run(quick ? 5 : 20, server: server, environment: childEnvironment, allowing: [0, 1])
        return turns.rows(reference: 0).map { ["–"] + $0 }
    }
}

// MARK: - The summary

extension Bench {
    /// The targets and what this run measured of each, as a table.
    func summary() -> String {
        var rows: [[String]] = []
        func verdict(_ met: Bool) -> String { met ? "met" : "**not met**" }
        for (size, what, ratio) in lookupRatios {
            rows.append(["1. `\(what)` vs ldapsearch printing the same people, \(size.formatted()) entries", "≤ 1.10×",
                         String(format: "%.2f×: %@", ratio, verdict(ratio <= 1.10))])
        }
        for (size, what, ratio) in exportRatios where size == 100_000 || (quick && size == exportRatios.map(\.size).max()) {
            rows.append(["5. export, \(what.replacingOccurrences(of: "ldapbook ", with: "")) vs ldapsearch's LDIF, \(size.formatted()) entries",
                         "≤ 1.10×", String(format: "%.2f×: %@", ratio, verdict(ratio <= 1.10))])
        }
        for (size, ratio) in importRatios {
            rows.append(["4. `ldapbook import` vs `ldapadd -f`, the same \(size.formatted()) unique people", "≥ 1.0×",
                         String(format: "%.2f×: %@", ratio, verdict(ratio >= 1.0))])
        }
        for index in indexMeasurements {
            let size = index.size.formatted()
            // Making the index and bringing it up to date have their targets at 100,000 entries.
            let targeted = index.size == 100_000
            rows.append(["6. `ldapbook sync --rebuild` vs ldapsearch reading the same people, \(size) entries",
                         targeted ? "≤ 2×" : "none at this size",
                         String(format: "%.2f×: %@", index.syncRatio, targeted ? verdict(index.syncRatio <= 2) : "measured")])
            rows.append(["6. `ldapbook sync` after 100 changes, \(size) entries", targeted ? "≤ 1 s" : "none at this size",
                         String(format: "%.2f s (%@): %@", index.incrementalSeconds, index.incrementalMethod,
                                targeted ? verdict(index.incrementalSeconds <= 1) : "measured")])
            rows.append(["6. the index on disk, \(size) entries", "≤ 300 bytes a person",
                         "\(index.bytesPerPerson) bytes: \(verdict(index.bytesPerPerson <= 300))"])
            for lookup in index.lookups {
                rows.append(["6. `ldapbook find \(lookup.query)` through the index, \(size) entries", "≤ 20 ms median, 0 slapd CPU",
                             String(format: "%.1f ms, slapd %.1f ms: %@", lookup.median * 1000, lookup.serverCPU * 1000,
                                    verdict(lookup.median <= 0.020 && lookup.serverCPU < 0.0005))])
            }
            for (query, ratio) in index.serverRatios {
                rows.append(["6. slapd CPU of `find \(query) --no-cache` vs ldapsearch's prefix filter, \(size) entries", "≤ 2×",
                             String(format: "%.2f×: %@", ratio, verdict(ratio <= 2))])
            }
        }
        let sizes = Set(exportPeaks.map(\.size)).sorted()
        if let smallest = sizes.first, let largest = sizes.last, smallest != largest {
            for what in Set(exportPeaks.map(\.what)).sorted() where what.hasPrefix("ldapbook") {
                let peaks = exportPeaks.filter { $0.what == what }.sorted { $0.size < $1.size }
                let low = peaks.first?.bytes ?? 0, high = peaks.last?.bytes ?? 0
                rows.append(["5. peak memory of export, \(what.replacingOccurrences(of: "ldapbook ", with: "")), \(smallest.formatted()) to \(largest.formatted()) entries",
                             "flat", "\(formatMB(low)) to \(formatMB(high)): \(verdict(Double(high) <= Double(low) * 1.25 + 4_194_304))"])
            }
        }
        var text = "### Targets, from this run\n\n| workload | target | result |\n| --- | --- | --- |\n"
        for row in rows { text += "| " + row.joined(separator: " | ") + " |\n" }
        return text + "\n"
    }
}
