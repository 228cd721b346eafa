import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalDirectory {
    /// The size past which the log is set aside when the server starts.
    static let logRotationSize = 1 << 20

    /// Creates the data directory (and its parents) and, when the socket lives elsewhere,
    /// the socket's directory, both private to the current user (mode 0700).
    ///
    /// An existing data directory of the current user has its mode narrowed to 0700; one
    /// owned by someone else is refused. The socket's directory may sit in a directory
    /// anyone can write to (`/tmp`), so it must be a real directory, not a symbolic link,
    /// and already belong to the current user if it exists.
    func prepareDirectories() throws(SlapdError) {
        do {
            try FileManager.default.createDirectory(
                at: dataDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw SlapdError(.fileSystem, "Cannot create the data directory \(dataDirectory.path): \(error.localizedDescription)")
        }
        try Self.makePrivate(dataDirectory.path, followingLinks: true)

        let socketDirectory = URL(fileURLWithPath: socketPath).deletingLastPathComponent().standardizedFileURL
        guard socketDirectory.path != dataDirectory.path else { return }
        if mkdir(socketDirectory.path, 0o700) != 0, errno != EEXIST {
            throw SlapdError(.fileSystem, "Cannot create the socket directory \(socketDirectory.path): \(String(cString: strerror(errno)))")
        }
        try Self.makePrivate(socketDirectory.path, followingLinks: false)
    }

    /// Checks that `path` is a directory of the current user and sets its mode to 0700.
    private static func makePrivate(_ path: String, followingLinks: Bool) throws(SlapdError) {
        var information = stat()
        let found = followingLinks ? stat(path, &information) : lstat(path, &information)
        guard found == 0 else {
            throw SlapdError(.fileSystem, "Cannot inspect \(path): \(String(cString: strerror(errno)))")
        }
        guard information.st_mode & S_IFMT == S_IFDIR else {
            throw SlapdError(.fileSystem, "\(path) is not a directory.")
        }
        guard information.st_uid == geteuid() else {
            throw SlapdError(.fileSystem, "\(path) belongs to uid \(information.st_uid), not to the current user (uid \(geteuid())).")
        }
        if information.st_mode & 0o7777 != 0o700, chmod(path, 0o700) != 0 {
            throw SlapdError(.fileSystem, "Cannot make \(path) private (mode 0700): \(String(cString: strerror(errno)))")
        }
    }

    /// Renames a log past ``logRotationSize`` to `slapd.log.old`, replacing an older one.
    func rotateLog() {
        guard logSize > Self.logRotationSize else { return }
        rename(logFile.path, logFile.path + ".old")
    }

    /// The current size of the log in bytes; 0 when there is none.
    var logSize: Int {
        var information = stat()
        guard stat(logFile.path, &information) == 0 else { return 0 }
        return Int(information.st_size)
    }

    /// What slapd logged after the log had `offset` bytes, at most the last `limit` bytes.
    func logText(since offset: Int, limit: Int) -> String {
        guard let handle = FileHandle(forReadingAtPath: logFile.path) else { return "" }
        defer { try? handle.close() }
        let size = logSize
        let start = max(offset, size - limit, 0)
        guard start < size, (try? handle.seek(toOffset: UInt64(start))) != nil,
              let data = try? handle.readToEnd()
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
