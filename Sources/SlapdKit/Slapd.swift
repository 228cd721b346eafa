import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A private OpenLDAP server: generates its cn=config, runs slapd in the foreground as a
/// child process, and removes every trace of it afterwards.
///
/// ```swift
/// let slapd = try Slapd()
/// try await slapd.start()
/// // talk to slapd.ldapURI as slapd.rootDN / slapd.rootPassword,
/// // or to slapd.ldapiURI with SASL EXTERNAL (mapped to the root DN)
/// await slapd.stop()
/// slapd.cleanup()
/// ```
///
/// slapd listens on `ldap://127.0.0.1:<port>` (unless
/// ``SlapdConfiguration/listensOnTCP`` is off) and on an ldapi socket in the working
/// directory. The configuration is generated, and the suffix entry created, the first
/// time the server is started or bulk loaded. slapd runs as the current user, and
/// ldapi connections of that user authenticate with SASL EXTERNAL as the root DN, which
/// also manages `cn=config`.
///
/// A running slapd is killed when its manager is deinitialized, when this process exits,
/// and (through a parent-death signal) when it crashes or is killed, so none outlives the
/// tests or program that started it.
public final class Slapd: Sendable {
    enum Phase {
        /// No slapd process runs.
        case stopped
        /// The configuration is being generated or entries loaded; no slapd process runs.
        case preparing
        /// slapd was launched (it may be starting, answering, paused, or have died since).
        case launched(ChildProcess)
    }

    struct State {
        var phase = Phase.stopped
        var isPaused = false
        var isCleanedUp = false
    }

    /// The settings this instance was created with.
    public let configuration: SlapdConfiguration

    /// The TCP port slapd listens on at 127.0.0.1, or 0 when
    /// ``SlapdConfiguration/listensOnTCP`` is off.
    public let port: Int

    /// The TCP port slapd listens on for ldaps (TLS from the first byte) at 127.0.0.1 when
    /// ``SlapdConfiguration/tls`` is set, or 0.
    public let ldapsPort: Int

    /// The working directory holding the configuration, database and ldapi socket.
    public var directory: URL { workingDirectory.url }

    let workingDirectory: WorkingDirectory
    let layout: InstanceLayout
    let log: OutputBuffer
    let clientEnvironment: [String: String]
    let state = Mutex(State())

    /// Creates a manager for a private slapd; nothing runs until ``start()``.
    ///
    /// Creates the working directory and picks the port. Throws a ``SlapdError`` when the
    /// directory cannot be created or its socket path would be too long.
    public init(configuration: SlapdConfiguration = SlapdConfiguration()) throws {
        self.configuration = configuration
        let workingDirectory = try WorkingDirectory(requested: configuration.workingDirectory)
        let layout = InstanceLayout(directory: workingDirectory.url, socket: configuration.socketFile)
        do {
            try layout.validateSocketPath()
            if configuration.listensOnTCP {
                port = try configuration.port ?? LoopbackPort.free()
                ldapsPort = configuration.tls == nil ? 0 : try LoopbackPort.free()
            } else {
                port = 0
                ldapsPort = 0
            }
        } catch {
            workingDirectory.removeIfTemporary()
            throw error
        }
        self.workingDirectory = workingDirectory
        self.layout = layout
        log = OutputBuffer(limit: configuration.outputLimit)
        var environment = ProcessInfo.processInfo.environment
        environment["LDAPNOINIT"] = "1"
        clientEnvironment = environment
    }

    deinit {
        let process: ChildProcess? = state.withLock { state in
            guard case .launched(let process) = state.phase else { return nil }
            return process
        }
        if let process {
            process.send(SIGKILL)
            ProcessRegistry.shared.unregister(process.processIdentifier)
        }
        workingDirectory.removeIfTemporary()
    }

    /// The LDAP URL of the TCP listener, `ldap://127.0.0.1:<port>`; nothing answers there
    /// when ``SlapdConfiguration/listensOnTCP`` is off.
    public var ldapURI: String { "ldap://127.0.0.1:\(port)" }

    /// The ldaps URL, `ldaps://127.0.0.1:<ldapsPort>`; nothing answers there without
    /// ``SlapdConfiguration/tls``.
    public var ldapsURI: String { "ldaps://127.0.0.1:\(ldapsPort)" }

    /// The LDAP URL of the Unix domain socket, e.g. `ldapi://%2Ftmp%2Fslapd-Ab12Cd%2Fldapi`.
    public var ldapiURI: String { layout.ldapiURI }

    /// The naming context of the database.
    public var suffix: String { configuration.suffix }

    /// The DN with full access, for simple binds together with ``rootPassword``.
    public var rootDN: String { configuration.rootDN }

    /// The root DN's password.
    public var rootPassword: String { configuration.rootPassword }

    /// What slapd wrote to its standard output and error so far, across restarts (the
    /// most recent ``SlapdConfiguration/outputLimit`` bytes).
    public var output: String { log.text }

    /// Whether slapd is running (including while it starts and while it is paused).
    public var isRunning: Bool {
        runningProcess != nil
    }

    /// Whether slapd was paused with ``pause()`` and not resumed since.
    public var isPaused: Bool {
        state.withLock { $0.isPaused } && isRunning
    }

    /// The process identifier of the running slapd, or `nil` when it is not running.
    public var processIdentifier: Int32? {
        runningProcess?.processIdentifier
    }

    /// Stops slapd at once (SIGKILL) and removes the working directory if it is a temporary
    /// one; a caller-given directory is kept. The manager cannot be started again afterwards.
    ///
    /// Removal is best effort: a directory that cannot be removed is left behind.
    public func cleanup() {
        let process: ChildProcess? = state.withLock { state in
            state.isCleanedUp = true
            guard case .launched(let process) = state.phase else { return nil }
            return process
        }
        if let process {
            process.send(SIGKILL)
            _ = process.waitUntilExit()
            markStopped(process)
        }
        workingDirectory.removeIfTemporary()
    }

    /// The launched slapd process if it has not exited.
    var runningProcess: ChildProcess? {
        state.withLock { state in
            guard case .launched(let process) = state.phase, !process.hasExited else { return nil }
            return process
        }
    }

    /// Records that `process` ended, unless another one has been launched since.
    func markStopped(_ process: ChildProcess) {
        ProcessRegistry.shared.unregister(process.processIdentifier)
        state.withLock { state in
            if case .launched(let current) = state.phase, current === process {
                state.phase = .stopped
                state.isPaused = false
            }
        }
    }

    /// Moves from stopped to preparing, or throws if slapd runs, is busy, or was cleaned up.
    func beginPreparing(for operation: String) throws(SlapdError) {
        try state.withLock { (state: inout State) throws(SlapdError) in
            guard !state.isCleanedUp else {
                throw SlapdError(.cleanedUp, "Cannot \(operation): the slapd manager was cleaned up.")
            }
            switch state.phase {
            case .stopped:
                break
            case .preparing:
                throw SlapdError(.alreadyRunning, "Cannot \(operation) while slapd is being prepared or loaded.")
            case .launched(let process):
                guard process.hasExited else {
                    throw SlapdError(.alreadyRunning, "Cannot \(operation) while slapd is running (process \(process.processIdentifier)).")
                }
                ProcessRegistry.shared.unregister(process.processIdentifier)
            }
            state.phase = .preparing
            state.isPaused = false
        }
    }

    /// Moves from preparing back to stopped.
    func endPreparing() {
        state.withLock { state in
            if case .preparing = state.phase {
                state.phase = .stopped
            }
        }
    }
}
