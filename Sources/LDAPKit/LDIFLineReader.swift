#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One line of LDIF with its folding undone (RFC 2849 note 2), and the
/// number of its first physical line.
struct LDIFLine: Sendable {
    /// The 1-based number of the line's first physical line.
    var number: Int
    /// The line's bytes, continuation lines joined without their leading space.
    var bytes: [UInt8]
}

/// What ``LDIFLineReader`` found next.
enum LDIFLineEvent {
    /// A line of a record.
    case line(LDIFLine)
    /// An empty line, which ends a record; also a line of spaces where
    /// there is no line for it to continue.
    case blank(lineNumber: Int)
    /// A line starting with a space, and not only spaces, where there is no
    /// line for it to continue: at the start of the input or after an empty line.
    case strayContinuation(lineNumber: Int)
}

/// Splits LDIF bytes into lines: LF or CRLF endings, folded lines joined,
/// comment lines (with their continuation lines) left out.
///
/// Only the line being read and one chunk of the source are held at a time.
struct LDIFLineReader: ~Copyable {
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")
    private static let commentMark = UInt8(ascii: "#")

    private var source: LDIFByteSource
    /// Bytes read from the source and not yet consumed, from `position` on.
    private var buffer: [UInt8] = []
    /// Where the next physical line starts in `buffer`.
    private var position = 0
    /// Where to resume looking for a newline: the bytes from `position` up
    /// to here have none.
    private var scanned = 0
    /// Whether the source has no more bytes to give.
    private var sourceIsExhausted = false
    /// The number of physical lines read so far.
    private(set) var physicalLineCount = 0

    /// A reader of the lines of `source`.
    init(source: consuming LDIFByteSource) {
        self.source = source
    }

    /// The bytes of memory the reader holds for buffering; it stays near one
    /// chunk plus the longest physical line, whatever the size of the input.
    var bufferCapacity: Int { buffer.capacity }

    /// The next line, empty line or stray continuation line, or `nil` at
    /// the end of the input.
    ///
    /// - Throws: ``LDIFError`` when the source cannot be read; the reader is
    ///   then at its end.
    mutating func next() throws(LDIFError) -> LDIFLineEvent? {
        while true {
            guard let physical = try nextPhysicalLine() else { return nil }
            let number = physicalLineCount
            guard let first = physical.first else { return .blank(lineNumber: number) }
            if first == Self.space {
                let isOnlySpaces = physical.allSatisfy { $0 == Self.space }
                return isOnlySpaces ? .blank(lineNumber: number) : .strayContinuation(lineNumber: number)
            }
            if first == Self.commentMark {
                while try nextLineIsContinuation() { _ = try nextPhysicalLine() }
                continue
            }
            var bytes = Array(physical)
            while try nextLineIsContinuation(), let continuation = try nextPhysicalLine() {
                bytes.append(contentsOf: continuation.dropFirst())
            }
            return .line(LDIFLine(number: number, bytes: bytes))
        }
    }

    /// Whether the next physical line starts with a space, continuing the one before.
    private mutating func nextLineIsContinuation() throws(LDIFError) -> Bool {
        while position == buffer.count {
            if sourceIsExhausted { return false }
            try refill()
        }
        return buffer[position] == Self.space
    }

    /// The next physical line without its LF or CRLF ending, or `nil` at the end.
    ///
    /// The slice is valid until the next call.
    private mutating func nextPhysicalLine() throws(LDIFError) -> ArraySlice<UInt8>? {
        while true {
            let end: Int
            if let newline = findNewline() {
                end = newline
                scanned = newline + 1
            } else if sourceIsExhausted {
                guard position < buffer.count else { return nil }
                end = buffer.count
                scanned = end
            } else {
                scanned = buffer.count
                try refill()
                continue
            }
            let start = position
            position = scanned
            physicalLineCount += 1
            let contentEnd = end > start && buffer[end - 1] == Self.carriageReturn ? end - 1 : end
            return buffer[start..<contentEnd]
        }
    }

    /// The index of the first LF at or after `scanned`, if there is one.
    private func findNewline() -> Int? {
        guard scanned < buffer.count else { return nil }
        return buffer.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!
            guard let found = memchr(base + scanned, Int32(Self.newline), bytes.count - scanned) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Drops the consumed bytes and appends the next chunk of the source.
    private mutating func refill() throws(LDIFError) {
        if position > 0 {
            buffer.removeSubrange(..<position)
            scanned -= position
            position = 0
        }
        do {
            if try !source.appendNextChunk(to: &buffer, line: physicalLineCount + 1) {
                sourceIsExhausted = true
            }
        } catch {
            sourceIsExhausted = true
            buffer = []
            scanned = 0
            throw error
        }
    }
}
