import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import SlapdKit

/// `ldapbook schema print|install`: ldapbook's own schema.
enum Schema {
    static let spec = CommandSpec(
        "schema",
        abstract: "Print ldapbook's schema, or install it into the directory's cn=config.",
        discussion: """
            The schema adds an auxiliary class (ldapbookPerson) for the fields inetOrgPerson lacks \
            and the attribute custom fields live in. print writes it in cn=config LDIF (the default) \
            or slapd.conf form. install adds it to cn=config over the connection, which must be \
            allowed to write there: typically -H ldapi:/// -Y EXTERNAL as root on the server, or \
            the config admin. Installing twice changes nothing.
            """,
        options: [OptionSpec(["--format"], .value("ldif|schema"), help: "with print: the form to print (default ldif)")],
        positionals: [PositionalSpec("ACTION", help: "print or install", completion: .choices(["print", "install"]))],
        examples: [
            .init(summary: "Install on the server itself", commandLine: "sudo ldapbook schema install -H ldapi:/// -Y EXTERNAL"),
            .init(summary: "For slapd.conf", commandLine: "ldapbook schema print --format schema > /etc/ldap/schema/ldapbook.schema"),
        ])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        switch parsed.positional("ACTION") ?? "" {
        case "print":
            let format = try parsed.choice("--format", from: ["ldif", "schema"]) ?? "ldif"
            let text = format == "ldif" ? LDAPBookSchema.ldif : try slapdConfForm()
            StandardStream.output.write(text)
            return .success
        case "install":
            return try await install(parsed)
        case let other:
            throw CommandFailure(.usage, "schema: \"\(other)\" is not an action (print or install)")
        }
    }

    /// The schema entry of the embedded LDIF.
    static func schemaEntry() throws -> LDAPEntry {
        guard case .content(let entry)? = try LDIFReader(text: LDAPBookSchema.ldif).records().first else {
            throw CommandFailure(.internalError, "the embedded schema has no entry")
        }
        return entry
    }

    /// The definitions in slapd.conf syntax.
    static func slapdConfForm() throws -> String {
        let entry = try schemaEntry()
        var lines = ["# ldapbook schema (OIDs under \(LDAPBookSchema.oidArc)); load after inetorgperson.schema", ""]
        lines += entry.strings("olcAttributeTypes").map { "attributetype " + $0 + "\n" }
        lines += entry.strings("olcObjectClasses").map { "objectclass " + $0 + "\n" }
        return lines.joined(separator: "\n")
    }

    static func install(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let connection = try await Directory.connection(parsed)
        if try await connection.schema().objectClass(named: LDAPBookSchema.objectClass) != nil {
            StandardStream.output.write("ldapbook's schema is already installed\n")
            return .success
        }
        try await connection.add(try schemaEntry())
        StandardStream.output.write("""
            installed ldapbook's schema in cn=config
            recommended index for custom fields: olcDbIndex: ldapbookCustomField eq,sub (see schema/README.md)

            """)
        return .success
    }
}
