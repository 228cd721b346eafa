import Glibc

/// Standard output or standard error, written with `write(2)`: what every subcommand
/// prints goes through here.
///
/// A write is retried after a signal and continued after a short write, so the whole
/// buffer goes out. When standard output cannot be written (a full disk, say), the command
/// says so on standard error and exits with ``ExitCode/outputFailed``: a truncated export
/// must not look like a finished one. (A closed pipe ends the process by `SIGPIPE`, as it
/// ends `cat`, on whichever thread writes.) A failing standard error is ignored: there is
/// nowhere to report it, and the command's work and results go on.
enum StandardStream {
    /// Standard output: results, data formats, help.
    case output
    /// Standard error: diagnostics and progress.
    case error

    private var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Writes `bytes`.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes `buffer`.
    func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard var address = buffer.baseAddress else { return }
        var remaining = buffer.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, address, remaining)
            if written < 0 {
                let failure = errno
                if failure == EINTR { continue }
                guard self == .output else { return }
                if failure == EPIPE {
                    // The reader has gone (`ldapbook export | head`): the process ends by SIGPIPE,
                    // as `cat` does, also when this thread blocks it (a connection's thread does, so
                    // that a connection the server reset is an error, not the end).
                    var pipeSignal = sigset_t()
                    sigemptyset(&pipeSignal)
                    sigaddset(&pipeSignal, SIGPIPE)
                    pthread_sigmask(SIG_UNBLOCK, &pipeSignal, nil)
                    raise(SIGPIPE)
                }
                StandardStream.error.write("ldapbook: cannot write to standard output: \(String(cString: strerror(failure)))\n")
                UntilExit.exit(ExitCode.outputFailed.rawValue)
            }
            address += written
            remaining -= written
        }
    }
}
