import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import SlapdKit
#if canImport(Glibc)
import Glibc
#endif

/// Opens the directory the command line names: flags first, then the
/// configuration file's profile, then libldap's own configuration; with no
/// directory named anywhere, the personal local directory (started on first use).
enum Directory {
    /// libldap's URI when nothing configures one.
    private static let libldapBuiltInURI = "ldap://localhost:389/??base"

    /// Whether any source names a server.
    static func isConfigured(_ configuration: LDAPConnection.Configuration) -> Bool {
        if !configuration.servers.isEmpty { return true }
        let environment = ProcessInfo.processInfo.environment
        guard environment["LDAPNOINIT"] == nil else { return false }
        if environment["LDAPURI"] != nil || environment["LDAPHOST"] != nil { return true }
        return LDAPConnection.libldapDefaultURI.map { $0 != libldapBuiltInURI } ?? false
    }

    /// A connection per the options; the local directory when none is configured.
    static func connection(_ parsed: ParsedCommandLine) async throws -> LDAPConnection {
        var configuration = try ConnectionOptions.configuration(parsed)
        let verbose = parsed.flag("--verbose")
        if !isConfigured(configuration) {
            let local = LocalDirectory()
            try await local.start()
            configuration.servers = [local.ldapiURI]
            configuration.authentication = .saslExternal()
            if configuration.base == nil {
                configuration.base = try DistinguishedName(parsing: LocalDirectory.suffix)
            }
            if verbose { Diagnostics.say("no directory is configured: the local directory, \(local.ldapiURI)") }
        }
        var connection = LDAPConnection(configuration: configuration)
        if connection.defaultBase == nil {
            // No base anywhere: the one the server names, as ldapvi and Thunderbird find it.
            configuration.base = try await discoveredBase(connection)
            await connection.close()
            connection = LDAPConnection(configuration: configuration)
            if verbose, let base = configuration.base { Diagnostics.say("base \(base): the server's only naming context") }
        }
        if verbose {
            try await connection.connect()
            let settings = try ConnectionOptions.settings(parsed)
            let baseSource = parsed.value("--base") != nil ? "-b" : settings["base"] != nil ? "the configuration file"
                : configuration.base == nil ? "BASE of ldap.conf" : nil
            if let base = connection.defaultBase, let baseSource { Diagnostics.say("base \(base), from \(baseSource)") }
            let binding = configuration.description.split(separator: ", ")
                .filter { $0.hasPrefix("bind:") || $0 == "StartTLS" }.joined(separator: ", ")
            // Who-am-I (RFC 4532) says whom the server took us for; not every server answers it.
            let identity = (try? await connection.whoAmI()).map { $0.isEmpty ? "" : ", as \($0)" } ?? ""
            Diagnostics.say("connected to \(connection.server ?? "?"), \(binding)\(identity)")
        }
        return connection
    }

    /// The one naming context of the server's root DSE; a clear error when it offers none or
    /// several.
    static func discoveredBase(_ connection: LDAPConnection) async throws -> DistinguishedName {
        let contexts = try await connection.read(.root, attributes: ["namingContexts"])?.strings("namingContexts") ?? []
        let bases = contexts.compactMap { try? DistinguishedName(parsing: $0) }
        guard bases.count == 1, let base = bases.first else {
            let offered = contexts.isEmpty ? "offers none" : "offers several: " + contexts.joined(separator: ", ")
            throw CommandFailure(.usage, "no search base is configured and the server \(offered); "
                + "give one with -b BASE, base = in the configuration file, or BASE in ldap.conf")
        }
        return base
    }

    /// The address book over that connection.
    static func addressBook(_ parsed: ParsedCommandLine) async throws -> AddressBook {
        let settings = try ConnectionOptions.settings(parsed)
        var configuration = AddressBook.Configuration()
        if let peopleBase = settings["people-base"] {
            do {
                configuration.peopleBase = try DistinguishedName(parsing: peopleBase)
            } catch {
                throw CommandFailure(.usage, "people-base in the configuration: \(error.message)")
            }
        }
        let connection = try await connection(parsed)
        try applyIndexSettings(parsed, settings, connection: connection, to: &configuration)
        return AddressBook(connection: connection, configuration: configuration)
    }

    /// The local index of people, unless `--no-cache` or `cache = no` turn it off: its file
    /// for this directory, base and identity, how old it may be (`cache-max-age`), progress
    /// on a terminal while it is made, and what the address book notes of it.
    static func applyIndexSettings(_ parsed: ParsedCommandLine, _ settings: [String: String], connection: LDAPConnection,
                                   to configuration: inout AddressBook.Configuration) throws {
        if let maxAge = settings["cache-max-age"] {
            guard let seconds = Double(maxAge), seconds >= 0 else {
                throw CommandFailure(.usage, "cache-max-age in the configuration must be a number of seconds, not \(maxAge)")
            }
            configuration.indexMaxAge = seconds
        }
        let cache = settings["cache"]?.lowercased()
        if let cache, !["yes", "no", "true", "false", "on", "off"].contains(cache) {
            throw CommandFailure(.usage, "cache in the configuration is yes or no, not \(cache)")
        }
        guard !parsed.flag("--no-cache"), !["no", "false", "off"].contains(cache ?? ""), let base = connection.defaultBase else {
            return
        }
        let verbose = parsed.flag("--verbose")
        let onTerminal = isatty(STDERR_FILENO) != 0
        do {
            configuration.index = try PeopleIndex.open(scope: indexScope(of: connection.configuration, base: base))
        } catch {
            Diagnostics.say("note: the local index of people cannot be opened (\(error)); searching the server instead")
            return
        }
        let progress = ProgressLine()
        if onTerminal {
            configuration.indexProgress = { read, done in
                if done { progress.clear() } else { progress.show("ldapbook: indexing the directory's people: \(read)") }
            }
        }
        configuration.notes = { note in
            progress.clear()
            if verbose || onTerminal || note.contains("did not answer") { Diagnostics.say(note) }
        }
    }

    /// Which directory, base and identity an index is of.
    static func indexScope(of configuration: LDAPConnection.Configuration, base: DistinguishedName) -> PeopleIndex.Scope {
        let identity: String
        switch configuration.authentication {
        case .anonymous: identity = "anonymous"
        case .simple(let dn, _): identity = dn.string
        case .saslExternal(let authorization): identity = "sasl:EXTERNAL uid=\(getuid())" + (authorization.map { " as \($0)" } ?? "")
        }
        return PeopleIndex.Scope(servers: configuration.servers, base: base.string, identity: identity)
    }
}
