import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory a slapd instance works in, and whether it was created just for it.
struct WorkingDirectory: Sendable {
    /// The directory.
    let url: URL

    /// Whether the directory is a temporary one that cleanup removes.
    let isTemporary: Bool

    /// Uses the caller's directory (creating it if needed), or creates a temporary one
    /// named `/tmp/slapd-XXXXXX` when `requested` is `nil`. A temporary directory is
    /// also removed when this process exits, should its owner not remove it first.
    init(requested: URL?) throws(SlapdError) {
        if let requested {
            do {
                try FileManager.default.createDirectory(at: requested, withIntermediateDirectories: true)
            } catch {
                throw SlapdError(.fileSystem, "Cannot create the working directory \(requested.path): \(error.localizedDescription)")
            }
            url = requested.standardizedFileURL
            isTemporary = false
        } else {
            url = try Self.makeTemporaryDirectory()
            isTemporary = true
            ProcessRegistry.shared.register(temporaryDirectory: url)
        }
    }

    /// Removes the directory and everything in it if it is a temporary one; a directory
    /// that cannot be removed is left behind.
    func removeIfTemporary() {
        guard isTemporary else { return }
        try? FileManager.default.removeItem(at: url)
        ProcessRegistry.shared.unregister(temporaryDirectory: url)
    }

    /// Creates a fresh, private directory with a short name under `/tmp`.
    private static func makeTemporaryDirectory() throws(SlapdError) -> URL {
        var template = Array("/tmp/slapd-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!) != nil
        }
        guard created else {
            let reason = String(cString: strerror(errno))
            throw SlapdError(.fileSystem, "Cannot create a temporary working directory under /tmp: \(reason)")
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
