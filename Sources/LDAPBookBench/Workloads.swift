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

    func serverConfiguration() -> SlapdConfiguration {
        var configuration = SlapdConfiguration(suffix: suffix)
        configuration.workingDirectory = nil
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

extension Bench {
    func processLookup(size: Int, server: Slapd) throws {
        let plain = plainPrefixFilter(["jo"])
        let attributes = Person.attributes(for: [])
        let runs = quick ? 10 : 40
        let commands: [(String, [String])] = [
            ("ldapbook find jo", [ldapbook, "find", "jo", "-H", server.ldapURI, "-b", suffix]),
            ("ldapsearch (the plain prefix filter, the name attributes, pages of 500)",
             ["/usr/bin/ldapsearch", "-x", "-LLL", "-H", server.ldapURI, "-b", suffix, "-E", "pr=500/noprompt",
              plain.description] + attributes),
            ("ldapsearch (the same, without paging)",
             ["/usr/bin/ldapsearch", "-x", "-LLL", "-H", server.ldapURI, "-b", suffix, plain.description] + attributes),
        ]
        for (_, arguments) in commands {
            for _ in 0..<3 { _ = try ChildRun.run(arguments, environment: childEnvironment) }
        }
        // The commands take turns, one run each, so that what else the machine does at the
        // time weighs on both alike. Measured as two blocks, one after the other, the same
        // two binaries gave 1.17× once and 1.04× taking turns on this shared machine.
        var timings = [Timings](repeating: Timings(), count: commands.count)
        var cpu = [Double](repeating: 0, count: commands.count)
        var serverCPU = [Double](repeating: 0, count: commands.count)
        for _ in 0..<runs {
            for (index, (label, arguments)) in commands.enumerated() {
                let serverBefore = CPUUsage.processSeconds(server.processIdentifier ?? 0)
                let run = try ChildRun.run(arguments, environment: childEnvironment)
                serverCPU[index] += CPUUsage.processSeconds(server.processIdentifier ?? 0) - serverBefore
                guard run.status == 0 else { throw BenchError("\(label) exited \(run.status)") }
                timings[index].append(run.wall)
                cpu[index] += run.cpu
            }
        }
        let medians = timings.map(\.median)
        let rows = commands.indices.map { index in
            [commands[index].0, formatSeconds(timings[index].median), formatSeconds(timings[index].p95),
             formatSeconds(cpu[index] / Double(runs)), formatSeconds(serverCPU[index] / Double(runs))]
        }
        func count(_ filter: LDAPFilter) throws -> Int {
            try ChildRun.run(["/usr/bin/ldapsearch", "-x", "-LLL", "-H", server.ldapURI, "-b", suffix, "-E", "pr=500/noprompt",
                              filter.description, "1.1"], environment: childEnvironment, capture: true).output
                .split(separator: "\n").filter { $0.hasPrefix("dn:") }.count
        }
        let matches = try count(plain)
        // What ldapbook's own filter has the server send, and how many of those it keeps.
        let read = try count(NameMatcher(try NameQuery("jo")).filter)
        let found = try ChildRun.run([ldapbook, "find", "jo", "--limit", "1000000", "--format", "json", "-H", server.ldapURI, "-b", suffix],
                                     environment: childEnvironment, capture: true).output
        let kept = found.components(separatedBy: "\"dn\":").count - 1
        report.section("1. One lookup as a user runs it (\(size.formatted()) entries, \(matches) match `jo`)",
                       headers: ["command", "median", "p95", "client CPU/run", "slapd CPU/run"], rows: rows,
                       note: String(format: "ldapbook / the faster ldapsearch (median wall time): **%.2f×** (target ≤ 1.25×; %.2f× the paged one). %d runs each, taking turns, after 3 warm-up runs each; ldapsearch's filter is `%@`. ldapbook's filter (the accented spellings of the first letters, on first, last and full names) has the server send %d entries (%.2f× what the plain filter matches), of which the matcher keeps %d; it reads them in one page of up to 20,000.",
                                    medians[0] / min(medians[1], medians[2]), medians[0] / medians[1], runs, plain.description,
                                    read, Double(read) / Double(max(matches, 1)), kept))
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
    func bulkImport(size: Int) async throws {
        // People only: ldapbook creates the people container itself, and ldapadd gets it
        // added beforehand, untimed.
        let file = work.appendingPathComponent("people-only-v1-\(size).ldif")
        if !FileManager.default.fileExists(atPath: file.path) {
            try BenchPeople.writeLDIF(count: size, suffix: suffix, photos: photos, to: file, includingContainer: false)
        }
        var rows: [[String]] = []
        var walls: [String: Double] = [:]

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
        walls["ldapadd"] = seconds(added.wall)
        rows.append(["`ldapadd -f` (one add at a time)", formatSeconds(seconds(added.wall)), formatRate(Double(size) / seconds(added.wall)),
                     "\(plainCount)", String(format: "%.1f s", added.cpu), String(format: "%.1f s", serverCPU)])
        plain.cleanup()

        let book = try await emptyServer()
        let importArguments = [ldapbook, "import", file.path, "-H", book.ldapURI, "-b", suffix, "-D", book.rootDN, "-y", try passwordFile(book)]
        serverBefore = CPUUsage.processSeconds(book.processIdentifier ?? 0)
        let imported = try ChildRun.run(importArguments, environment: childEnvironment)
        serverCPU = CPUUsage.processSeconds(book.processIdentifier ?? 0) - serverBefore
        guard imported.status == 0 else { throw BenchError("ldapbook import exited \(imported.status)") }
        let bookCount = try await personCount(book)
        walls["ldapbook"] = seconds(imported.wall)
        rows.append(["`ldapbook import` (identity checks, up to 32 adds in flight)", formatSeconds(seconds(imported.wall)),
                     formatRate(Double(size) / seconds(imported.wall)), "\(bookCount)", String(format: "%.1f s", imported.cpu),
                     String(format: "%.1f s", serverCPU)])

        // vCards: exported from the people just imported, imported into an empty server.
        let cards = quick ? 500 : 10_000
        let vcf = work.appendingPathComponent("people-\(cards).vcf")
        let export = try ChildRun.run([ldapbook, "export", "--format", "vcard", "-H", book.ldapURI, "-b", suffix], environment: childEnvironment, capture: true)
        let allCards = export.output.components(separatedBy: "END:VCARD\r\n").prefix(cards)
        try (allCards.joined(separator: "END:VCARD\r\n") + "END:VCARD\r\n").write(to: vcf, atomically: true, encoding: .utf8)
        book.cleanup()
        let cardServer = try await emptyServer()
        serverBefore = CPUUsage.processSeconds(cardServer.processIdentifier ?? 0)
        let cardImport = try ChildRun.run([ldapbook, "import", vcf.path, "-H", cardServer.ldapURI, "-b", suffix, "-D", cardServer.rootDN,
                                           "-y", try passwordFile(cardServer)], environment: childEnvironment)
        serverCPU = CPUUsage.processSeconds(cardServer.processIdentifier ?? 0) - serverBefore
        let cardCount = try await personCount(cardServer)
        cardServer.cleanup()
        rows.append(["`ldapbook import` of \(cards.formatted()) vCards", formatSeconds(seconds(cardImport.wall)),
                     formatRate(Double(cards) / seconds(cardImport.wall)), "\(cardCount)", String(format: "%.1f s", cardImport.cpu),
                     String(format: "%.1f s", serverCPU)])
        report.section("4. Bulk import of \(size.formatted()) people into an empty directory",
                       headers: ["command", "wall", "people/s", "people after", "client CPU", "slapd CPU"], rows: rows,
                       note: String(format: "ldapbook import vs ldapadd: **%.2f×** (target ≥ 2×). The same LDIF file of unique people, so both add every one (the people after each are counted above); ldapbook also reads the directory for who is there already (the entries at the records' DNs, and the names new entries could take) in batches of 100, and keeps up to 32 adds in flight on one connection. Neither uses LDAP transactions: each add is a write of its own.",
                                    walls["ldapadd"]! / walls["ldapbook"]!))
    }
}

// MARK: - 5. Export

extension Bench {
    func exportRun(size: Int, server: Slapd) throws -> [String] {
        var cells: [String] = [size.formatted()]
        for format in ["vcard", "ldif"] {
            let run = try ChildRun.run([ldapbook, "export", "--format", format, "-H", server.ldapURI, "-b", suffix],
                                       environment: childEnvironment, watchesMemory: true)
            guard run.status == 0 else { throw BenchError("export \(format) exited \(run.status)") }
            cells += [formatSeconds(seconds(run.wall)), formatRate(Double(size) / seconds(run.wall)), formatMB(run.maxRSS)]
        }
        let ldapsearch = try ChildRun.run(["/usr/bin/ldapsearch", "-x", "-LLL", "-H", server.ldapURI, "-b", suffix,
                                           "-E", "pr=500/noprompt", "(objectClass=inetOrgPerson)"],
                                          environment: childEnvironment, watchesMemory: true)
        cells += [formatSeconds(seconds(ldapsearch.wall)), formatMB(ldapsearch.maxRSS)]
        return cells
    }
}
