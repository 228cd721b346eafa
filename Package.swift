// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ldapbook",
    products: [
        .library(name: "LDAPKit", targets: ["LDAPKit"]),
        .library(name: "SlapdKit", targets: ["SlapdKit"]),
        .library(name: "LDAPBook", targets: ["LDAPBook"]),
        .executable(name: "ldapbook", targets: ["ldapbook"]),
        .executable(name: "ldapbook-bench", targets: ["LDAPBookBench"]),
    ],
    targets: [
        // libldap and liblber from the system (Debian: libldap-dev), plus a shim header.
        .systemLibrary(
            name: "CLDAP",
            pkgConfig: "ldap",
            providers: [.apt(["libldap-dev"])]
        ),
        // SQLite 3 from the system (Debian: libsqlite3-dev), for the local index of people.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's posix_spawn file actions beyond POSIX (closefrom, chdir), for starting programs.
        .systemLibrary(name: "CSpawn"),
        // glibc's <malloc.h>, for the command's allocator settings.
        .systemLibrary(name: "CMalloc"),
        // An LDAP client that knows nothing about address books.
        .target(name: "LDAPKit", dependencies: ["CLDAP"]),
        // A small Swift face on SQLite: a database, its statements, its errors.
        .target(name: "SQLiteKit", dependencies: ["CSQLite"]),
        // The address book: fields and schema mapping, people, safe writes, the local index.
        .target(name: "LDAPBook", dependencies: ["LDAPKit", "SQLiteKit"]),
        // Generates cn=config and runs a private slapd (tests, benchmarks, the local directory).
        .target(name: "SlapdKit", dependencies: ["CSpawn"]),
        // Command-line parsing: argv to tokens, tokens to a command's options; help text.
        .target(name: "CommandLineKit"),
        // Terminal interaction on termios: picker, confirm, form; line prompts without a TTY.
        .target(name: "TerminalUI"),
        // The ldapbook command: one file per subcommand, the work is in the libraries.
        .executableTarget(name: "ldapbook", dependencies: ["LDAPBook", "LDAPKit", "SlapdKit", "CommandLineKit", "TerminalUI", "CMalloc"]),
        // make bench: ldapbook against ldapsearch, ldapadd, python-ldap and ldap3 on one private slapd.
        .executableTarget(name: "LDAPBookBench", dependencies: ["LDAPBook", "LDAPKit", "SlapdKit"]),
        // make fuzz: the properties the libFuzzer targets in Fuzz/Targets check, shared with FuzzRegressionTests.
        .target(name: "FuzzChecks", dependencies: ["LDAPKit", "LDAPBook"], path: "Fuzz/Checks"),

        .testTarget(name: "LDAPKitTests", dependencies: ["LDAPKit", "CLDAP"]),
        .testTarget(name: "LDAPKitIntegrationTests", dependencies: ["LDAPKit", "SlapdKit", "CLDAP"]),
        .testTarget(name: "SlapdKitTests", dependencies: ["SlapdKit"]),
        .testTarget(name: "SQLiteKitTests", dependencies: ["SQLiteKit"]),
        .testTarget(name: "LDAPBookTests", dependencies: ["LDAPBook", "LDAPKit"]),
        .testTarget(name: "LDAPBookIntegrationTests", dependencies: ["LDAPBook", "LDAPKit", "SlapdKit"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        // Runs the built ldapbook binary against private slapd servers.
        .testTarget(name: "LDAPBookCLITests", dependencies: ["LDAPKit", "SlapdKit"]),
        // Replays the fuzz seed corpora and every kept crash input through the fuzz targets' checks.
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzChecks"]),
    ],
    swiftLanguageModes: [.v6]
)
