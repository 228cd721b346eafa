import Foundation
import SlapdKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Programs started by posix_spawn")
struct SpawnedProcessTests {
    private func shell(_ script: String, _ configure: (SpawnedProcess) -> Void = { _ in }) throws -> (SpawnedProcess, String) {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let out = Pipe()
        process.standardOutput = out
        configure(process)
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, output)
    }

    @Test("exit status, output, environment, directory and standard input reach the program and come back")
    func basics() throws {
        let (exited, _) = try shell("exit 7")
        #expect(exited.terminationReason == .exit && exited.terminationStatus == 7 && !exited.isRunning)

        let (echoed, output) = try shell("echo \"$GREETING\"; pwd; cat") { process in
            process.environment = ["GREETING": "hello there"]
            process.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
            let input = Pipe()
            process.standardInput = input
            input.fileHandleForWriting.write(Data("from stdin\n".utf8))
            try? input.fileHandleForWriting.close()
        }
        #expect(echoed.terminationStatus == 0)
        #expect(output == "hello there\n/tmp\nfrom stdin\n")

        let (quiet, nothing) = try shell("cat") { $0.standardInput = FileHandle.nullDevice }
        #expect(quiet.terminationStatus == 0 && nothing.isEmpty)

        // One pipe for both streams, as 2>&1.
        let (both, interleaved) = try shell("echo out; echo err >&2") { $0.standardError = $0.standardOutput }
        #expect(both.terminationStatus == 0 && interleaved == "out\nerr\n")
    }

    @Test("a signal ends it as a signal; a missing program is an error")
    func signalsAndFailures() throws {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        #expect(process.isRunning && process.processIdentifier > 0)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)

        let missing = SpawnedProcess()
        missing.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: (any Error).self) { try missing.run() }
    }

    @Test("the program inherits no descriptor but its three streams, so a pipe it does not hold ends when its writer does")
    func descriptorsClosed() throws {
        // A pipe of this process, open without close-on-exec: the child must not hold it.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let (process, output) = try shell("ls /proc/self/fd")
        close(fds[1])
        #expect(process.terminationStatus == 0)
        let open = output.split(separator: "\n").compactMap { Int32($0) }
        #expect(!open.contains(fds[1]) && !open.contains(fds[0]), "\(open)")
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == 0, "the pipe's only writer is closed")
    }

    @Test("the termination handler runs once the program has ended")
    func handler() async throws {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        let status: Int32 = await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(returning: -1) }
        }
        #expect(status == 0)
    }
}
