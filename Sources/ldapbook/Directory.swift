import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import SlapdKit

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
        if environment["LDAPURI"] != nil || environment["LDAPHOST"] != nil { return true }
        return LDAPConnection.libldapDefaultURI.map { $0 != libldapBuiltInURI } ?? false
    }

    /// A connection per the options; the local directory when none is configured.
    static func connection(_ parsed: ParsedCommandLine) async throws -> LDAPConnection {
        var configuration = try ConnectionOptions.configuration(parsed)
        if !isConfigured(configuration) {
            let local = LocalDirectory()
            try await local.start()
            configuration.servers = [local.ldapiURI]
            configuration.authentication = .saslExternal()
            if configuration.base == nil {
                configuration.base = try DistinguishedName(parsing: LocalDirectory.suffix)
            }
        }
        return LDAPConnection(configuration: configuration)
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
        return AddressBook(connection: try await connection(parsed), configuration: configuration)
    }
}
