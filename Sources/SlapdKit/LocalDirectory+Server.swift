import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalDirectory {
    /// How often to look whether a signalled server has exited.
    private static let exitPollInterval: Duration = .milliseconds(20)

    /// How long to wait for a server to disappear after SIGKILL.
    private static let killTimeout: Duration = .seconds(5)

    /// The process identifier in the pid file, if that process is this directory's server.
    func runningProcessIdentifier() -> pid_t? {
        guard let text = try? String(contentsOf: layout.pidFile, encoding: .utf8),
              let processIdentifier = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              processIdentifier > 0,
              isServer(processIdentifier)
        else { return nil }
        return processIdentifier
    }

    /// Whether `processIdentifier` is a live slapd (not a zombie) reading this directory's
    /// configuration, as its command line in `/proc` tells.
    func isServer(_ processIdentifier: pid_t) -> Bool {
        guard let commandLine = FileManager.default.contents(atPath: "/proc/\(processIdentifier)/cmdline") else {
            return false
        }
        let arguments = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let program = arguments.first,
              URL(fileURLWithPath: program).lastPathComponent == configuration.slapdExecutable.lastPathComponent,
              let option = arguments.firstIndex(of: "-F"), option + 1 < arguments.count
        else { return false }
        return arguments[option + 1] == layout.configurationDirectory.path
    }

    /// Stops the server `processIdentifier`: SIGTERM, then SIGKILL if it is still running
    /// after the configured stop timeout. Returns once it has exited.
    func terminate(_ processIdentifier: pid_t) async throws {
        try send(SIGTERM, to: processIdentifier)
        try send(SIGCONT, to: processIdentifier)
        if try await waitForExit(of: processIdentifier, timeout: configuration.stopTimeout) {
            return
        }
        try send(SIGKILL, to: processIdentifier)
        guard try await waitForExit(of: processIdentifier, timeout: Self.killTimeout) else {
            throw SlapdError(.commandFailed, "slapd (process \(processIdentifier)) of \(dataDirectory.path) survived SIGKILL.")
        }
    }

    /// Sends `signal` to the server `processIdentifier` unless it is gone.
    func send(_ signal: Int32, to processIdentifier: pid_t) throws(SlapdError) {
        guard kill(processIdentifier, signal) != 0, errno != ESRCH else { return }
        let reason = String(cString: strerror(errno))
        throw SlapdError(.commandFailed, "Cannot signal slapd (process \(processIdentifier)) of \(dataDirectory.path): \(reason)")
    }

    /// Waits until `processIdentifier` is no longer this directory's server; returns
    /// whether that happened within `timeout`.
    func waitForExit(of processIdentifier: pid_t, timeout: Duration) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while isServer(processIdentifier) {
            guard clock.now < deadline else { return false }
            try await Task.sleep(for: Self.exitPollInterval)
        }
        return true
    }

    /// Removes what a server that is not running may have left behind: the pid file, the
    /// arguments file and the socket.
    func removeLeftovers() {
        let fileManager = FileManager.default
        try? fileManager.removeItem(at: layout.pidFile)
        try? fileManager.removeItem(at: layout.argumentsFile)
        var information = stat()
        if lstat(socketPath, &information) == 0, information.st_mode & S_IFMT == S_IFSOCK {
            unlink(socketPath)
        }
    }
}
