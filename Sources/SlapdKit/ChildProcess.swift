import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program run as a child process, with its output captured and its end awaitable
/// without blocking Swift's cooperative thread pool.
///
/// Output is read by dedicated threads; the end is reported by ``SpawnedProcess``'s
/// termination handler. A process counts as finished once it has exited and its output pipes are
/// drained (or shortly after exiting, should a descendant keep them open).
final class ChildProcess: Sendable {
    /// How long after exiting the process may keep its output pipes open.
    private static let drainGracePeriod: Duration = .seconds(2)

    /// The util-linux program that sets a parent-death signal, then runs a program.
    private static let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")

    /// The program being run.
    let executable: URL

    /// The program's arguments.
    let arguments: [String]

    /// What the program wrote to its standard output.
    let standardOutput: OutputBuffer

    /// What the program wrote to its standard error.
    let standardError: OutputBuffer

    private let process: SpawnedProcess
    private let completion = ProcessCompletion(pipes: 2)

    /// Prepares to run `executable` with `arguments`; nothing runs until ``launch()``.
    ///
    /// - Parameters:
    ///   - environment: the child's environment; `nil` inherits this process's.
    ///   - directory: the child's working directory; `nil` inherits this process's.
    ///   - standardOutput: the buffer receiving standard output.
    ///   - standardError: the buffer receiving standard error; pass the same buffer as
    ///     `standardOutput` to interleave both.
    ///   - diesWithThisProcess: whether the child is killed when this process ends, even
    ///     by a crash or signal (through util-linux `setpriv --pdeathsig`, when installed).
    init(
        executable: URL,
        arguments: [String],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        diesWithThisProcess: Bool = false,
        standardOutput: OutputBuffer = OutputBuffer(limit: 64 * 1024),
        standardError: OutputBuffer = OutputBuffer(limit: 64 * 1024)
    ) {
        self.executable = executable
        self.arguments = arguments
        self.standardOutput = standardOutput
        self.standardError = standardError
        process = SpawnedProcess()
        if diesWithThisProcess, FileManager.default.isExecutableFile(atPath: Self.setpriv.path) {
            process.executableURL = Self.setpriv
            process.arguments = ["--pdeathsig", "KILL", "--", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if let environment {
            process.environment = environment
        }
        if let directory {
            process.currentDirectoryURL = directory
        }
    }

    /// The command line, for messages.
    var commandLine: String {
        ([executable.path] + arguments).joined(separator: " ")
    }

    /// Starts the program.
    func launch() throws(SlapdError) {
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let completion = self.completion
        process.terminationHandler = { process in
            let status: ExitStatus = switch process.terminationReason {
            case .exit: .exited(process.terminationStatus)
            case .uncaughtSignal: .signaled(process.terminationStatus)
            @unknown default: .exited(process.terminationStatus)
            }
            completion.recordExit(status)
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.drainGracePeriod.timeInterval) {
                completion.recordDrainGraceOver()
            }
        }
        try LauncherThread.shared.perform { [self] () throws(SlapdError) in
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                throw SlapdError(.commandFailed, "Cannot run \(executable.path): \(error.localizedDescription)")
            }
        }
        Self.drain(outputPipe.fileHandleForReading, into: standardOutput, completion: completion)
        Self.drain(errorPipe.fileHandleForReading, into: standardError, completion: completion)
    }

    /// The child's process identifier (valid after ``launch()``).
    var processIdentifier: pid_t {
        process.processIdentifier
    }

    /// How the process ended, once it has ended and its output is complete.
    var exitStatus: ExitStatus? {
        completion.finishedStatus
    }

    /// Whether the process has exited (its output may still be arriving).
    var hasExited: Bool {
        completion.exitStatus != nil
    }

    /// Sends `signal` to the process unless it has already exited.
    func send(_ signal: Int32) {
        let processIdentifier = process.processIdentifier
        completion.whileExitIsPending {
            kill(processIdentifier, signal)
        }
    }

    /// Waits until the process has ended and returns how.
    func waitForExit() async -> ExitStatus {
        await withCheckedContinuation { continuation in
            completion.addWaiter { status in
                if let status {
                    continuation.resume(returning: status)
                }
            }
        }
    }

    /// Waits until the process has ended or `timeout` has passed; `nil` means it is still running.
    func waitForExit(timeout: Duration) async -> ExitStatus? {
        await withCheckedContinuation { continuation in
            let waiterID = completion.addWaiter { continuation.resume(returning: $0) }
            guard let waiterID else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { [completion] in
                completion.abandonWaiter(waiterID)
            }
        }
    }

    /// Blocks the calling thread until the process has ended; use only off the
    /// cooperative thread pool.
    func waitUntilExit() -> ExitStatus {
        let semaphore = DispatchSemaphore(value: 0)
        completion.addWaiter { _ in semaphore.signal() }
        semaphore.wait()
        guard let status = completion.finishedStatus else {
            preconditionFailure("A process waiter was called before the process finished.")
        }
        return status
    }

    /// Copies everything readable from `handle` into `buffer` on a dedicated thread until
    /// end of file, then records that the pipe is drained.
    private static func drain(_ handle: FileHandle, into buffer: OutputBuffer, completion: ProcessCompletion) {
        let thread = Thread {
            let descriptor = handle.fileDescriptor
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.append(chunk[..<count])
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
            try? handle.close()
            completion.recordPipeDrained()
        }
        thread.name = "slapd output"
        thread.start()
    }
}

extension Duration {
    /// The duration in seconds, as Dispatch expects.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
