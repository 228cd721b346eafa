import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Results a subcommand is done with but does not free: a short-lived command that
/// read thousands of entries spends longer freeing them one by one than the kernel
/// takes to reclaim the whole process when it exits a moment later.
enum UntilExit {
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: any Sendable) {
        kept.withLock { $0.append(value) }
    }

    /// Ends the process with `status`, its output written.
    ///
    /// By `_exit`, not `exit`: `exit` runs every library's destructors (libldap frees its
    /// global options and TLS state, GnuTLS and p11-kit tear theirs down) while the process's
    /// other threads (Dispatch's workers, a connection's thread) may still be running, and a
    /// run of the test suite saw `find` abort in `free` there ("corrupted double-linked
    /// list") after its output was complete. ldapbook needs nothing done at exit: its output
    /// goes out by `write(2)` as it is made, the index and the history commit as they go,
    /// and the kernel reclaims the rest.
    static func exit(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
