import Foundation
import TerminalUI
#if canImport(Glibc)
import Glibc
#endif

/// Data formats (vCard, CSV, LDIF, JSON) on standard output.
///
/// To a file or a pipe, where another program reads them, they are written exactly. To a
/// terminal, every control character in them is shown as a visible escape (line breaks
/// aside), so that directory data cannot drive the terminal: a `cn` holding an escape
/// sequence is shown as `^[…`, never obeyed.
enum DataOutput {
    /// Whether standard output is a terminal.
    static let isTerminal = isatty(STDOUT_FILENO) == 1

    /// Writes `text` to standard output.
    static func write(_ text: String) {
        StandardStream.output.write(isTerminal ? shownOnTerminal(text) : text)
    }

    /// Writes `bytes` to standard output.
    static func write(_ bytes: [UInt8]) {
        if isTerminal {
            write(String(decoding: bytes, as: UTF8.self))
        } else {
            StandardStream.output.write(bytes)
        }
    }

    /// `text` with its lines sanitised for a terminal and its line breaks (LF, or CR LF)
    /// kept; a carriage return anywhere else, which would let a line overwrite itself, is
    /// shown as `^M`.
    static func shownOnTerminal(_ text: String) -> String {
        var result = ""
        var line = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            if scalar == "\n" || (scalar == "\r" && pending == "\n") {
                result += TerminalText.sanitized(String(line))
                result += scalar == "\r" ? "\r\n" : "\n"
                if scalar == "\r" { pending = scalars.next() }
                line = String.UnicodeScalarView()
            } else {
                line.append(scalar)
            }
        }
        return result + TerminalText.sanitized(String(line))
    }
}
