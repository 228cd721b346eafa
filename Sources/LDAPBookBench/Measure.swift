import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Durations of repeated runs, summarised.
struct Timings {
    private(set) var seconds: [Double] = []

    mutating func append(_ duration: Duration) {
        seconds.append(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// The middle value.
    var median: Double { percentile(50) }
    /// The value 95% of runs stay under.
    var p95: Double { percentile(95) }

    /// The nearest-rank percentile.
    func percentile(_ p: Double) -> Double {
        guard !seconds.isEmpty else { return .nan }
        let sorted = seconds.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }
}

/// CPU time used by this process, its reaped children, and slapd.
struct CPUUsage {
    var client: Double
    var server: Double

    static func - (lhs: CPUUsage, rhs: CPUUsage) -> CPUUsage {
        CPUUsage(client: lhs.client - rhs.client, server: lhs.server - rhs.server)
    }

    /// The CPU seconds of this process and its waited-for children, and of process `server`.
    static func now(server: Int32?) -> CPUUsage {
        CPUUsage(client: rusageSeconds(RUSAGE_SELF.rawValue) + rusageSeconds(RUSAGE_CHILDREN.rawValue),
                 server: server.map(processSeconds) ?? 0)
    }

    private static func rusageSeconds(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who), &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }

    /// User plus system time of process `pid`, from `/proc/<pid>/stat`.
    static func processSeconds(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, utime 14 and stime 15 (1-based).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A child process run to completion with its output discarded or captured.
struct ChildRun {
    var status: Int32
    var wall: Duration
    var cpu: Double
    /// Peak resident set size in bytes.
    var maxRSS: Int
    var output: String

    /// Runs `arguments[0]` (a path) with `arguments`, standard output to `/dev/null`
    /// unless `capture`, and returns how it went.
    static func run(_ arguments: [String], environment: [String: String], capture: Bool = false,
                    watchesMemory: Bool = false) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipeDescriptors: [Int32] = [-1, -1]
        if capture {
            guard pipe(&pipeDescriptors) == 0 else { throw BenchError("pipe failed") }
            posix_spawn_file_actions_adddup2(&actions, pipeDescriptors[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeDescriptors[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        // wait4's ru_maxrss would report this process's own peak: the child starts out in
        // this process's address space before it executes. The child's high-water mark
        // (VmHWM) is read instead, every few milliseconds while it runs.
        let peak = PeakWatcher(pid: pid)
        if watchesMemory { peak.start() }
        var output = Data()
        if capture {
            close(pipeDescriptors[1])
            let reader = FileHandle(fileDescriptor: pipeDescriptors[0], closeOnDealloc: true)
            output = reader.readDataToEndOfFile()
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = clock.now - start
        peak.stop()
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildRun(status: exitStatus, wall: wall,
                        cpu: CPUUsage.seconds(usage.ru_utime) + CPUUsage.seconds(usage.ru_stime),
                        maxRSS: peak.highWaterMark, output: String(decoding: output, as: UTF8.self))
    }
}

/// A failure of the benchmark harness itself.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Seconds as a short human reading.
func formatSeconds(_ seconds: Double) -> String {
    if seconds.isNaN { return "–" }
    if seconds < 0.001 { return String(format: "%.0f µs", seconds * 1e6) }
    if seconds < 1 { return String(format: "%.1f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
}

/// A rate with thousands separated.
func formatRate(_ value: Double) -> String {
    if value >= 10_000 { return String(format: "%.0fk", value / 1000) }
    if value >= 1000 { return String(format: "%.1fk", value / 1000) }
    return String(format: "%.0f", value)
}

/// Bytes as MB.
func formatMB(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}

/// Follows a child's peak resident set size (`VmHWM` in `/proc/<pid>/status`) on a thread
/// of its own until stopped.
final class PeakWatcher: @unchecked Sendable {
    private let pid: pid_t
    private let lock = NSLock()
    private var peak = 0
    private var running = false
    private var thread: Thread?

    init(pid: pid_t) { self.pid = pid }

    /// The highest value read, in bytes.
    var highWaterMark: Int { lock.lock(); defer { lock.unlock() }; return peak }

    func start() {
        lock.lock(); running = true; lock.unlock()
        let thread = Thread { [self] in
            while true {
                lock.lock()
                let keepGoing = running
                lock.unlock()
                guard keepGoing else { return }
                if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                   let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                   let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
                    lock.lock(); peak = max(peak, kilobytes * 1024); lock.unlock()
                }
                usleep(2_000)
            }
        }
        self.thread = thread
        thread.start()
    }

    func stop() {
        lock.lock(); running = false; lock.unlock()
    }
}
