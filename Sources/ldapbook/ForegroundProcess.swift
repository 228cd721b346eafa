import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program the user works with (an `--exec` command, the editor of `edit`) as
/// system(3) does: in ldapbook's process group, so that a full-screen program such as vim or
/// mutt owns the terminal (Foundation's Process starts it in a group of its own, where it
/// cannot read the terminal), with Ctrl-C going to it while ldapbook waits.
enum ForegroundProcess {
    /// How the program ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// The status a shell reports: the exit status, or 128 plus the signal.
        var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// Runs the executable at `path` with `arguments` (the first being its name) and waits.
    ///
    /// - Throws: ``CommandFailure`` when it cannot start.
    static func run(_ path: String, _ arguments: [String]) throws -> Termination {
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, nil, &attributes, &cArguments, environ)
        guard spawned == 0 else {
            throw CommandFailure(.unavailable, "cannot run \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED, WEXITSTATUS and WTERMSIG, spelled out: they are macros.
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signaled(status & 0x7F)
    }
}
