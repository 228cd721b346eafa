import CommandLineKit
import Foundation
import SlapdKit

/// `ldapbook server-config`: the cn=config of a slapd server for ldapbook, optionally one
/// node of a multi-provider replicated directory.
enum ServerConfig {
    static let spec = CommandSpec(
        "server-config",
        abstract: "Print the cn=config LDIF of a slapd server for ldapbook, alone or replicated.",
        discussion: """
            Writes the configuration ldapbook's own private servers use (the core, cosine, \
            inetorgperson and nis schemas, ldapbook's schema, the indexes ldapbook's searches \
            need, content synchronization (the syncprov overlay with a session log, so that \
            ldapbook's local indexes of people learn what changed without reading everyone), and \
            ldapi access for one local user) for a server whose files live in DIRECTORY, as LDIF \
            for `slapadd -n0 -F DIRECTORY/slapd.d`. With --server-id and \
            --peer, the server is one provider of a multi-provider directory: every node accepts \
            writes and reads the others' changes from their access logs (delta-syncrepl), so \
            values added on two nodes at once all survive. Give each node its own server ID and \
            the URIs of all the others. Passwords are read from files, never from the command line.
            """,
        options: [
            OptionSpec(["--suffix"], .value("DN"), help: "the naming context of the database (required)"),
            OptionSpec(["--directory"], .value("DIR"), help: "where the server keeps its files: slapd.d, data, accesslog, ldapi (required)"),
            OptionSpec(["--root-dn"], .value("DN"), help: "the database's root DN (default cn=admin,SUFFIX)"),
            OptionSpec(["--root-password-file"], .value("FILE"), help: "hash the root DN's password read from FILE ({SSHA})"),
            OptionSpec(["--root-password-hash"], .value("VALUE"), help: "write VALUE as olcRootPW as it is, e.g. from slappasswd"),
            OptionSpec(["--server-id"], .value("N"), help: "this node's olcServerID (1-4095), for replication"),
            OptionSpec(["--peer"], .repeatedValue("URI"), help: "another node of the replicated directory, e.g. ldap://ldap2:389"),
            OptionSpec(["--replication-dn"], .value("DN"), help: "the DN nodes bind as to read each other (default: the root DN)"),
            OptionSpec(["--replication-password-file"], .value("FILE"), help: "the replication DN's password (default: the root password file)"),
            OptionSpec(["--ldapi-owner"], .value("UID:GID"), help: "the local user whose ldapi connections act as the root DN (default: you)"),
            OptionSpec(["--tls-certificate"], .value("FILE"), help: "the server's PEM certificate, for StartTLS and ldaps"),
            OptionSpec(["--tls-key"], .value("FILE"), help: "the PEM private key of --tls-certificate"),
            OptionSpec(["--tls-ca"], .value("FILE"), help: "PEM certificates of the authorities the server trusts"),
            OptionSpec(["--output", "-o"], .value("FILE"), help: "write the LDIF to FILE instead of standard output"),
        ],
        examples: [
            .init(summary: "A single server run by the openldap user",
                  commandLine: "ldapbook server-config --suffix dc=example,dc=org --directory /var/lib/ldapbook --root-password-file admin.pw --ldapi-owner $(id -u openldap):$(id -g openldap) > config.ldif"),
            .init(summary: "Node 1 of two",
                  commandLine: "ldapbook server-config --suffix dc=example,dc=org --directory /var/lib/ldapbook --root-password-file admin.pw --server-id 1 --peer ldap://ldap2.example.org -o node1.ldif"),
            .init(summary: "Load it", commandLine: "slapadd -n0 -F /var/lib/ldapbook/slapd.d -l node1.ldif"),
        ])

    static func run(_ parsed: ParsedCommandLine) throws -> ExitCode {
        let configuration = try configuration(parsed)
        guard let directory = parsed.value("--directory"), directory.hasPrefix("/") else {
            throw CommandFailure(.usage, "server-config: --directory must be given, as an absolute path")
        }
        let owner = try ldapiOwner(parsed.value("--ldapi-owner"))
        let ldif: String
        do {
            ldif = try configuration.configurationLDIF(directory: URL(fileURLWithPath: directory, isDirectory: true), ldapiOwner: owner)
        } catch {
            throw CommandFailure(.invalidValue, "server-config: \(error.message)")
        }
        if let output = parsed.value("--output") {
            guard FileManager.default.createFile(atPath: output, contents: Data(ldif.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure(.unavailable, "server-config: cannot write \(output)")
            }
        } else {
            StandardStream.output.write(ldif)
        }
        return .success
    }

    /// The server settings the options describe.
    static func configuration(_ parsed: ParsedCommandLine) throws -> SlapdConfiguration {
        guard let suffix = parsed.value("--suffix"), !suffix.isEmpty else {
            throw CommandFailure(.usage, "server-config: --suffix must be given, e.g. --suffix dc=example,dc=org")
        }
        var configuration = SlapdConfiguration(suffix: suffix, rootPassword: "")
        if let rootDN = parsed.value("--root-dn") {
            configuration.rootDN = rootDN
        }
        switch (parsed.value("--root-password-file"), parsed.value("--root-password-hash")) {
        case (let file?, nil):
            configuration.rootPassword = try readSecret(file, option: "--root-password-file")
        case (nil, let hash?):
            configuration.rootPasswordHash = hash
        case (nil, nil):
            break
        case (_?, _?):
            throw CommandFailure(.usage, "server-config: give --root-password-file or --root-password-hash, not both")
        }
        if let certificate = parsed.value("--tls-certificate") {
            guard let key = parsed.value("--tls-key") else {
                throw CommandFailure(.usage, "server-config: --tls-certificate needs --tls-key")
            }
            configuration.tls = .init(certificateFile: URL(fileURLWithPath: certificate), keyFile: URL(fileURLWithPath: key),
                                      caCertificateFile: parsed.value("--tls-ca").map { URL(fileURLWithPath: $0) })
        } else if parsed.value("--tls-key") != nil || parsed.value("--tls-ca") != nil {
            throw CommandFailure(.usage, "server-config: --tls-key and --tls-ca need --tls-certificate")
        }
        configuration.replication = try replication(parsed, rootPassword: configuration.rootPassword)
        // Content synchronization (RFC 4533) with a session log, so that ldapbook's local
        // indexes of people learn what changed, deletions too, without reading everyone.
        configuration.syncProvider = .init()
        return configuration
    }

    /// The replication settings, or `nil` when neither `--server-id` nor `--peer` is given.
    static func replication(_ parsed: ParsedCommandLine, rootPassword: String) throws -> SlapdConfiguration.Replication? {
        let peers = parsed.values("--peer")
        let serverID = try parsed.integer("--server-id", in: 1...4095)
        guard serverID != nil || !peers.isEmpty else {
            if parsed.value("--replication-dn") != nil || parsed.value("--replication-password-file") != nil {
                throw CommandFailure(.usage, "server-config: the replication options need --server-id and --peer")
            }
            return nil
        }
        guard let serverID, !peers.isEmpty else {
            throw CommandFailure(.usage, "server-config: a replicated node needs both --server-id and at least one --peer")
        }
        var replication = SlapdConfiguration.Replication(serverID: serverID, peers: peers)
        replication.bindDN = parsed.value("--replication-dn")
        if let file = parsed.value("--replication-password-file") {
            replication.credentials = try readSecret(file, option: "--replication-password-file")
        } else if rootPassword.isEmpty {
            throw CommandFailure(.usage, "server-config: replication needs a password: --root-password-file or --replication-password-file")
        }
        return replication
    }

    /// `UID:GID` as numbers; the current user when `text` is `nil`.
    static func ldapiOwner(_ text: String?) throws -> SlapdConfiguration.LDAPIOwner {
        guard let text else { return .currentUser }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let user = UInt32(parts[0]), let group = UInt32(parts[1]) else {
            throw CommandFailure(.usage, "server-config: --ldapi-owner takes numeric UID:GID, e.g. 0:0, not \"\(text)\"")
        }
        return .init(userID: user, groupID: group)
    }

    /// The content of a password file, less one trailing line break.
    static func readSecret(_ path: String, option: String) throws -> String {
        let text = String(decoding: try ConnectionOptions.passwordFileBytes(path, option: "server-config: \(option)"),
                          as: UTF8.self)
        guard !text.isEmpty else {
            throw CommandFailure(.usage, "server-config: \(option): \(path) is empty")
        }
        return text
    }
}
