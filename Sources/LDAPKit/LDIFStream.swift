/// The records of an LDIF input, read one at a time.
///
/// Get a stream from ``LDIFReader/stream()`` for bytes in memory, or from
/// ``LDIFReader/stream(contentsOf:allowFileURLs:)`` for a file, which is
/// read in chunks: only the current record and one chunk are in memory,
/// whatever the size of the file.
///
/// A malformed record throws its error from ``next()`` after the whole
/// record has been consumed, so the following call continues with the next
/// record. A caller can report a bad record and carry on:
///
/// ```swift
/// var stream = try LDIFReader.stream(contentsOf: "people.ldif")
/// while true {
///     do {
///         guard let record = try stream.next() else { break }
///         try await apply(record)
///     } catch let error as LDIFError {
///         print("skipped a record: \(error)")
///     }
/// }
/// ```
///
/// The stream owns the file it reads and closes it when it goes away, so it
/// cannot be copied; being `Sendable`, it can be moved to other concurrent code.
public struct LDIFStream: ~Copyable, Sendable {
    private var lines: LDIFLineReader
    private let allowsFileURLs: Bool
    /// Whether no record has been read yet, so a `version:` line may come.
    private var isAtStart = true

    /// The line the record last returned by ``next()`` starts on (its `dn:` line, or the
    /// first line after a `version:` line); 0 before the first record. A caller that
    /// rejects a well-formed record can name its line with this.
    public private(set) var recordLine = 0

    /// A stream of the records in `source`.
    init(source: consuming LDIFByteSource, allowsFileURLs: Bool) {
        lines = LDIFLineReader(source: source)
        self.allowsFileURLs = allowsFileURLs
    }

    /// The next record, or `nil` after the last one.
    ///
    /// - Throws: ``LDIFError`` for a malformed record, after consuming all
    ///   of its lines: the next call reads the record after it. An error
    ///   reading the file itself ends the stream: the next call returns `nil`.
    public mutating func next() throws(LDIFError) -> LDIFRecord? {
        while true {
            guard var recordLines = try nextRecordLines() else { return nil }
            if isAtStart {
                isAtStart = false
                if recordLines[0].hasName("version") {
                    try Self.checkVersion(recordLines.removeFirst())
                    if recordLines.isEmpty { continue }
                }
            }
            recordLine = recordLines[0].number
            var parser = LDIFRecordParser(lines: recordLines, allowsFileURLs: allowsFileURLs)
            return try parser.parse()
        }
    }

    /// The lines of the next record, up to an empty line or the end of the
    /// input; `nil` when no record is left.
    ///
    /// - Throws: ``LDIFError`` for a stray continuation line, once the rest
    ///   of its record has been consumed.
    private mutating func nextRecordLines() throws(LDIFError) -> [LDIFLine]? {
        var recordLines: [LDIFLine] = []
        var problem: LDIFError?
        reading: while let event = try lines.next() {
            switch event {
            case .line(let line):
                recordLines.append(line)
            case .blank:
                if !recordLines.isEmpty || problem != nil { break reading }
            case .strayContinuation(let number):
                if problem == nil {
                    problem = LDIFError(
                        line: number,
                        message: "a line starting with a space continues nothing (it follows an empty line or begins the input)"
                    )
                }
            }
        }
        if let problem {
            isAtStart = false
            throw problem
        }
        return recordLines.isEmpty ? nil : recordLines
    }

    /// Requires that a `version:` line says version 1, the only one there is.
    private static func checkVersion(_ line: LDIFLine) throws(LDIFError) {
        let versionLine = try LDIFAttributeLine(line)
        var version = Substring(try versionLine.text())
        while version.last == " " { version.removeLast() }
        guard version == "1" else {
            throw LDIFError(
                line: line.number,
                message: "unsupported LDIF version \(LDIFError.excerpt(version.utf8)); only version 1 is defined"
            )
        }
    }

    /// The memory the stream holds for buffering input, in bytes: about one
    /// chunk plus the longest line, however long the input is.
    var bufferCapacity: Int { lines.bufferCapacity }
}
