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
        try Self.prepareIfNeeded(configuration: configuration, layout: layout)
    }

    /// Runs slapadd with `arguments` and waits for it; throws with its output if it fails.
    func runSlapadd(_ arguments: [String], describing purpose: String) throws(SlapdError) {
        try Self.runSlapadd(arguments, configuration: configuration, layout: layout, describing: purpose)
    }

    /// Generates the cn=config of `configuration` in `layout` with slapadd, then loads the
    /// suffix entry (when ``SlapdConfiguration/createsSuffixEntry`` is on) followed by
    /// `initialEntries`; does nothing if `layout` already holds a configuration. Blocks
    /// while slapadd runs.
    ///
    /// If a step fails, the configuration and database directories are removed again.
    ///
    /// - Parameters:
    ///   - userID: the user whose ldapi connections are mapped to the root DN.
    ///   - groupID: that user's group.
    ///   - initialEntries: LDIF entries below the suffix entry, loaded with it.
    static func prepareIfNeeded(
        configuration: SlapdConfiguration,
        layout: InstanceLayout,
        userID: UInt32 = UInt32(getuid()),
        groupID: UInt32 = UInt32(getgid()),
        initialEntries: String = ""
    ) throws(SlapdError) {
        guard !layout.hasConfiguration else { return }
        try locateSlapd(using: configuration)

        let suffixEntry = configuration.createsSuffixEntry ? try SuffixEntry.ldif(for: configuration.suffix) : nil
        let entries = [suffixEntry ?? "", initialEntries]
            .map { $0.trimmingTrailingWhitespace() }
            .filter { !$0.isEmpty }
            .map { $0 + "\n" }
            .joined(separator: "\n")
        let ldif = try ConfigurationLDIF(
            configuration: configuration,
            layout: layout,
            userID: userID,
            groupID: groupID,
            rootPasswordHash: configuration.rootPasswordValue()
        ).render()

        do {
            try createDirectory(layout.configurationDirectory)
            try createDirectory(layout.databaseDirectory)
            if configuration.replication != nil {
                try createDirectory(layout.accessLogDirectory)
            }
            try TextFile.write(ldif, to: layout.configurationLDIF)
            try runSlapadd(["-n0", "-F", layout.configurationDirectory.path, "-l", layout.configurationLDIF.path],
                           configuration: configuration, layout: layout,
                           describing: "load the generated configuration \(layout.configurationLDIF.path)")
            if !entries.isEmpty {
                let entriesFile = layout.directory.appendingPathComponent("suffix.ldif")
                try TextFile.write(entries, to: entriesFile)
                defer { try? FileManager.default.removeItem(at: entriesFile) }
                let purpose = initialEntries.isEmpty ? "create the suffix entry" : "create the first entries of"
                try runSlapadd(["-q", "-n1", "-F", layout.configurationDirectory.path, "-l", entriesFile.path],
                               configuration: configuration, layout: layout,
                               describing: "\(purpose) \(configuration.suffix)")
            }
        } catch {
            try? FileManager.default.removeItem(at: layout.configurationDirectory)
            try? FileManager.default.removeItem(at: layout.databaseDirectory)
            try? FileManager.default.removeItem(at: layout.accessLogDirectory)
            throw error
        }
    }

    /// Runs the slapadd of `configuration` with `arguments` in `layout`'s directory and
    /// waits for it; throws with its output if it fails.
    static func runSlapadd(
        _ arguments: [String],
        configuration: SlapdConfiguration,
        layout: InstanceLayout,
        describing purpose: String
    ) throws(SlapdError) {
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
                output: output.text(since: 0, lastBytes: quotedOutputLength)
            )
        }
    }

    /// Creates `directory` (mode 0700) and its parents.
    private static func createDirectory(_ directory: URL) throws(SlapdError) {
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
