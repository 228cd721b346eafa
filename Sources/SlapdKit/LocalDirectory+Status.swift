import Foundation

extension LocalDirectory {
    /// Whether a local directory exists and whether its server runs.
    public enum Status: Sendable, Hashable, CustomStringConvertible {
        /// The directory has not been created yet; ``LocalDirectory/start()`` creates it.
        case notCreated
        /// The directory exists, but no server runs for it.
        case stopped
        /// The server runs as the process with this identifier.
        case running(pid: Int32)

        /// Whether the server runs.
        public var isRunning: Bool {
            if case .running = self { true } else { false }
        }

        /// The process identifier of the running server, or `nil` when it is not running.
        public var processIdentifier: Int32? {
            if case .running(let pid) = self { pid } else { nil }
        }

        /// `not created`, `stopped` or `running (process <pid>)`.
        public var description: String {
            switch self {
            case .notCreated: "not created"
            case .stopped: "stopped"
            case .running(let pid): "running (process \(pid))"
            }
        }
    }

    /// Tells whether the directory exists and whether its server runs, without creating,
    /// starting or locking anything.
    ///
    /// The server counts as running when the pid file names a live slapd serving this
    /// directory's configuration; it may still be starting, or be shutting down.
    public func status() -> Status {
        guard isCreated else { return .notCreated }
        guard let processIdentifier = runningProcessIdentifier() else { return .stopped }
        return .running(pid: processIdentifier)
    }

    /// Whether the configuration and the first entries were created.
    var isCreated: Bool {
        FileManager.default.fileExists(atPath: creationMarker.path)
    }
}
