import Synchronization

/// Results a subcommand is done with but does not free: a short-lived command that
/// read thousands of entries spends longer freeing them one by one than the kernel
/// takes to reclaim the whole process when it exits a moment later.
enum UntilExit {
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: any Sendable) {
        kept.withLock { $0.append(value) }
    }
}
