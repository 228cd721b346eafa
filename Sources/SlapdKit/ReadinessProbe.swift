import Foundation

/// Asks slapd who the current process is, over ldapi with SASL EXTERNAL, to learn whether
/// it answers requests and maps this process's identity to the root DN.
struct ReadinessProbe: Sendable {
    /// What one probe found.
    enum Outcome: Equatable {
        /// slapd answered with this authorization identity (without the `dn:` prefix).
        case answered(String)
        /// slapd did not answer (not listening yet, or too slow).
        case silent
    }

    /// The ldapwhoami program.
    let ldapwhoami: URL

    /// The ldapi URI of the server.
    let ldapiURI: String

    /// The environment of the client tool, which must not read ldap.conf.
    let environment: [String: String]

    /// Runs ldapwhoami once, giving up after `timeout`.
    func probe(timeout: Duration) async -> Outcome {
        let client = ChildProcess(
            executable: ldapwhoami,
            arguments: ["-Q", "-Y", "EXTERNAL", "-H", ldapiURI, "-o", "nettimeout=1"],
            environment: environment
        )
        do {
            try client.launch()
        } catch {
            return .silent
        }
        guard let status = await client.waitForExit(timeout: timeout) else {
            client.send(SIGKILL)
            _ = await client.waitForExit()
            return .silent
        }
        guard status.isSuccess else { return .silent }
        let answer = client.standardOutput.text.trimmingTrailingWhitespace()
        guard answer.hasPrefix("dn:") else { return .answered(answer) }
        return .answered(String(answer.dropFirst(3)))
    }

    /// Tells whether two DNs are the same, ignoring letter case, escaping, and spaces
    /// around separators (slapd reports `cn=a\, b` as `cn=a\2C b`).
    static func sameDN(_ first: String, _ second: String) -> Bool {
        guard let firstName = DistinguishedName(first), let secondName = DistinguishedName(second) else {
            return first.lowercased() == second.lowercased()
        }
        return firstName.canonicalForm == secondName.canonicalForm
    }
}
