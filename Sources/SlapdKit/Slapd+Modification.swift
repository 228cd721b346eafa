import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Slapd {
    /// Applies LDIF to the running slapd with `ldapmodify -a`, authenticated over ldapi as
    /// the root DN (SASL EXTERNAL), so it may change `cn=config` too, e.g. add a schema.
    ///
    /// Records without a `changetype` are added; others (`modify`, `delete`, `modrdn`) are
    /// applied as written. Throws a ``SlapdError`` with ldapmodify's output when a record
    /// fails or ldapmodify takes longer than ``SlapdConfiguration/commandTimeout``.
    public func apply(ldif: String) async throws {
        guard isRunning else {
            throw SlapdError(.notRunning, "Cannot apply LDIF: slapd is not running.")
        }
        let file = layout.directory.appendingPathComponent("apply-\(UUID().uuidString).ldif")
        try TextFile.write(ldif, to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let output = OutputBuffer(limit: 64 * 1024)
        let ldapmodify = ChildProcess(
            executable: configuration.ldapmodifyExecutable,
            arguments: ["-a", "-Q", "-Y", "EXTERNAL", "-H", ldapiURI, "-f", file.path],
            environment: clientEnvironment,
            standardOutput: output,
            standardError: output
        )
        try ldapmodify.launch()
        guard let status = await ldapmodify.waitForExit(timeout: configuration.commandTimeout) else {
            ldapmodify.send(SIGKILL)
            _ = await ldapmodify.waitForExit()
            throw SlapdError(
                .commandFailed,
                "ldapmodify did not finish within \(configuration.commandTimeout): \(ldapmodify.commandLine)",
                output: output.text(since: 0, lastBytes: Self.quotedOutputLength)
            )
        }
        guard status.isSuccess else {
            throw SlapdError(
                .commandFailed,
                "ldapmodify failed (\(status)): \(ldapmodify.commandLine)",
                output: output.text(since: 0, lastBytes: Self.quotedOutputLength)
            )
        }
    }
}
