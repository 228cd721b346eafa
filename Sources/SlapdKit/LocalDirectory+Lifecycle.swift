import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalDirectory {
    /// Makes sure the server runs and answers, creating the directory first if needed,
    /// and returns ``Status/running(pid:)``.
    ///
    /// On first use this creates the data directory (mode 0700), generates the
    /// configuration and the database with slapadd, and adds the suffix entry and
    /// ``peopleBase``. If no server runs, it removes a stale pid file and socket, starts
    /// slapd detached (see the type's description) and waits until `ldapwhoami -Y
    /// EXTERNAL` over the socket reports ``rootDN``. A server that runs already is only
    /// asked that question; one whose socket has disappeared is restarted.
    ///
    /// Throws a ``SlapdError`` quoting slapd's log if it exits during startup or does not
    /// answer within 30 seconds (it is killed then), and `CancellationError` when cancelled
    /// meanwhile (a server being started is killed too).
    @discardableResult
    public func start() async throws -> Status {
        try prepareDirectories()
        return try await withExclusiveLock { () async throws -> Status in
            if let processIdentifier = runningProcessIdentifier() {
                if FileManager.default.fileExists(atPath: socketPath) {
                    try await waitUntilAnswering(processIdentifier, launched: nil, logOffset: logSize)
                    return .running(pid: processIdentifier)
                }
                try await terminate(processIdentifier)
            }
            removeLeftovers()
            try await createIfNeeded()
            return .running(pid: try await launch())
        }
    }

    /// Stops the server and returns once it has exited: SIGTERM, then SIGKILL if it still
    /// runs 5 seconds later. Does nothing if it is not running, except removing a stale pid
    /// file and socket.
    ///
    /// Throws a ``SlapdError`` when the server cannot be signalled or does not end.
    public func stop() async throws {
        guard FileManager.default.fileExists(atPath: dataDirectory.path) else { return }
        try await withExclusiveLock {
            if let processIdentifier = runningProcessIdentifier() {
                try await terminate(processIdentifier)
            }
            removeLeftovers()
        }
    }

    /// Generates the configuration and the first entries unless ``isCreated``; removes
    /// what an interrupted earlier attempt left first. The caller holds the lock.
    func createIfNeeded() async throws {
        guard !isCreated else { return }
        try await runOffCooperativePool { [self] () throws(SlapdError) in
            let fileManager = FileManager.default
            for leftover in [layout.configurationDirectory, layout.databaseDirectory, layout.configurationLDIF] {
                try? fileManager.removeItem(at: leftover)
            }
            try Slapd.prepareIfNeeded(
                configuration: configuration,
                layout: layout,
                userID: userID,
                groupID: groupID,
                initialEntries: firstEntries
            )
            try TextFile.write("ldapbook local directory\n", to: creationMarker)
        }
    }

    /// Starts slapd detached and waits until it answers; returns its process identifier.
    /// The caller holds the lock. A slapd silent for the whole start timeout is killed and
    /// started once more, as ``Slapd/start()`` does.
    private func launch() async throws -> pid_t {
        do {
            return try await launchOnce()
        } catch let error as SlapdError where error.kind == .startTimedOut {
            FileHandle.standardError.write(Data("ldapbook: \(error.description); starting it once more\n".utf8))
            return try await launchOnce()
        }
    }

    /// One attempt of ``launch()``.
    private func launchOnce() async throws -> pid_t {
        rotateLog()
        let logOffset = logSize
        let process = try DetachedProcess.launch(
            configuration.slapdExecutable,
            arguments: [
                "-d", configuration.logLevel,
                "-F", layout.configurationDirectory.path,
                "-h", layout.listenerURLs(tcpPort: nil),
            ],
            directory: dataDirectory,
            output: logFile
        )
        do {
            try await waitUntilAnswering(process.processIdentifier, launched: process, logOffset: logOffset)
        } catch {
            kill(process.processIdentifier, SIGKILL)
            _ = try? await waitForExit(of: process.processIdentifier, timeout: .seconds(5))
            removeLeftovers()
            throw error
        }
        return process.processIdentifier
    }

    /// Probes the server until it answers as ``rootDN``, it exits, or the start timeout
    /// passes; errors quote what slapd logged after `logOffset`.
    ///
    /// - Parameter launched: the process just started, or `nil` for a server that was
    ///   already running.
    private func waitUntilAnswering(_ processIdentifier: pid_t, launched: DetachedProcess?, logOffset: Int) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LDAPNOINIT"] = "1"
        let probe = ReadinessProbe(ldapwhoami: configuration.ldapwhoamiExecutable, ldapiURI: ldapiURI, environment: environment)
        let wait = try await probe.waitUntilAnswering(as: Self.rootDN, timeout: configuration.startTimeout) {
            if let launched { launched.hasExited } else { !isServer(processIdentifier) }
        }
        let commandLine = launched?.commandLine ?? "slapd (process \(processIdentifier))"
        let log = { logText(since: logOffset, limit: Slapd.quotedOutputLength) }
        switch wait {
        case .answered:
            return
        case .exited:
            let status = launched?.exitStatus.map { " (\($0))" } ?? ""
            throw SlapdError(.exitedDuringStartup, "slapd exited during startup\(status): \(commandLine)", output: log())
        case .timedOut(let lastProbe):
            throw SlapdError(
                .startTimedOut,
                "slapd did not answer on \(ldapiURI) within \(configuration.startTimeout) (last probe: \(lastProbe); "
                    + "its threads: \(Slapd.threadStates(processIdentifier))): \(commandLine)",
                output: log()
            )
        case .answeredAs(let identity):
            throw SlapdError(
                .invalidConfiguration,
                "slapd answered on \(ldapiURI), but as \"\(identity)\" instead of \"\(Self.rootDN)\"; the local directory in \(dataDirectory.path) belongs to uid \(userID), not to uid \(getuid()).",
                output: log()
            )
        }
    }
}
