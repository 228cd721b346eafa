import Foundation

/// Writing generated text to files.
enum TextFile {
    /// Writes `text` as UTF-8 to `file`, replacing it, without making a copy of the text
    /// in memory.
    static func write(_ text: String, to file: URL) throws(SlapdError) {
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: file.path)
        else {
            throw SlapdError(.fileSystem, "Cannot create \(file.path).")
        }
        defer { try? handle.close() }
        var text = text
        do {
            try text.withUTF8 { bytes in
                try handle.write(contentsOf: UnsafeRawBufferPointer(bytes))
            }
        } catch {
            throw SlapdError(.fileSystem, "Cannot write \(file.path): \(error.localizedDescription)")
        }
    }
}
