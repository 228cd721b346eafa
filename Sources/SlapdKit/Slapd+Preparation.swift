import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Slapd {
    /// How much of a program's output error messages quote.
    static let quotedOutputLength = 4096

    /// Generates cn=config with slapadd and creates the suffix entry, unless the working
    /// directory already holds a configuration. Blocks while slapadd runs.
    func prepareIfNeeded() throws(SlapdError) {
        guard !layout.hasConfiguration else { return }
        try Slapd.locateSlapd(using: configuration)

        let suffixEntry = configuration.createsSuffixEntry ? try SuffixEntry.ldif(for: configuration.suffix) : nil
        let ldif = try ConfigurationLDIF(
            configuration: configuration,
            layout: layout,
            userID: UInt32(getuid()),
            groupID: UInt32(getgid()),
            rootPasswordHash: SaltedSHA1.hash(configuration.rootPassword)
        ).render()

        do {
            try createDirectory(layout.configurationDirectory)
            try createDirectory(layout.databaseDirectory)
            try TextFile.write(ldif, to: layout.configurationLDIF)
            try runSlapadd(["-n0", "-F", layout.configurationDirectory.path, "-l", layout.configurationLDIF.path],
                           describing: "load the generated configuration \(layout.configurationLDIF.path)")
            if let suffixEntry {
                let suffixFile = layout.directory.appendingPathComponent("suffix.ldif")
                try TextFile.write(suffixEntry, to: suffixFile)
                defer { try? FileManager.default.removeItem(at: suffixFile) }
                try runSlapadd(["-q", "-n1", "-F", layout.configurationDirectory.path, "-l", suffixFile.path],
                               describing: "create the suffix entry \(configuration.suffix)")
            }
        } catch {
            try? FileManager.default.removeItem(at: layout.configurationDirectory)
            try? FileManager.default.removeItem(at: layout.databaseDirectory)
            throw error
        }
    }

    /// Runs slapadd with `arguments` and waits for it; throws with its output if it fails.
    func runSlapadd(_ arguments: [String], describing purpose: String) throws(SlapdError) {
        let output = OutputBuffer(limit: 64 * 1024)
        let slapadd = ChildProcess(
            executable: configuration.slapaddExecutable,
            arguments: arguments,
            directory: layout.directory,
            standardOutput: output,
            standardError: output
        )
        try slapadd.launch()
        let status = slapadd.waitUntilExit()
        guard status.isSuccess else {
            throw SlapdError(
                .slapaddFailed,
                "slapadd failed to \(purpose) (\(status)): \(slapadd.commandLine)",
                output: output.text(since: 0, lastBytes: Self.quotedOutputLength)
            )
        }
    }

    /// Creates `directory` (mode 0700) and its parents.
    private func createDirectory(_ directory: URL) throws(SlapdError) {
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw SlapdError(.fileSystem, "Cannot create \(directory.path): \(error.localizedDescription)")
        }
    }
}
