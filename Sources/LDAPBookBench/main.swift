import Foundation
import LDAPBook
import LDAPKit

/// `ldapbook-bench`: ldapbook against ldapsearch/ldapadd, python-ldap and ldap3 on the
/// same private slapd, in one run. See BENCHMARKS.md.
///
///     ldapbook-bench [--quick] [--sizes 10000,100000,1000000] [--output FILE] [--work DIR]
///     ldapbook-bench --only import [--output FILE]   workload 4 alone
///     ldapbook-bench --only reads [--sizes ...]     every workload but 4
///     ldapbook-bench --only index [--sizes ...]     workload 6 alone
///     ldapbook-bench generate COUNT FILE      the LDIF of COUNT people
///     ldapbook-bench serve COUNT              a loaded slapd to profile against, until stdin closes;
///                                             prints its URI, base, root DN and a file of its password
///     ldapbook-bench lookups URI COUNT [N]    workload 2's lookups against a served COUNT, N in flight
///     ldapbook-bench filter NAME              the filter and attributes of find's name search, a line each
let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let photoDirectory = root.appendingPathComponent("demo/photos")
let photos: [[UInt8]] = ((try? FileManager.default.contentsOfDirectory(atPath: photoDirectory.path)) ?? [])
    .sorted().filter { $0.hasSuffix(".jpg") }
    .compactMap { FileManager.default.contents(atPath: photoDirectory.appendingPathComponent($0).path).map { [UInt8]($0) } }

if arguments.first == "generate" {
    guard arguments.count == 3, let count = Int(arguments[1]) else {
        FileHandle.standardError.write(Data("usage: ldapbook-bench generate COUNT FILE\n".utf8))
        exit(64)
    }
    try BenchPeople.writeLDIF(count: count, suffix: "dc=bench,dc=example", photos: photos, to: URL(fileURLWithPath: arguments[2]))
    exit(0)
}

if arguments.first == "serve" {
    // A loaded server to profile against: prints its URI, runs until standard input closes.
    guard arguments.count == 2, let count = Int(arguments[1]) else {
        FileHandle.standardError.write(Data("usage: ldapbook-bench serve COUNT\n".utf8))
        exit(64)
    }
    let work = URL(fileURLWithPath: root.appendingPathComponent(".build/bench").path)
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let bench = Bench(work: work, ldapbook: "", photos: photos, quick: true)
    let server = try await bench.loadedServer(count)
    // The root DN and a 0600 file of its password follow, for writing (ldapadd -D DN -y FILE).
    FileHandle.standardOutput.write(Data("\(server.ldapURI) \(bench.suffix) \(server.rootDN) \(try bench.passwordFile(server))\n".utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    server.cleanup()
    exit(0)
}

if arguments.first == "filter" {
    // The filter and attributes of ldapbook's name search for NAME, as ldapsearch takes them.
    guard arguments.count == 2 else {
        FileHandle.standardError.write(Data("usage: ldapbook-bench filter NAME\n".utf8))
        exit(64)
    }
    let matcher = NameMatcher(try NameQuery(arguments[1]))
    FileHandle.standardOutput.write(Data(([matcher.filter.description] + matcher.readAttributes).joined(separator: "\n").utf8 + [0x0A]))
    exit(0)
}

if arguments.first == "lookups" {
    // Workload 2 alone, for profiling against `serve COUNT`: ldapbook-bench lookups URI COUNT [N]
    guard arguments.count >= 3, let count = Int(arguments[2]) else {
        FileHandle.standardError.write(Data("usage: ldapbook-bench lookups URI COUNT [IN-FLIGHT]\n".utf8))
        exit(64)
    }
    let inFlight = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
    try await Bench.profileLookups(uri: arguments[1], count: count, inFlight: inFlight)
    exit(0)
}

let quick = arguments.contains("--quick")
let sizes = (option("--sizes") ?? (quick ? "10000" : "10000,100000,1000000")).split(separator: ",").compactMap { Int($0) }
let work = URL(fileURLWithPath: option("--work") ?? root.appendingPathComponent(".build/bench").path)
try FileManager.default.createDirectory(at: work.appendingPathComponent("home/config"), withIntermediateDirectories: true)
let ldapbook = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("ldapbook").path
guard FileManager.default.isExecutableFile(atPath: ldapbook) else {
    FileHandle.standardError.write(Data("ldapbook-bench: \(ldapbook) not found; build the ldapbook product too\n".utf8))
    exit(69)
}

do {
    let bench = Bench(work: work, ldapbook: ldapbook, photos: photos, quick: quick)
    let started = ContinuousClock.now
    bench.report.paragraph(Report.machine())
    let lookupSize = sizes.contains(100_000) ? 100_000 : sizes.min() ?? 10_000
    var exportRows: [[String]] = []
    var startUpRows: [[String]] = []
    let importOnly = option("--only") == "import"
    let readsOnly = option("--only") == "reads"
    let indexOnly = option("--only") == "index"
    for size in sizes.sorted() where !importOnly {
        let server = try await bench.loadedServer(size)
        if indexOnly {
            bench.indexMeasurements.append(try await bench.indexWorkload(size: size, server: server))
            server.cleanup()
            continue
        }
        if size <= 100_000 {
            try bench.processLookup(size: size, server: server)
        }
        if size == lookupSize {
            try await bench.libraryLookups(size: size, server: server)
            try await bench.resolver(size: size, server: server)
        }
        if size >= 100_000 || quick {
            bench.indexMeasurements.append(try await bench.indexWorkload(size: size, server: server))
        }
        exportRows += try bench.exportRun(size: size, server: server)
        if startUpRows.isEmpty { startUpRows = try bench.startUp(server: server) }
        server.cleanup()
    }
    if !importOnly && !indexOnly {
        bench.report.section("5. Export of every person (streamed to /dev/null)",
                             headers: ["entries", "command", "median", "p95", "client CPU/run", "slapd CPU/run", "peak RSS", "vs ldapsearch"],
                             rows: exportRows + startUpRows,
                             note: "Target: every format within 1.10× of ldapsearch's LDIF at 100,000 entries; peak memory flat from 10,000 to 1,000,000. "
                                + "The commands take turns (5 runs each at 10k and 100k after a warm-up, 3 at 1M); peak RSS is the process's "
                                + "high-water mark (VmHWM, read every 2 ms) in a run of its own, untimed. The last rows are what a command that finds "
                                + "nobody takes: its start-up. Commands: \(bench.exportCommands).")
    }
    if !readsOnly && !indexOnly {
        var rows: [[String]] = []
        var ratios: [String] = []
        let importSizes = quick ? [2_000] : sizes.filter({ $0 <= 100_000 }).sorted()
        for size in importSizes {
            let (sizeRows, ratio) = try await bench.bulkImport(size: size, exportingCards: size == importSizes.last)
            rows += sizeRows
            ratios.append(ratio)
        }
        rows += try await bench.cardImport(count: quick ? 500 : 10_000)
        bench.report.section("4. Bulk import into an empty directory",
                             headers: ["people", "command", "wall", "people/s", "people after", "client CPU", "slapd CPU"], rows: rows,
                             note: ratios.joined(separator: " ") + " " + Bench.importNote)
    }
    bench.report.paragraph("Whole run: \(Int(seconds(ContinuousClock.now - started)).formatted()) seconds.")
    bench.report.prepend(bench.summary())

    let output = URL(fileURLWithPath: option("--output") ?? work.appendingPathComponent("results.md").path)
    try bench.report.text.write(to: output, atomically: true, encoding: .utf8)
    FileHandle.standardError.write(Data("[bench] wrote \(output.path)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("ldapbook-bench: \(error)\n".utf8))
    exit(70)
}

/// The CPU time this thread has used, in seconds: unlike wall time, it does not grow
/// while other processes have the CPU.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
