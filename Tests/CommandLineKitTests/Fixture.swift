import CommandLineKit

/// An address-book program like ldapbook, declared the way its executable declares itself.
enum Fixture {
    static let connectionOptions = [
        OptionSpec(["-H", "--uri"], .value("URI"), help: "The LDAP server, such as ldaps://ldap.example.com."),
        OptionSpec(["-b", "--base"], .value("BASE"), help: "Where people are searched."),
        OptionSpec(["-D", "--bind-dn"], .value("BINDDN"), help: "The entry to bind as."),
        OptionSpec(["-W"], help: "Prompt for the bind password."),
        OptionSpec(["-y"], .value("FILE"), help: "Read the bind password from FILE."),
        OptionSpec(["-Z"], help: "Use StartTLS, and fail when the server does not offer it."),
        OptionSpec(["-Y"], .value("MECH"), help: "Bind with SASL; only EXTERNAL is supported."),
        OptionSpec(["-x"], help: "Use a simple bind (the default; accepted for ldapsearch compatibility)."),
        OptionSpec(["--profile"], .value("NAME"), help: "Use the named profile from the configuration file."),
        OptionSpec(["--config"], .value("FILE"), help: "Read the configuration from FILE."),
    ]

    static let find = CommandSpec(
        "find",
        abstract: "Search people by name, email or phone.",
        discussion: """
            Every word must match the start of a name, an email address or a phone number. \
            Matches are sorted by name.

            Formats:
              text   one line per person
              json   one object per person
            """,
        options: [
            OptionSpec(["-l", "--limit"], .value("N"), help: "Show at most N people."),
            OptionSpec(["--format"], .value("FORMAT"), help: "How to print people: text or json."),
            OptionSpec(["--field"], .repeatedValue("FIELD"), help: "Show this field too; may be repeated."),
        ],
        positionals: [PositionalSpec("QUERY", help: "Words to look for.", isRepeating: true)],
        examples: [
            .init(summary: "Find at most five people whose name starts with jo, as JSON:", commandLine: "ldapbook find jo --limit 5 --format json"),
            .init(summary: "Show Ada's phone numbers:", commandLine: "ldapbook find ada --field phone"),
        ]
    )

    static let reach = CommandSpec(
        "reach",
        abstract: "Run a program with a person's address, phone number or other field.",
        options: [
            OptionSpec(["--pick"], .value("N"), help: "Take the Nth person when several match."),
            OptionSpec(["--exec"], .remainder("CMD"), help: "Run CMD with the arguments that follow, {} standing for the value; must come last."),
        ],
        positionals: [
            PositionalSpec("FIELD", help: "The field to hand over: email, phone, or any field name."),
            PositionalSpec("QUERY", help: "Words that pick out the person.", isRepeating: true),
        ]
    )

    static let delete = CommandSpec(
        "delete",
        abstract: "Delete a person.",
        options: [
            OptionSpec(["--yes"], help: "Do not ask for confirmation."),
            OptionSpec(["--trace-ldap"], help: "Print every LDAP operation.", isHidden: true),
        ],
        positionals: [PositionalSpec("UID", help: "The person's uid.")]
    )

    static let add = CommandSpec(
        "add",
        abstract: "Add a person.",
        options: [
            OptionSpec(["--given"], .repeatedValue("NAME"), help: "A given name; may be repeated."),
            OptionSpec(["--mail"], .repeatedValue("ADDRESS"), help: "An email address; may be repeated."),
        ]
    )

    static let status = CommandSpec(
        "status",
        abstract: "Check the connection to the directory.",
        options: [
            OptionSpec(["-v", "--verbose"], help: "Say what is checked."),
            OptionSpec(["--json"], help: "Print the result as JSON."),
        ],
        positionals: [PositionalSpec("SERVER", help: "The server to check, instead of the configured one.", isOptional: true)]
    )

    static let parser = CommandLineParser(
        programName: "ldapbook",
        abstract: "An address book kept in an LDAP directory.",
        globalOptions: connectionOptions,
        commands: [find, reach, delete, add, status]
    )

    /// Parses the arguments; a usage error fails the calling test.
    static func parse(_ arguments: [String]) throws -> ParsedCommandLine {
        try parser.parse(arguments)
    }

    /// The usage error for the arguments, or `nil` when they parse.
    static func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }
}
