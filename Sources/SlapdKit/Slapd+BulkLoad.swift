import Foundation

extension Slapd {
    /// Adds entries to the database offline with `slapadd -q`, which is far faster than
    /// adding them over LDAP. slapd must be stopped; the configuration is generated first
    /// if needed, so this may be called before the first ``start()``.
    ///
    /// When ``SlapdConfiguration/createsSuffixEntry`` is true the suffix entry already
    /// exists, so `ldif` must not contain it. Blocks the calling thread while slapadd runs.
    public func bulkLoad(ldif: String) throws {
        try beginPreparing(for: "bulk load LDIF")
        defer { endPreparing() }
        let file = layout.directory.appendingPathComponent("bulk-load-\(UUID().uuidString).ldif")
        try TextFile.write(ldif, to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try load(file)
    }

    /// Adds the entries of an LDIF file to the database offline with `slapadd -q`; slapadd
    /// streams the file, so it may hold millions of entries. See ``bulkLoad(ldif:)``.
    public func bulkLoad(ldifFile: URL) throws {
        try beginPreparing(for: "bulk load \(ldifFile.path)")
        defer { endPreparing() }
        guard FileManager.default.isReadableFile(atPath: ldifFile.path) else {
            throw SlapdError(.fileSystem, "Cannot read the LDIF file \(ldifFile.path).")
        }
        try load(ldifFile)
    }

    /// Prepares the instance if needed and runs slapadd on `file`; the caller has moved
    /// the instance to the preparing phase.
    private func load(_ file: URL) throws(SlapdError) {
        try prepareIfNeeded()
        try runSlapadd(
            ["-q", "-n1", "-F", layout.configurationDirectory.path, "-l", file.path],
            describing: "bulk load \(file.path)"
        )
    }
}
