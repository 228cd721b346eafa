import CommandLineKit
import Testing

@Suite("Help pages")
struct HelpTests {
    @Test("the program's page lists the commands and the global options")
    func overview() {
        #expect(Fixture.parser.help() == """
            USAGE: ldapbook [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS ...]

            An address book kept in an LDAP directory.

            COMMANDS:
              find                  Search people by name, email or phone.
              reach                 Run a program with a person's address, phone number or
                                    other field.
              delete                Delete a person.
              add                   Add a person.
              status                Check the connection to the directory.
              help                  Show help for a command.

            GLOBAL OPTIONS:
              -H, --uri URI         The LDAP server, such as ldaps://ldap.example.com.
              -b, --base BASE       Where people are searched.
              -D, --bind-dn BINDDN  The entry to bind as.
              -W                    Prompt for the bind password.
              -y FILE               Read the bind password from FILE.
              -Z                    Use StartTLS, and fail when the server does not offer
                                    it.
              -Y MECH               Bind with SASL; only EXTERNAL is supported.
              -x                    Use a simple bind (the default; accepted for ldapsearch
                                    compatibility).
              --profile NAME        Use the named profile from the configuration file.
              --config FILE         Read the configuration from FILE.
              -h, --help            Show help information.

            See 'ldapbook help COMMAND' for help on a command.
            """)
    }

    @Test("a command's page has its arguments, options, the global options, discussion and examples")
    func command() {
        #expect(Fixture.parser.help(for: Fixture.find) == """
            USAGE: ldapbook find [OPTIONS] QUERY ...

            Search people by name, email or phone.

            ARGUMENTS:
              QUERY                 Words to look for.

            OPTIONS:
              -l, --limit N         Show at most N people.
              --format FORMAT       How to print people: text or json.
              --field FIELD ...     Show this field too; may be repeated.
              -h, --help            Show help information.

            GLOBAL OPTIONS:
              -H, --uri URI         The LDAP server, such as ldaps://ldap.example.com.
              -b, --base BASE       Where people are searched.
              -D, --bind-dn BINDDN  The entry to bind as.
              -W                    Prompt for the bind password.
              -y FILE               Read the bind password from FILE.
              -Z                    Use StartTLS, and fail when the server does not offer
                                    it.
              -Y MECH               Bind with SASL; only EXTERNAL is supported.
              -x                    Use a simple bind (the default; accepted for ldapsearch
                                    compatibility).
              --profile NAME        Use the named profile from the configuration file.
              --config FILE         Read the configuration from FILE.

            DISCUSSION:
              Every word must match the start of a name, an email address or a phone number.
              Matches are sorted by name.

              Formats:
                text   one line per person
                json   one object per person

            EXAMPLES:
              Find at most five people whose name starts with jo, as JSON:
                ldapbook find jo --limit 5 --format json

              Show Ada's phone numbers:
                ldapbook find ada --field phone
            """)
    }

    /// A small program for pages at narrow widths.
    static let sync = CommandSpec(
        "sync",
        abstract: "Copy people from one directory to another.",
        discussion: "Entries are compared by uid; nothing is deleted.",
        options: [
            OptionSpec(["-n", "--dry-run"], help: "Say what would change."),
            OptionSpec(["--exclude-attribute"], .repeatedValue("ATTRIBUTE"), help: "Leave ATTRIBUTE alone."),
            OptionSpec(["--debug"], help: "Print the protocol.", isHidden: true),
        ],
        positionals: [
            PositionalSpec("URI", help: "Where to copy to."),
            PositionalSpec("UID", help: "Only these people.", isRepeating: true, isOptional: true),
        ]
    )
    static let syncer = CommandLineParser(programName: "syncer", commands: [sync])

    @Test("narrow pages wrap usage by whole elements, put long labels on their own line and hide hidden options")
    func narrowCommand() {
        #expect(Self.syncer.help(for: Self.sync, width: 40) == """
            USAGE: syncer sync [OPTIONS] URI
                   [UID ...]

            Copy people from one directory to
            another.

            ARGUMENTS:
              URI            Where to copy to.
              UID            Only these people.

            OPTIONS:
              -n, --dry-run  Say what would change.
              --exclude-attribute ATTRIBUTE ...
                             Leave ATTRIBUTE alone.
              -h, --help     Show help information.

            DISCUSSION:
              Entries are compared by uid; nothing
              is deleted.
            """)
    }

    @Test("widths below the minimum are widened to it; a program without an abstract or global options")
    func narrowOverview() {
        let expected = """
            USAGE: syncer COMMAND [OPTIONS]
                   [ARGUMENTS ...]

            COMMANDS:
              sync        Copy people from one
                          directory to another.
              help        Show help for a command.

            GLOBAL OPTIONS:
              -h, --help  Show help information.

            See 'syncer help COMMAND' for help on a
            command.
            """
        #expect(Self.syncer.help(width: 10) == expected)
        #expect(Self.syncer.help(width: CommandLineParser.minimumHelpWidth) == expected)
    }

    @Test("when the labels leave too little room, texts go below them")
    func stacked() {
        #expect(Fixture.parser.help(for: Fixture.delete, width: 40) == """
            USAGE: ldapbook delete [OPTIONS] UID

            Delete a person.

            ARGUMENTS:
              UID
                  The person's uid.

            OPTIONS:
              --yes
                  Do not ask for confirmation.
              -h, --help
                  Show help information.

            GLOBAL OPTIONS:
              -H, --uri URI
                  The LDAP server, such as
                  ldaps://ldap.example.com.
              -b, --base BASE
                  Where people are searched.
              -D, --bind-dn BINDDN
                  The entry to bind as.
              -W
                  Prompt for the bind password.
              -y FILE
                  Read the bind password from FILE.
              -Z
                  Use StartTLS, and fail when the
                  server does not offer it.
              -Y MECH
                  Bind with SASL; only EXTERNAL is
                  supported.
              -x
                  Use a simple bind (the default;
                  accepted for ldapsearch
                  compatibility).
              --profile NAME
                  Use the named profile from the
                  configuration file.
              --config FILE
                  Read the configuration from FILE.
            """)
    }

    @Test("every line fits the width", arguments: [40, 50, 64, 80, 100, 132])
    func linesFit(_ width: Int) {
        let pages = [Fixture.parser.help(width: width)] + Fixture.parser.commands.map { Fixture.parser.help(for: $0, width: width) }
        for page in pages {
            for line in page.split(separator: "\n") where !line.hasPrefix("    ldapbook ") {
                #expect(line.count <= width, "\(line)")
                #expect(line.last != " ", "trailing space: \(line)")
            }
        }
    }

    @Test("pages are the same every time")
    func deterministic() {
        #expect(Fixture.parser.help(for: Fixture.reach, width: 72) == Fixture.parser.help(for: Fixture.reach, width: 72))
    }

    @Test("a word longer than the text column keeps a line of its own")
    func longWord() {
        let command = CommandSpec("get", abstract: "Fetch.", options: [
            OptionSpec(["--url"], .value("URL"), help: "For example https://directory.example.com/people/ada-lovelace here."),
        ])
        let page = CommandLineParser(programName: "p", commands: [command]).help(for: command, width: 40)
        #expect(page.contains("""
              --url URL   For example
                          https://directory.example.com/people/ada-lovelace
                          here.
            """))
    }

    @Test("the help width follows COLUMNS when it is a positive number", arguments: [
        (nil, 80), ("", 80), ("abc", 80), ("0", 80), ("-5", 80), ("120", 120), ("40", 40), ("12", 40), (" 100", 80),
    ] as [(String?, Int)])
    func helpWidth(_ columns: String?, _ width: Int) {
        #expect(CommandLineParser.helpWidth(columns: columns) == width)
    }
}

@Suite("The version")
struct VersionTests {
    private let versioned = CommandLineParser(programName: "ldapbook", version: "1.2.3", globalOptions: Fixture.connectionOptions,
                                              commands: [Fixture.find])

    @Test("--version, anywhere, and the command version ask for it; help wins over it")
    func asked() throws {
        for arguments in [["--version"], ["version"], ["find", "ada", "--version"], ["-H", "ldap://x", "--version"]] {
            let parsed = try versioned.parse(arguments)
            #expect(parsed.helpRequested == .version, "\(arguments)")
            #expect(versioned.help(for: .version) == "ldapbook 1.2.3")
        }
        #expect(try versioned.parse(["--version", "--help"]).helpRequested == .overview)
        let extra = #expect(throws: UsageError.self) { try versioned.parse(["version", "now"]) }
        #expect(extra?.message.contains("'version' takes no arguments") == true)
        #expect(versioned.help().contains("--version"))
    }

    @Test("without a version, --version is an unknown option and version an unknown command")
    func notDeclared() throws {
        let plain = CommandLineParser(programName: "ldapbook", commands: [Fixture.find])
        let option = #expect(throws: UsageError.self) { try plain.parse(["--version"]) }
        #expect(option?.message.contains("unknown option '--version'") == true)
        let command = #expect(throws: UsageError.self) { try plain.parse(["version"]) }
        #expect(command?.message.contains("unknown command 'version'") == true)
        #expect(!plain.help().contains("--version"))
    }
}

@Suite("What a shell may complete")
struct CompletionTests {
    @Test("a value's name suggests choices, files or directories; placeholders in capitals are no choices")
    func fromValueNames() {
        #expect(OptionSpec(["--format"], .value("table|json"), help: "").completion == .choices(["table", "json"]))
        #expect(OptionSpec(["--pick"], .repeatedValue("N|DN|VALUE"), help: "").completion == .none)
        #expect(OptionSpec(["-y"], .value("FILE"), help: "").completion == .files)
        #expect(OptionSpec(["--photos"], .value("DIR"), help: "").completion == .directories)
        #expect(OptionSpec(["--limit"], .value("N"), help: "").completion == .none)
        #expect(OptionSpec(["--yes"], help: "").completion == .none)
        #expect(OptionSpec(["--field"], .value("FIELD"), help: "", completion: .choices(["email"])).completion == .choices(["email"]))
    }
}
