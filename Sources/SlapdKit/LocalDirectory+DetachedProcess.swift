import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalDirectory {
    /// A program started to outlive this process: in a session of its own, with no
    /// parent-death signal, unknown to ``ProcessRegistry``, with its input from `/dev/null`
    /// and its output appended to a file.
    ///
    /// It is spawned with `posix_spawn(3)` rather than with Foundation's `Process`, which
    /// learns that a child has ended when a socket the child inherits is closed: a server
    /// keeping that socket for days would never be seen to end. The child runs
    /// util-linux `setsid(1)` (the child leads no process group, so `setsid` does not fork)
    /// and coreutils `env -C` to enter its directory; both exec in place, so the identifier
    /// returned is the program's own. The program starts with no signal blocked, every
    /// signal at its default action, and none of the descriptors open in this process
    /// when it was spawned besides the standard three, which it gets anew.
    ///
    /// While this process lives, a thread waits for the program to end, so it never lingers
    /// as a zombie; once this process is gone, the program is adopted like any orphan.
    final class DetachedProcess: Sendable {
        /// What is known about the end of the process.
        private struct Ending {
            var hasExited = false
            var status: ExitStatus?
        }

        /// The util-linux program that starts a program in a new session.
        static let setsid = URL(fileURLWithPath: "/usr/bin/setsid")

        /// The coreutils program that starts a program in another working directory.
        static let env = URL(fileURLWithPath: "/usr/bin/env")

        /// The program's process identifier.
        let processIdentifier: pid_t

        /// The command line, for messages.
        let commandLine: String

        private let ending = Mutex(Ending())

        /// Whether the process has ended.
        var hasExited: Bool {
            ending.withLock { $0.hasExited }
        }

        /// How the process ended, when it has ended and this process collected its status.
        var exitStatus: ExitStatus? {
            ending.withLock { $0.status }
        }

        private init(processIdentifier: pid_t, commandLine: String) {
            self.processIdentifier = processIdentifier
            self.commandLine = commandLine
        }

        /// Starts `executable` with `arguments` in `directory`, its output appended to
        /// `output` (created with mode 0600 if needed).
        static func launch(
            _ executable: URL,
            arguments: [String],
            directory: URL,
            output: URL
        ) throws(SlapdError) -> DetachedProcess {
            for (tool, package) in [(setsid, "util-linux"), (env, "coreutils")]
            where !FileManager.default.isExecutableFile(atPath: tool.path) {
                throw SlapdError(.notInstalled, "\(tool.path) is missing; install \(package).")
            }
            let commandLine = [executable.path] + arguments
            let argumentVector = [setsid.path, env.path, "-C", directory.path] + commandLine
            let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
            let processIdentifier = try spawn(argumentVector, environment: environment, output: output)
            let process = DetachedProcess(processIdentifier: processIdentifier, commandLine: commandLine.joined(separator: " "))
            process.collectExitStatus()
            return process
        }

        /// Spawns `argumentVector[0]` with the attributes described on the type.
        private static func spawn(_ argumentVector: [String], environment: [String], output: URL) throws(SlapdError) -> pid_t {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &allSignals)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // Closed in the child, whatever this process opens while it is being spawned:
            // Foundation opens pipes without close-on-exec, so any descriptor may belong to
            // a child being started elsewhere in this process, and a detached program holding
            // the write end of such a pipe would keep its reader waiting for as long as it runs.
            if let closeFrom = addCloseFrom {
                _ = closeFrom(&actions, STDERR_FILENO + 1)
            } else {
                for descriptor in openDescriptors() where descriptor > STDERR_FILENO {
                    posix_spawn_file_actions_addclose(&actions, descriptor)
                }
            }
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)

            let arguments = argumentVector.map { strdup($0) } + [nil]
            let variables = environment.map { strdup($0) } + [nil]
            defer {
                arguments.forEach { free($0) }
                variables.forEach { free($0) }
            }
            var processIdentifier = pid_t()
            let result = posix_spawn(&processIdentifier, argumentVector[0], &actions, &attributes, arguments, variables)
            guard result == 0 else {
                throw SlapdError(.commandFailed, "Cannot run \(argumentVector.joined(separator: " ")): \(String(cString: strerror(result)))")
            }
            return processIdentifier
        }

        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), which
        /// Swift's Glibc module does not import: it closes every descriptor from a number on
        /// in the child, including those opened while the spawn is under way.
        private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
                return nil
            }
            return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

        /// The descriptors open in this process, from `/proc/self/fd`, for a C library
        /// without ``addCloseFrom``; a descriptor opened after the listing stays open.
        private static func openDescriptors() -> [Int32] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.compactMap { Int32($0) }
        }

        /// Starts a thread that waits for the process to end and records how.
        private func collectExitStatus() {
            let thread = Thread { [self] in
                var status: Int32 = 0
                var result: pid_t
                repeat {
                    result = waitpid(processIdentifier, &status, 0)
                } while result == -1 && errno == EINTR
                let exitStatus: ExitStatus? = result == processIdentifier ? ExitStatus(waitStatus: status) : nil
                ending.withLock { $0 = Ending(hasExited: true, status: exitStatus) }
            }
            thread.name = "detached slapd"
            thread.start()
        }
    }
}
