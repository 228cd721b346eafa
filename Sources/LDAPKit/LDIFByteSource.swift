#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where LDIF bytes come from: an array already in memory, or a file read
/// in fixed-size chunks so that a large file is never held whole.
///
/// A file source owns its descriptor and closes it when it goes away.
struct LDIFByteSource: ~Copyable {
    /// How many bytes one read of a file asks for.
    static let chunkSize = 64 * 1024

    /// The bytes of a memory source not yet handed out; empty once they are.
    private var pendingBytes: [UInt8]
    /// Where a file's bytes are read to before they are appended to the
    /// caller's buffer; empty for a memory source.
    private var chunk: [UInt8]
    /// The open file, or -1 for a memory source and after a file's end.
    private var descriptor: Int32
    /// The file's path, for error messages; empty for a memory source.
    private let path: String

    /// A source that hands out `bytes` in one piece.
    init(bytes: [UInt8]) {
        pendingBytes = bytes
        chunk = []
        descriptor = -1
        path = ""
    }

    /// A source that reads the file at `path`.
    ///
    /// - Throws: ``LDIFError`` (with line 0) when the file cannot be opened.
    init(path: String) throws(LDIFError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw LDIFError(line: 0, message: "cannot open \(path): \(Self.systemErrorMessage())")
        }
        pendingBytes = []
        chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends the next bytes to `buffer` (up to ``chunkSize`` from a file)
    /// and returns whether there were any; `false` means the end.
    ///
    /// - Parameter line: The line being read, for the error.
    /// - Throws: ``LDIFError`` when the file cannot be read.
    mutating func appendNextChunk(to buffer: inout [UInt8], line: Int) throws(LDIFError) -> Bool {
        guard descriptor >= 0 else {
            guard !pendingBytes.isEmpty else { return false }
            if buffer.isEmpty {
                swap(&buffer, &pendingBytes)
            } else {
                buffer.append(contentsOf: pendingBytes)
                pendingBytes = []
            }
            return true
        }
        let descriptor = self.descriptor
        var readCount = 0
        var failure: Int32 = 0
        chunk.withUnsafeMutableBytes { storage in
            repeat {
                readCount = read(descriptor, storage.baseAddress, storage.count)
            } while readCount < 0 && errno == EINTR
            if readCount < 0 { failure = errno }
        }
        guard failure == 0 else {
            throw LDIFError(line: line, message: "cannot read \(path): \(Self.systemErrorMessage(failure))")
        }
        if readCount == 0 {
            close(descriptor)
            self.descriptor = -1
            return false
        }
        buffer.append(contentsOf: chunk[..<readCount])
        return true
    }

    /// The whole contents of the file at `path`.
    ///
    /// - Parameter line: The line that names the file, for the error.
    /// - Throws: ``LDIFError`` when the file cannot be opened or read.
    static func contents(ofFile path: String, line: Int) throws(LDIFError) -> [UInt8] {
        var source: LDIFByteSource
        do {
            source = try LDIFByteSource(path: path)
        } catch {
            throw LDIFError(line: line, message: error.message)
        }
        guard source.isRegularFile else {
            throw LDIFError(line: line, message: "cannot read \(path): not a regular file")
        }
        var contents: [UInt8] = []
        while try source.appendNextChunk(to: &contents, line: line) {}
        return contents
    }

    /// Whether the source is a regular file, rather than a device, pipe or
    /// directory that could give endless or no data.
    private var isRegularFile: Bool {
        var status = stat()
        return descriptor >= 0 && fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The system's description of `code` (by default the current `errno`).
    private static func systemErrorMessage(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
