import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Records kept in a temporary file until they are read back in order: what an export
/// holds back until it has seen everyone (CSV, whose columns are known only then), in
/// bounded memory however large the directory.
///
/// The file is made in `$TMPDIR` (else `/tmp`), readable by its owner only, and removed at
/// once: nothing is left behind, whatever way the command ends. Records are written and
/// read in pieces of 64 KiB, a length of four bytes before each.
final class RecordSpool {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private static let piece = 1 << 16

    /// A new, empty spool.
    ///
    /// - Throws: ``CommandFailure`` (`cannotCreate`) when no temporary file can be made.
    init() throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/ldapbook-export.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CommandFailure(.cannotCreate, "cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        self.descriptor = descriptor
        pending.reserveCapacity(Self.piece + Self.piece / 4)
    }

    deinit {
        close(descriptor)
    }

    /// Appends `record`.
    func append(_ record: [UInt8]) throws {
        let length = UInt32(record.count)
        for byte in 0..<4 { pending.append(UInt8(truncatingIfNeeded: length >> (8 * UInt32(byte)))) }
        pending.append(contentsOf: record)
        if pending.count >= Self.piece { try writePending() }
    }

    /// Calls `body` with each record, in the order they were appended.
    func forEach(_ body: (ArraySlice<UInt8>) throws -> Void) throws {
        try writePending()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure("read back") }
        var buffer: [UInt8] = []
        var start = 0
        var chunk = [UInt8](repeating: 0, count: Self.piece)
        var ended = false
        while true {
            // Every whole record in the buffer.
            while buffer.count - start >= 4 {
                let length = (0..<4).reduce(0) { $0 | Int(buffer[start + $1]) << (8 * $1) }
                guard buffer.count - start - 4 >= length else { break }
                try body(buffer[(start + 4)..<(start + 4 + length)])
                start += 4 + length
            }
            if ended { break }
            buffer.removeSubrange(..<start)
            start = 0
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read back")
            }
            if count == 0 { ended = true }
            buffer.append(contentsOf: chunk[..<count])
        }
        guard start == buffer.count else { throw CommandFailure(.internalError, "the temporary file of the export ends inside a record") }
    }

    private func writePending() throws {
        var written = 0
        while written < pending.count {
            let count = pending.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write")
            }
            written += count
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func failure(_ what: String) -> CommandFailure {
        CommandFailure(.cannotCreate, "cannot \(what) the export's temporary file: \(String(cString: strerror(errno)))")
    }
}
