import Foundation
import Synchronization
@testable import TerminalUI
import Testing

/// A pseudo-terminal pair for driving prompts as a person at a terminal would: the prompt gets
/// the slave side, the test types on the master side and reads what the prompt drew.
///
/// A thread reads the master continuously, so the prompt never blocks on a full buffer.
final class PseudoTerminal: Sendable {
    /// The terminal side, as a program sees it.
    let slave: Int32
    /// The keyboard-and-screen side.
    private let master: Int32
    private let received = Mutex<[UInt8]>([])
    private let readerFinished = DispatchSemaphore(value: 0)

    /// `ioctl` requests from `<asm-generic/ioctls.h>` that Glibc's module does not import.
    private static let unlockRequest: UInt = 0x4004_5431 // TIOCSPTLCK
    private static let numberRequest: UInt = 0x8004_5430 // TIOCGPTN

    /// Opens a pair (`/dev/ptmx`, as `posix_openpt(3)` does) with a window of `columns` × `rows`.
    init(columns: Int = 80, rows: Int = 24) throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw PromptError.terminalFailure(call: "open", errno: errno) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            let code = errno
            Glibc.close(master)
            throw PromptError.terminalFailure(call: "ioctl", errno: code)
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let code = errno
            Glibc.close(master)
            throw PromptError.terminalFailure(call: "open", errno: code)
        }
        self.master = master
        self.slave = slave
        resize(columns: columns, rows: rows)
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                received.withLock { $0.append(contentsOf: buffer[..<count]) }
            }
            readerFinished.signal()
        }
        thread.start()
    }

    /// Sets the window size, as a terminal emulator does when its window changes.
    func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
    }

    /// Types `keys`.
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything the prompt has written so far.
    var output: String {
        received.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// How many bytes the prompt has written so far: a mark for `waitForOutput(_:after:)`.
    var outputCount: Int {
        received.withLock { $0.count }
    }

    /// Waits until the prompt has written `text` after the first `mark` bytes; returns what it
    /// wrote after the mark. Fails the test after sixty seconds (generous: a loaded machine is slow, not wrong).
    @discardableResult
    func waitForOutput(_ text: String, after mark: Int = 0,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let written = received.withLock { String(decoding: $0.dropFirst(mark), as: UTF8.self) }
            if written.contains(text) { return written }
            if ContinuousClock.now > deadline {
                Issue.record("The prompt did not write \(text.debugDescription); it wrote \(written.debugDescription)",
                             sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Everything the prompt has written, once the master has read all of it: writes a marker on
    /// the slave side, which the master reads after whatever came before, and waits for it.
    func drainedOutput(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let marker = "[drained \(UInt64.random(in: 0...UInt64.max))]"
        let bytes = Array(marker.utf8)
        _ = bytes.withUnsafeBytes { write(slave, $0.baseAddress, $0.count) }
        let output = try await waitForOutput(marker, sourceLocation: sourceLocation)
        return String(output[..<output.range(of: marker)!.lowerBound])
    }

    /// Waits until the terminal's settings satisfy `condition`; fails the test after two seconds.
    func waitForSettings(sourceLocation: SourceLocation = #_sourceLocation,
                         _ condition: (termios) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(settings) {
            if ContinuousClock.now > deadline {
                Issue.record("The terminal's settings never changed as expected", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The slave's current settings (`tcgetattr(3)`).
    var settings: termios {
        var settings = termios()
        _ = tcgetattr(slave, &settings)
        return settings
    }

    /// Closes both sides, once the reader has seen the slave close.
    func close() {
        Glibc.close(slave)
        readerFinished.wait()
        Glibc.close(master)
    }
}

/// Whether two terminal settings are the same, field by field.
func sameSettings(_ first: termios, _ second: termios) -> Bool {
    first.c_iflag == second.c_iflag && first.c_oflag == second.c_oflag && first.c_cflag == second.c_cflag
        && first.c_lflag == second.c_lflag && first.c_line == second.c_line
        && first.c_ispeed == second.c_ispeed && first.c_ospeed == second.c_ospeed
        && withUnsafeBytes(of: first.c_cc) { firstBytes in
            withUnsafeBytes(of: second.c_cc) { firstBytes.elementsEqual($0) }
        }
}

/// Whether `settings` are raw: no line editing, no echo.
func isRaw(_ settings: termios) -> Bool {
    settings.c_lflag & tcflag_t(ICANON | ECHO) == 0
}
