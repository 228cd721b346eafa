import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LocalDirectory {
    /// `$XDG_DATA_HOME/ldapbook`, or `<home>/.local/share/ldapbook` when `XDG_DATA_HOME` is
    /// unset, empty or relative.
    static func defaultDataDirectory(environment: [String: String]) -> URL {
        let dataHome: URL
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: value, isDirectory: true)
        } else {
            dataHome = homeDirectory(environment: environment)
                .appendingPathComponent(".local", isDirectory: true)
                .appendingPathComponent("share", isDirectory: true)
        }
        return dataHome.appendingPathComponent("ldapbook", isDirectory: true)
    }

    /// `$HOME` when it is absolute, else the current user's home directory from the user
    /// database, else `/`.
    static func homeDirectory(environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        return URL(fileURLWithPath: userDatabaseHome() ?? "/", isDirectory: true)
    }

    /// The socket for the data directory `dataDirectory`: `ldapi` inside it if that path
    /// fits in `sun_path`, else `ldapi-<hash>` in `$XDG_RUNTIME_DIR/ldapbook` (when that is
    /// absolute and the path fits), else in `/tmp/ldapbook-<uid>`.
    static func socketFile(dataDirectory: URL, environment: [String: String], userID: UInt32) -> URL {
        let inside = dataDirectory.appendingPathComponent("ldapi")
        if fitsSocketAddress(inside) {
            return inside
        }
        let name = "ldapi-" + pathHash(dataDirectory.path)
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: runtime, isDirectory: true)
                .appendingPathComponent("ldapbook", isDirectory: true)
                .appendingPathComponent(name)
            if fitsSocketAddress(candidate) {
                return candidate
            }
        }
        return URL(fileURLWithPath: "/tmp/ldapbook-\(userID)", isDirectory: true).appendingPathComponent(name)
    }

    /// Whether `socket`'s path fits in `sockaddr_un.sun_path` with its terminating NUL.
    static func fitsSocketAddress(_ socket: URL) -> Bool {
        socket.path.utf8.count <= InstanceLayout.maximumSocketPathLength
    }

    /// The first 8 bytes of the SHA-1 of `path`, in lowercase hexadecimal.
    static func pathHash(_ path: String) -> String {
        SHA1.hash(Array(path.utf8)).prefix(8).map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }.joined()
    }

    /// The home directory of the current user in the user database, if it has one.
    private static func userDatabaseHome() -> String? {
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        let home: String? = buffer.withUnsafeMutableBufferPointer { storage in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            guard let start = storage.baseAddress,
                  getpwuid_r(getuid(), &entry, start, storage.count, &result) == 0,
                  result != nil, let directory = entry.pw_dir
            else { return nil }
            return String(cString: directory)
        }
        guard let home, home.hasPrefix("/") else { return nil }
        return home
    }
}
