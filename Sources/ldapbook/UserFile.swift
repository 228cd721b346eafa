import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files named on the command line (`FIELD=@FILE`, `import FILE`, `photo -o FILE`), read and
/// written with the system's reason in the message when that fails.
enum UserFile {
    /// The bytes of the file at `path`.
    ///
    /// - Throws: ``CommandFailure`` with ``ExitCode/noInput`` naming the file and the reason
    ///   (no such file, a directory, permission denied).
    static func read(_ path: String) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CommandFailure(.noInput, "cannot read \(path): \(reason(errno))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var information = stat()
        if fstat(descriptor, &information) == 0 && information.st_mode & S_IFMT == S_IFDIR {
            throw CommandFailure(.noInput, "cannot read \(path): \(reason(EISDIR))")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CommandFailure(.noInput, "cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// The names of the entries of the directory at `path`, without `.` and `..`.
    ///
    /// - Throws: ``CommandFailure`` with ``ExitCode/noInput`` naming the directory and the reason
    ///   (no such file, not a directory, permission denied).
    static func names(inDirectory path: String) throws -> [String] {
        guard let stream = opendir(path) else {
            throw CommandFailure(.noInput, "cannot list \(path): \(reason(errno))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `bytes` to the file at `path`, creating or truncating it.
    ///
    /// - Throws: ``CommandFailure`` with ``ExitCode/cannotCreate`` naming the file and the reason.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw CommandFailure(.cannotCreate, "cannot write \(path): \(reason(errno))") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw CommandFailure(.cannotCreate, "cannot write \(path): \(reason(errno))") }
            written += count
        }
    }

    /// The system's words for `code`, in lower case: "no such file or directory".
    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
