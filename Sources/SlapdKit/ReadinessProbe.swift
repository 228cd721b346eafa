import Foundation

/// Asks slapd who the current process is, over ldapi with SASL EXTERNAL, to learn whether
/// it answers requests and maps this process's identity to the root DN.
struct ReadinessProbe: Sendable {
    /// What one probe found.
    enum Outcome: Equatable {
        /// slapd answered with this authorization identity (without the `dn:` prefix).
        case answered(String)
        /// slapd did not answer (not listening yet, or too slow); why, as ldapwhoami saw it.
        case silent(String)
    }

    /// How waiting for slapd to answer ended.
    enum Wait: Equatable {
        /// slapd answered as the expected DN.
        case answered
        /// slapd answered, but as this other identity.
        case answeredAs(String)
        /// The process exited before it answered.
        case exited
        /// slapd did not answer in time; why the last probe got no answer.
        case timedOut(lastProbe: String)
    }

    /// How long to wait between the first two probes; each wait doubles, up to
    /// ``longestInterval``: a slapd that answers at once is found at once, and one that is slow
    /// to start (many servers starting together on two cores) is not slowed further by a probe
    /// process forty times a second.
    static let interval: Duration = .milliseconds(25)

    /// The longest wait between two probes.
    static let longestInterval: Duration = .milliseconds(400)

    /// The longest a single probe may take.
    static let singleProbeTimeout: Duration = .seconds(1)

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
            return .silent("ldapwhoami did not start: \(error)")
        }
        guard let status = await client.waitForExit(timeout: timeout) else {
            client.send(SIGKILL)
            _ = await client.waitForExit()
            return .silent("ldapwhoami had no answer within \(timeout)")
        }
        guard status.isSuccess else {
            // Its last line says why (such as "Can't contact LDAP server"), within reason.
            let said = String(client.standardError.text.trimmingTrailingWhitespace()
                .split(separator: "\n").last ?? "").prefix(200)
            return .silent("ldapwhoami ended with \(status)" + (said.isEmpty ? "" : ": \(said)"))
        }
        let answer = client.standardOutput.text.trimmingTrailingWhitespace()
        guard answer.hasPrefix("dn:") else { return .answered(answer) }
        return .answered(String(answer.dropFirst(3)))
    }

    /// Probes until slapd answers, `hasExited` returns `true`, or `timeout` has passed;
    /// throws `CancellationError` when the task is cancelled meanwhile.
    ///
    /// - Parameter rootDN: the identity slapd should report; another one ends the wait too.
    func waitUntilAnswering(as rootDN: String, timeout: Duration, hasExited: () -> Bool) async throws -> Wait {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var lastProbe = "no probe ran"
        var interval = Self.interval
        while true {
            if hasExited() {
                return .exited
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                return .timedOut(lastProbe: lastProbe)
            }
            switch await probe(timeout: min(remaining, Self.singleProbeTimeout)) {
            case .answered(let identity) where Self.sameDN(identity, rootDN):
                return .answered
            case .answered(let identity):
                return .answeredAs(identity)
            case .silent(let reason):
                lastProbe = reason
                try await Task.sleep(for: min(interval, remaining))
                interval = min(interval * 2, Self.longestInterval)
            }
        }
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
