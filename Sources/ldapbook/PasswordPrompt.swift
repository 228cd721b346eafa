import Foundation
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

/// Asks for a password on the terminal without echoing it.
enum PasswordPrompt {
    /// Reads one line from `/dev/tty` with echo off; the terminal is restored
    /// whatever happens.
    static func read(_ prompt: String) throws -> LDAPConnection.Password {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else {
            throw CommandFailure(.usage, "-W needs a terminal to ask on; use -y FILE instead")
        }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else {
            throw CommandFailure(.usage, "-W needs a terminal to ask on; use -y FILE instead")
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ICANON)
        _ = prompt.withCString { write(tty, $0, strlen($0)) }
        tcsetattr(tty, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(tty, TCSAFLUSH, &saved)
            _ = write(tty, "\n", 1)
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return LDAPConnection.Password(bytes: bytes)
    }
}
