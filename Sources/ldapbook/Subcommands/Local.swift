import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
import SlapdKit

/// `ldapbook local start|stop|status|path|sample`: the personal local directory.
enum Local {
    static let spec = CommandSpec(
        "local",
        abstract: "Manage the personal local directory ldapbook uses when no other is configured.",
        discussion: """
            The local directory is a private slapd with ldapbook's schema, its data under \
            $XDG_DATA_HOME/ldapbook, reachable only through a socket (ldapi) by its owner, who \
            needs no password. Any command starts it when no directory is configured, and it \
            keeps running afterwards. ACTION is start, stop, status, path (where its data and \
            socket are), or sample (add generated people, for trying ldapbook out).
            """,
        options: [
            OptionSpec(["--count"], .value("N"), help: "with sample: how many people (default 300)"),
            OptionSpec(["--photos"], .value("DIR"), help: "with sample: a directory of JPEG files to use as photos"),
        ],
        positionals: [PositionalSpec("ACTION", help: "start, stop, status, path or sample",
                                      completion: .choices(["start", "stop", "status", "path", "sample"]))],
        examples: [
            .init(summary: "Where is it?", commandLine: "ldapbook local path"),
            .init(summary: "Try it out", commandLine: "ldapbook local sample --count 50 && ldapbook find jo"),
        ])

    static func run(_ parsed: ParsedCommandLine) async throws -> ExitCode {
        let local = LocalDirectory()
        let out = { (text: String) in StandardStream.output.write(text + "\n") }
        switch parsed.positional("ACTION") ?? "" {
        case "start":
            try await local.start()
            out("running: \(local.ldapiURI)")
        case "stop":
            try await local.stop()
            out("stopped")
        case "status":
            switch local.status() {
            case .notCreated: out("not created (any command creates it)")
            case .stopped: out("stopped")
            case .running(let pid): out("running (pid \(pid)): \(local.ldapiURI)")
            }
            return local.status().isRunning ? .success : .nothingDone
        case "path":
            out("data:   \(local.dataDirectory.path)")
            out("socket: \(local.socketPath)")
            out("uri:    \(local.ldapiURI)")
            out("base:   \(LocalDirectory.suffix)")
        case "sample":
            return try await sample(parsed, local: local)
        case let other:
            throw CommandFailure(.usage, "local: \"\(other)\" is not an action (start, stop, status, path, sample)")
        }
        return .success
    }

    /// Adds generated people to the local directory.
    static func sample(_ parsed: ParsedCommandLine, local: LocalDirectory) async throws -> ExitCode {
        let count = try parsed.integer("--count", in: 1...100_000) ?? 300
        try await local.start()
        let connection = LDAPConnection(configuration: .init(
            servers: [local.ldapiURI], base: try DistinguishedName(parsing: LocalDirectory.suffix),
            authentication: .saslExternal(), systemDefaults: .ignored))
        // With the local index of this directory, so that the people added mark it out of date.
        var configuration = AddressBook.Configuration()
        try Directory.applyIndexSettings(parsed, [:], connection: connection, to: &configuration)
        let book = AddressBook(connection: connection, configuration: configuration)
        let fields = (email: try await book.field(named: "email"), phone: try await book.field(named: "phone"),
                      mobile: try await book.field(named: "mobile"), organization: try await book.field(named: "organization"),
                      title: try await book.field(named: "title"), photo: try await book.field(named: "photo"),
                      displayName: try await book.field(named: "display-name"))
        var photos: [[UInt8]] = []
        if let directory = parsed.value("--photos") {
            // Every photo is read and checked before the first person is added, so a bad one
            // leaves the directory as it was.
            let names: [String]
            do {
                names = try UserFile.names(inDirectory: directory)
            } catch let failure as CommandFailure {
                throw CommandFailure(failure.exitCode, "--photos: \(failure.message)")
            }
            for name in names.sorted() where name.lowercased().hasSuffix(".jpg") {
                let path = directory + "/" + name
                let bytes: [UInt8]
                do {
                    bytes = [UInt8](try UserFile.read(path))
                } catch let failure as CommandFailure {
                    throw CommandFailure(failure.exitCode, "--photos: \(failure.message)")
                }
                do {
                    try fields.photo.validate([LDAPValue(bytes: bytes)])
                } catch {
                    throw CommandFailure(.invalidValue, "--photos: \(path): \(error.message)")
                }
                photos.append(bytes)
            }
        }
        var added = 0
        for sample in SamplePeople.generate(count: count, photoCount: photos.count) {
            var values: [(field: Field, values: [LDAPValue])] = [
                (fields.email, sample.emails.map { LDAPValue($0) }),
                (fields.phone, sample.phones.map { LDAPValue($0) }),
                (fields.mobile, sample.mobiles.map { LDAPValue($0) }),
                (fields.organization, sample.organization.map { [LDAPValue($0)] } ?? []),
                (fields.title, sample.title.map { [LDAPValue($0)] } ?? []),
                (fields.displayName, sample.displayName.map { [LDAPValue($0)] } ?? []),
            ]
            if let index = sample.photoIndex { values.append((fields.photo, [LDAPValue(bytes: photos[index])])) }
            for (name, value) in sample.customFields {
                values.append((try await book.field(named: name), [LDAPValue(value)]))
            }
            try await book.add(NewPerson(givenName: sample.givenName, surname: sample.surname, values: values))
            added += 1
        }
        StandardStream.output.write("added \(added) people to \(LocalDirectory.suffix)\n")
        return .success
    }
}
