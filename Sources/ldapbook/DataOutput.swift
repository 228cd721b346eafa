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

    /// Records of a data format on their way to standard output: encoders append whole
    /// records to ``bytes``, and ``endRecord()`` writes them out once a pipe's capacity has
    /// gathered (64 KiB, Linux's default, pipe(7)), so an export of 100,000 people makes about
    /// a thousand writes instead of one or more per person (BENCHMARKS.md, workload 5). On a
    /// terminal each record goes out when it ends, sanitised, so a person reads as it arrives.
    ///
    /// Text that is safe on a terminal as it is (a table of sanitised cells, JSON, whose
    /// escapes leave no control character) is written without `sanitizing`.
    struct Buffer: ~Copyable {
        /// What has not been written yet: whole records, and the one being appended.
        var bytes: [UInt8] = []
        /// Whether a terminal is shown the bytes sanitised.
        let sanitizing: Bool

        /// Bytes gathered before they are written.
        static let capacity = 1 << 16

        init(sanitizing: Bool = true) {
            self.sanitizing = sanitizing
            bytes.reserveCapacity(Self.capacity + Self.capacity / 4)
        }

        /// Says that ``bytes`` ends with a whole record: written out now on a terminal, or
        /// when a pipe's capacity has gathered.
        mutating func endRecord() {
            if DataOutput.isTerminal || bytes.count >= Self.capacity { flush() }
        }

        /// Writes out what has gathered.
        mutating func flush() {
            guard !bytes.isEmpty else { return }
            write(bytes)
            bytes.removeAll(keepingCapacity: true)
        }

        /// Writes `piece` out at once, after what has gathered.
        func write(_ piece: [UInt8]) {
            if sanitizing { DataOutput.write(piece) } else { StandardStream.output.write(piece) }
        }

        deinit {
            if !bytes.isEmpty { write(bytes) }
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
