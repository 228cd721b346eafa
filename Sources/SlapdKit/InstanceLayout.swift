import Foundation

/// Where a slapd instance keeps its files inside its working directory.
struct InstanceLayout: Sendable {
    /// The longest socket path that fits in `sockaddr_un.sun_path` with its terminating NUL.
    static let maximumSocketPathLength = 107

    /// The working directory.
    let directory: URL

    /// The `slapd.d` configuration directory written by `slapadd -n0`.
    var configurationDirectory: URL { directory.appendingPathComponent("slapd.d", isDirectory: true) }

    /// The generated cn=config LDIF, kept for inspection.
    var configurationLDIF: URL { directory.appendingPathComponent("config.ldif") }

    /// The LMDB database directory.
    var databaseDirectory: URL { directory.appendingPathComponent("data", isDirectory: true) }

    /// The file slapd writes its process identifier to.
    var pidFile: URL { directory.appendingPathComponent("slapd.pid") }

    /// The file slapd writes its command line to.
    var argumentsFile: URL { directory.appendingPathComponent("slapd.args") }

    /// The ldapi (Unix domain) socket.
    var socket: URL { directory.appendingPathComponent("ldapi") }

    /// The ldapi URI of ``socket``, with the path percent-encoded as RFC 4516 requires.
    var ldapiURI: String { "ldapi://" + Self.percentEncoded(socket.path) }

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
                "The ldapi socket path \(socket.path) is \(length) bytes long, but Unix domain socket paths are limited to \(Self.maximumSocketPathLength); choose a shorter working directory."
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
