#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A terminal's line discipline settings (`termios`): read, applied, and made raw.
enum TerminalSettings {
    /// The settings of the terminal open at `descriptor` (`tcgetattr(3)`).
    static func read(from descriptor: Int32) throws(PromptError) -> termios {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw .terminalFailure(call: "tcgetattr", errno: errno)
        }
        return settings
    }

    /// Applies `settings` once pending output is written (`tcsetattr(3)` with `TCSADRAIN`);
    /// input typed ahead is kept.
    static func apply(_ settings: termios, to descriptor: Int32) throws(PromptError) {
        var settings = settings
        while tcsetattr(descriptor, TCSADRAIN, &settings) != 0 {
            if errno != EINTR { throw .terminalFailure(call: "tcsetattr", errno: errno) }
        }
    }

    /// `original` in raw mode, as `cfmakeraw(3)` makes it, with two differences.
    ///
    /// - Output processing stays on, so `\n` still starts a new line.
    /// - Signals stay on with only the suspend character (Ctrl-Z) left: Ctrl-C and Ctrl-\
    ///   arrive as keys (bytes 3 and 28), and Ctrl-Z still suspends through the terminal
    ///   driver, whose `SIGTSTP` `SignalGuard` handles.
    ///
    /// Reads return as soon as one byte is there (`VMIN` 1, `VTIME` 0).
    static func raw(from original: termios) -> termios {
        var raw = original
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | IEXTEN)
        raw.c_lflag |= tcflag_t(ISIG)
        raw.c_cflag = (raw.c_cflag & ~tcflag_t(CSIZE | PARENB)) | tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
            characters[Int(VINTR)] = disabledCharacter
            characters[Int(VQUIT)] = disabledCharacter
        }
        return raw
    }

    /// `_POSIX_VDISABLE` on Linux: a control character set to it is disabled.
    private static let disabledCharacter: UInt8 = 0
}
