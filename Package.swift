// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ldapbook",
    products: [
        .library(name: "LDAPKit", targets: ["LDAPKit"]),
        .library(name: "SlapdKit", targets: ["SlapdKit"]),
        .library(name: "LDAPBook", targets: ["LDAPBook"]),
    ],
    targets: [
        // libldap and liblber from the system (Debian: libldap-dev), plus a shim header.
        .systemLibrary(
            name: "CLDAP",
            pkgConfig: "ldap",
            providers: [.apt(["libldap-dev"])]
        ),
        // An LDAP client that knows nothing about address books.
        .target(name: "LDAPKit", dependencies: ["CLDAP"]),
        // The address book: fields and schema mapping, people, safe writes.
        .target(name: "LDAPBook", dependencies: ["LDAPKit"]),
        // Generates cn=config and runs a private slapd (tests, benchmarks, the local directory).
        .target(name: "SlapdKit"),

        .testTarget(name: "LDAPKitTests", dependencies: ["LDAPKit", "CLDAP"]),
        .testTarget(name: "LDAPKitIntegrationTests", dependencies: ["LDAPKit", "SlapdKit", "CLDAP"]),
        .testTarget(name: "SlapdKitTests", dependencies: ["SlapdKit"]),
        .testTarget(name: "LDAPBookTests", dependencies: ["LDAPBook", "LDAPKit"]),
        .testTarget(name: "LDAPBookIntegrationTests", dependencies: ["LDAPBook", "LDAPKit", "SlapdKit"]),
    ],
    swiftLanguageModes: [.v6]
)
