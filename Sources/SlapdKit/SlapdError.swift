/// An error raised while preparing, running or loading a private slapd.
///
/// The description carries the output of the failing OpenLDAP program, since that is
/// where slapd and slapadd explain what went wrong.
public struct SlapdError: Error, CustomStringConvertible, Sendable {
    /// The broad category of a ``SlapdError``.
    public enum Kind: Sendable, Equatable {
        /// slapd, slapadd or the LDAP client tools are missing.
        case notInstalled
        /// The configuration cannot be turned into a working cn=config.
        case invalidConfiguration
        /// The working directory cannot be created, written or removed.
        case fileSystem
        /// slapadd rejected the configuration or the entries given to it.
        case slapaddFailed
        /// slapd exited before it answered requests.
        case exitedDuringStartup
        /// slapd did not answer requests before the start timeout.
        case startTimedOut
        /// The operation needs slapd running, but it is stopped.
        case notRunning
        /// The operation needs slapd stopped, but it is running or starting.
        case alreadyRunning
        /// An LDAP client tool run against slapd failed.
        case commandFailed
        /// The manager was cleaned up and can no longer be used.
        case cleanedUp
    }

    /// The category of the failure.
    public let kind: Kind

    /// A sentence saying what failed.
    public let message: String

    /// The output of the OpenLDAP program involved (usually its last few kilobytes), or an empty string.
    public let output: String

    /// Creates an error of the given kind with a message and optional program output.
    public init(_ kind: Kind, _ message: String, output: String = "") {
        self.kind = kind
        self.message = message
        self.output = output
    }

    /// The message followed by the program output, if there is any.
    public var description: String {
        let trimmedOutput = output.trimmingTrailingWhitespace()
        guard !trimmedOutput.isEmpty else { return message }
        return message + "\n--- output ---\n" + trimmedOutput
    }
}

extension String {
    /// The string without trailing spaces, tabs and line breaks.
    func trimmingTrailingWhitespace() -> String {
        var result = Substring(self)
        while let last = result.last, last.isWhitespace {
            result.removeLast()
        }
        return String(result)
    }
}
