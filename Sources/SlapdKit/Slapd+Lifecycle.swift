import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Slapd {
    /// Starts slapd and returns once it answers requests over ldapi.
    ///
    /// On first use this generates the configuration and creates the suffix entry. slapd
    /// runs in the foreground (`slapd -d <logLevel>`) on ``ldapURI`` (unless
    /// ``SlapdConfiguration/listensOnTCP`` is off) and ``ldapiURI``;
    /// readiness means `ldapwhoami -Y EXTERNAL` over ldapi reports the root DN.
    ///
    /// Throws a ``SlapdError`` carrying slapd's output if it exits during startup or does
    /// not answer within ``SlapdConfiguration/startTimeout`` (it is killed then), and
    /// `CancellationError` when cancelled meanwhile (slapd is killed too).
    public func start() async throws {
        do {
            try await startOnce()
        } catch let error as SlapdError where error.kind == .startTimedOut {
            // A slapd that launched but answered nothing for the whole start timeout has been
            // seen, rarely, while dozens of servers start at once on two cores; its threads'
            // states are in the message. It is killed and started once more, and a second
            // silence is the error.
            FileHandle.standardError.write(Data("SlapdKit: \(error.description); starting it once more\n".utf8))
            try await startOnce()
        }
    }

    /// One attempt of ``start()``.
    private func startOnce() async throws {
        try beginPreparing(for: "start slapd")
        let process: ChildProcess
        let outputMark = log.mark
        do {
            try await runOffCooperativePool { [self] () throws(SlapdError) in try prepareIfNeeded() }
            process = try launchSlapd()
        } catch {
            endPreparing()
            throw error
        }
        state.withLock { state in
            state.phase = .launched(process)
            state.isPaused = false
        }
        ProcessRegistry.shared.register(process.processIdentifier)
        do {
            try await waitUntilAnswering(process, outputMark: outputMark)
        } catch {
            process.send(SIGKILL)
            _ = await process.waitForExit()
            markStopped(process)
            throw error
        }
    }

    /// How ``stop()`` ended slapd.
    public enum StopOutcome: Sendable, Equatable {
        /// slapd was not running.
        case notRunning
        /// slapd shut down on SIGTERM within ``SlapdConfiguration/stopTimeout``.
        case shutDown
        /// slapd was still running after ``SlapdConfiguration/stopTimeout`` and was killed.
        case killed
    }

    /// Stops slapd gracefully: SIGTERM, then SIGKILL if it is still running after
    /// ``SlapdConfiguration/stopTimeout``. Returns once it has exited; does nothing if it
    /// is not running. A paused slapd is resumed so that it can shut down.
    @discardableResult
    public func stop() async -> StopOutcome {
        guard let process = runningProcess else { return .notRunning }
        process.send(SIGTERM)
        process.send(SIGCONT)
        var outcome = StopOutcome.shutDown
        if await process.waitForExit(timeout: configuration.stopTimeout) == nil {
            process.send(SIGKILL)
            _ = await process.waitForExit()
            outcome = .killed
        }
        markStopped(process)
        return outcome
    }

    /// Kills slapd at once (SIGKILL), as a crash would, and returns once it has exited.
    /// Does nothing if it is not running.
    public func kill() async {
        guard let process = runningProcess else { return }
        process.send(SIGKILL)
        _ = await process.waitForExit()
        markStopped(process)
    }

    /// Freezes slapd (SIGSTOP): connections stay open but nothing is answered until
    /// ``resume()``. Does nothing if it is not running.
    ///
    /// A stop signal takes effect on each of slapd's threads asynchronously; this returns
    /// once every thread is stopped (or after two seconds), so a request sent afterwards
    /// is certain not to be answered.
    public func pause() {
        guard let process = runningProcess else { return }
        process.send(SIGSTOP)
        state.withLock { $0.isPaused = true }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(2)
        while !Self.allThreadsStopped(process.processIdentifier) && clock.now < deadline {
            usleep(500)
        }
    }

    /// The states of the threads of process `pid`, per `/proc`, counted: "3 S, 1 R".
    static func threadStates(_ pid: Int32) -> String {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else {
            return "none left"
        }
        var counts: [Character: Int] = [:]
        for thread in threads {
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")"),
                  let state = stat[stat.index(after: end)...].drop(while: { $0 == " " }).first else { continue }
            counts[state, default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// Whether every thread of process `pid` is in the stopped state, per `/proc`.
    private static func allThreadsStopped(_ pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else {
            return true
        }
        return threads.allSatisfy { thread in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return true }
            // The field after "(comm)" is the state: T (stopped) or t (traced).
            let state = stat[stat.index(after: end)...].drop { $0 == " " }.first
            return state == "T" || state == "t"
        }
    }

    /// Lets a paused slapd continue (SIGCONT). Does nothing if it is not running.
    public func resume() {
        guard let process = runningProcess else { return }
        process.send(SIGCONT)
        state.withLock { $0.isPaused = false }
    }

    /// Stops slapd (if running) and starts it again on the same port and socket, with the
    /// same configuration and data.
    public func restart() async throws {
        await stop()
        try await start()
    }

    /// Launches slapd in the foreground with its output going to ``log``.
    private func launchSlapd() throws(SlapdError) -> ChildProcess {
        let listeners = layout.listenerURLs(tcpPort: configuration.listensOnTCP ? port : nil,
                                            ldapsPort: ldapsPort > 0 ? ldapsPort : nil)
        let process = ChildProcess(
            executable: configuration.slapdExecutable,
            arguments: ["-d", configuration.logLevel, "-F", layout.configurationDirectory.path, "-h", listeners],
            directory: layout.directory,
            diesWithThisProcess: true,
            standardOutput: log,
            standardError: log
        )
        try process.launch()
        return process
    }

    /// Probes slapd until it answers as the root DN, it exits, or the start timeout passes;
    /// errors quote the output slapd wrote after `outputMark`.
    private func waitUntilAnswering(_ process: ChildProcess, outputMark: Int) async throws {
        let probe = ReadinessProbe(
            ldapwhoami: configuration.ldapwhoamiExecutable,
            ldapiURI: ldapiURI,
            environment: clientEnvironment
        )
        let wait = try await probe.waitUntilAnswering(as: rootDN, timeout: configuration.startTimeout) {
            process.hasExited
        }
        switch wait {
        case .answered:
            return
        case .exited:
            let status = await process.waitForExit()
            throw SlapdError(
                .exitedDuringStartup,
                "slapd exited during startup (\(status)): \(process.commandLine)",
                output: log.text(since: outputMark, lastBytes: Self.quotedOutputLength)
            )
        case .timedOut(let lastProbe):
            throw SlapdError(
                .startTimedOut,
                "slapd did not answer on \(ldapiURI) within \(configuration.startTimeout) (last probe: \(lastProbe); "
                    + "its threads: \(Self.threadStates(process.processIdentifier))): \(process.commandLine)",
                output: log.text(since: outputMark, lastBytes: Self.quotedOutputLength)
            )
        case .answeredAs(let identity):
            throw SlapdError(
                .invalidConfiguration,
                "slapd answered on \(ldapiURI), but as \"\(identity)\" instead of the root DN \"\(rootDN)\"; the SASL EXTERNAL mapping of uid \(getuid()) does not apply.",
                output: log.text(since: outputMark, lastBytes: Self.quotedOutputLength)
            )
        }
    }
}
