import Foundation

/// Where a slapd instance keeps its files inside its working directory.
struct InstanceLayout: Sendable {
    /// The longest socket path that fits in `sockaddr_un.sun_path` with its terminating NUL.
    static let maximumSocketPathLength = 107

    /// The working directory.
    let directory: URL

    /// The ldapi (Unix domain) socket.
    let socket: URL

    /// Lays out an instance in `directory`, with its ldapi socket at `socket`, or named
    /// `ldapi` in `directory` when `socket` is `nil`.
    init(directory: URL, socket: URL? = nil) {
        self.directory = directory
        self.socket = socket ?? directory.appendingPathComponent("ldapi")
    }

    /// The `slapd.d` configuration directory written by `slapadd -n0`.
    var configurationDirectory: URL { directory.appendingPathComponent("slapd.d", isDirectory: true) }

    /// The generated cn=config LDIF, kept for inspection.
    var configurationLDIF: URL { directory.appendingPathComponent("config.ldif") }

    /// The LMDB database directory.
    var databaseDirectory: URL { directory.appendingPathComponent("data", isDirectory: true) }

    /// The LMDB directory of the access log that replication peers read.
    var accessLogDirectory: URL { directory.appendingPathComponent("accesslog", isDirectory: true) }

    /// The file slapd writes its process identifier to.
    var pidFile: URL { directory.appendingPathComponent("slapd.pid") }

    /// The file slapd writes its command line to.
    var argumentsFile: URL { directory.appendingPathComponent("slapd.args") }

    /// The ldapi URI of ``socket``, with the path percent-encoded as RFC 4516 requires.
    var ldapiURI: String { "ldapi://" + Self.percentEncoded(socket.path) }

    /// The value of slapd's `-h` option: `ldap://127.0.0.1:<tcpPort>/` when there is a TCP
    /// port to listen on, `ldaps://127.0.0.1:<ldapsPort>/` when there is an ldaps port, then
    /// the ldapi socket.
    func listenerURLs(tcpPort: Int?, ldapsPort: Int? = nil) -> String {
        var listeners: [String] = []
        if let tcpPort { listeners.append("ldap://127.0.0.1:\(tcpPort)/") }
        if let ldapsPort { listeners.append("ldaps://127.0.0.1:\(ldapsPort)/") }
        return (listeners + [ldapiURI + "/"]).joined(separator: " ")
    }

    /// Tells whether the configuration was already generated (by this or an earlier run).
    var hasConfiguration: Bool {
        FileManager.default.fileExists(atPath: configurationDirectory.appendingPathComponent("cn=config.ldif").path)
    }

    /// Throws when the socket path is too long for a Unix domain socket.
    func validateSocketPath() throws(SlapdError) {
        let length = socket.path.utf8.count
        guard length <= Self.maximumSocketPathLength else {
            throw SlapdError(
                .invalidConfiguration,
                "The ldapi socket path \(socket.path) is \(length) bytes long, but Unix domain socket paths are limited to \(Self.maximumSocketPathLength); choose a shorter working directory or socket file."
            )
        }
    }

    /// `path` with every byte outside the URI unreserved set written as `%XX`.
    static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            let isUnreserved = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if isUnreserved {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}
