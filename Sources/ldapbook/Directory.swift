import CommandLineKit
import LDAPBook
import LDAPKit

/// Opens the directory the command line names.
enum Directory {
    /// A connection per the connection options (nothing is sent until used).
    static func connection(_ parsed: ParsedCommandLine) throws -> LDAPConnection {
        LDAPConnection(configuration: try ConnectionOptions.configuration(parsed))
    }

    /// The address book over that connection.
    static func addressBook(_ parsed: ParsedCommandLine) throws -> AddressBook {
        AddressBook(connection: try connection(parsed))
    }
}
