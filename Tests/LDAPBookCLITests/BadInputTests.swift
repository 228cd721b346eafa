import Foundation
import LDAPKit
import SlapdKit
import Testing

/// What a refused command may print on standard output.
enum RefusedOutput: Sendable, Equatable {
    /// Nothing at all.
    case empty
    /// An import summary that counts nothing added, updated or unchanged.
    case importOfNothing
    /// `no match`, as mutt expects from a query that finds no one.
    case noMatch

    func accepts(_ stdout: String) -> Bool {
        switch self {
        case .empty: stdout.isEmpty
        case .importOfNothing: stdout.hasPrefix("added 0, updated 0, unchanged 0, rejected ") && !stdout.contains("rejected 0")
        case .noMatch: stdout == "no match\n"
        }
    }
}

/// One row of the matrix: a command given bad input, and how it must refuse.
///
/// In `arguments`, `{files}` is the directory of ``BadInputFiles`` and `{base}` the
/// test's container.
struct BadInput: Sendable, CustomTestStringConvertible {
    let command: String
    let problem: String
    let arguments: [String]
    let status: Int32
    /// Words stderr must contain, so the message names the problem (and the file and line).
    let mentions: [String]
    var stdout: RefusedOutput = .empty

    var testDescription: String { "\(command): \(problem) → \(status)" }
}

/// ldapbook's exit codes, as the README's table gives them.
enum Exit {
    static let nothingDone: Int32 = 1
    static let usage: Int32 = 64
    static let invalid: Int32 = 65
    static let noInput: Int32 = 66
    static let cannotCreate: Int32 = 73
}

extension BadInput {
    static let matrix: [BadInput] = add + set + reach + importing + photo + reading + administration

    static let add: [BadInput] = [
        .init(command: "add", problem: "a name that cannot be a field",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "shoe_size!=42"], status: Exit.invalid,
              mentions: ["\"shoe_size!\" is not a field"]),
        .init(command: "add", problem: "an empty field name",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "=42"], status: Exit.invalid,
              mentions: ["field name must not be empty"]),
        .init(command: "add", problem: "no = in FIELD=VALUE",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "shoesize"], status: Exit.usage,
              mentions: ["\"shoesize\" is not FIELD=VALUE"]),
        .init(command: "add", problem: "no --surname",
              arguments: ["add", "--given", "Bob", "email=bob@example.org"], status: Exit.usage, mentions: ["--surname"]),
        .init(command: "add", problem: "an invalid email",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "email=bob.example.org"], status: Exit.invalid,
              mentions: ["email", "\"bob.example.org\"", "exactly one @"]),
        .init(command: "add", problem: "an invalid phone",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "phone=call me"], status: Exit.invalid,
              mentions: ["phone", "must contain a digit"]),
        .init(command: "add", problem: "a valid email and an invalid date: neither is written",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "email=bob@example.org", "birthday=31/12/1999"],
              status: Exit.invalid, mentions: ["birthday", "YYYY-MM-DD"]),
        .init(command: "add", problem: "a photo file that is not a JPEG",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "photo=@{files}/not-a-photo.jpg"], status: Exit.invalid,
              mentions: ["not-a-photo.jpg", "photo", "must be a JPEG image"]),
        .init(command: "add", problem: "@FILE that does not exist",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "photo=@{files}/missing.jpg"], status: Exit.noInput,
              mentions: ["photo", "missing.jpg", "no such file or directory"]),
        .init(command: "add", problem: "@FILE that is a directory",
              arguments: ["add", "--given", "Bob", "--surname", "Byte", "note=@{files}"], status: Exit.noInput,
              mentions: ["note", "is a directory"]),
    ]

    static let set: [BadInput] = [
        .init(command: "set", problem: "a name that cannot be a field",
              arguments: ["set", "ada", "shoe_size!=42"], status: Exit.invalid, mentions: ["\"shoe_size!\" is not a field"]),
        .init(command: "set", problem: "--replace of a name that cannot be a field",
              arguments: ["set", "ada", "--replace", "shoe_size!"], status: Exit.invalid, mentions: ["\"shoe_size!\" is not a field"]),
        .init(command: "set", problem: "nothing to set",
              arguments: ["set", "ada"], status: Exit.usage, mentions: ["nothing to set"]),
        .init(command: "set", problem: "an invalid email",
              arguments: ["set", "ada", "email=ada at example.com"], status: Exit.invalid, mentions: ["email", "exactly one @"]),
        .init(command: "set", problem: "an invalid phone",
              arguments: ["set", "ada", "phone=+44 (0) 20 <7946>"], status: Exit.invalid, mentions: ["phone", "may contain only"]),
        .init(command: "set", problem: "a valid email and an invalid date: neither is written",
              arguments: ["set", "ada", "email=second@example.com", "birthday=1815-13-10"], status: Exit.invalid,
              mentions: ["birthday", "YYYY-MM-DD"]),
        .init(command: "set", problem: "a photo file that is not a JPEG",
              arguments: ["set", "ada", "--replace", "photo", "photo=@{files}/not-a-photo.jpg"], status: Exit.invalid,
              mentions: ["not-a-photo.jpg", "must be a JPEG image"]),
        .init(command: "set", problem: "@FILE that does not exist",
              arguments: ["set", "ada", "photo=@{files}/missing.jpg"], status: Exit.noInput,
              mentions: ["missing.jpg", "no such file or directory"]),
        .init(command: "set", problem: "@FILE that is a directory",
              arguments: ["set", "ada", "note=@{files}"], status: Exit.noInput, mentions: ["is a directory"]),
        .init(command: "set", problem: "a person who is not there",
              arguments: ["set", "zebedee", "email=zebedee@example.com"], status: Exit.nothingDone, mentions: ["no one named zebedee"]),
        .init(command: "set", problem: "a DN that is not there",
              arguments: ["set", "cn=Zebedee Zed,{base}", "email=zebedee@example.com"], status: Exit.nothingDone,
              mentions: ["no entry cn=Zebedee Zed"]),
    ]

    static let reach: [BadInput] = [
        .init(command: "reach", problem: "a name that cannot be a field",
              arguments: ["reach", "shoe_size!", "ada", "--yes", "--no-input"], status: Exit.invalid,
              mentions: ["\"shoe_size!\" is not a field"]),
        .init(command: "reach", problem: "an invalid phone filled in",
              arguments: ["reach", "phone", "ada", "--value", "call me", "--pick", "1", "--yes", "--no-input"],
              status: Exit.invalid, mentions: ["phone", "must contain a digit"]),
        .init(command: "reach", problem: "an invalid phone for a new entry",
              arguments: ["reach", "mobile", "zebedee", "--new", "--given", "Zebedee", "--surname", "Zed",
                          "--value", "call me", "--yes", "--no-input"],
              status: Exit.invalid, mentions: ["mobile", "must contain a digit"]),
        .init(command: "reach", problem: "--new, which has no list, with --pick",
              arguments: ["reach", "email", "zebedee", "--new", "--pick", "1", "--given", "Zebedee", "--surname", "Zed",
                          "--value", "zebedee@example.com", "--yes", "--no-input"],
              status: Exit.usage, mentions: ["--pick and --new cannot be combined"]),
        .init(command: "reach", problem: "a misspelt field",
              arguments: ["reach", "emial", "ada", "--yes", "--no-input"], status: Exit.invalid,
              mentions: ["emial is not a field of this directory: did you mean email?", "custom:emial"]),
        .init(command: "reach", problem: "an action that is not one",
              arguments: ["reach", "email", "ada", "--action", "fax"], status: Exit.usage, mentions: ["\"fax\" is not an action"]),
    ]

    static let importing: [BadInput] = [
        .init(command: "import", problem: "a file that does not exist",
              arguments: ["import", "{files}/missing.vcf"], status: Exit.noInput, mentions: ["missing.vcf", "no such file or directory"]),
        .init(command: "import", problem: "a directory",
              arguments: ["import", "{files}"], status: Exit.noInput, mentions: ["is a directory"]),
        .init(command: "import", problem: "a good file, then one that does not exist: nothing is imported",
              arguments: ["import", "{files}/good.vcf", "{files}/missing.vcf"], status: Exit.noInput, mentions: ["missing.vcf"]),
        .init(command: "import", problem: "vCard: a line that is not a property",
              arguments: ["import", "{files}/malformed.vcf"], status: Exit.invalid,
              mentions: ["malformed.vcf: line 5", "is not a property"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: no END:VCARD",
              arguments: ["import", "{files}/unterminated.vcf"], status: Exit.invalid,
              mentions: ["unterminated.vcf: line 1", "END:VCARD"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: a property naming no possible field",
              arguments: ["import", "{files}/bad-field.vcf"], status: Exit.invalid,
              mentions: ["bad-field.vcf: line 5", "\"-shoe\" is not a field"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: an email no directory can hold",
              arguments: ["import", "{files}/bad-email.vcf"], status: Exit.invalid,
              mentions: ["bad-email.vcf: line 5", "EMAIL", "must be ASCII"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: a phone no directory can hold",
              arguments: ["import", "{files}/bad-phone.vcf"], status: Exit.invalid,
              mentions: ["bad-phone.vcf: line 6", "TEL", "may contain only digits"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: a photo that is not a JPEG",
              arguments: ["import", "{files}/bad-photo.vcf"], status: Exit.invalid,
              mentions: ["bad-photo.vcf: line 5", "PHOTO", "must be a JPEG image"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: a line that is not name: value",
              arguments: ["import", "{files}/malformed.ldif"], status: Exit.invalid,
              mentions: ["malformed.ldif: line 7", "expected 'name: value'"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: an attribute name that cannot be one",
              arguments: ["import", "{files}/bad-attribute.ldif"], status: Exit.invalid,
              mentions: ["bad-attribute.ldif: line 8", "shoe_size!"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: an email no directory can hold",
              arguments: ["import", "{files}/bad-email.ldif"], status: Exit.invalid,
              mentions: ["bad-email.ldif: line 3", "email", "must be ASCII"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: a last record cut off in the middle of a line",
              arguments: ["import", "{files}/truncated.ldif"], status: Exit.invalid,
              mentions: ["truncated.ldif: line 3", "cut off", "nothing of it is imported"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: a photo that is not a JPEG",
              arguments: ["import", "{files}/bad-photo.ldif"], status: Exit.invalid,
              mentions: ["bad-photo.ldif: line 3", "must be a JPEG image"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: a change record",
              arguments: ["import", "{files}/change.ldif"], status: Exit.invalid,
              mentions: ["change.ldif: line 3", "only entries are imported"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: a name that is not UTF-8",
              arguments: ["import", "{files}/bad-utf8.vcf"], status: Exit.invalid,
              mentions: ["bad-utf8.vcf: line 4", "not valid UTF-8"], stdout: .importOfNothing),
        .init(command: "import", problem: "vCard: a name of a million characters",
              arguments: ["import", "{files}/huge-name.vcf"], status: Exit.invalid,
              mentions: ["huge-name.vcf: line 1", "at most 256 characters"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: a surname that is not UTF-8",
              arguments: ["import", "{files}/bad-utf8.ldif"], status: Exit.invalid,
              mentions: ["bad-utf8.ldif: line 3", "not valid UTF-8"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: a surname of a million characters",
              arguments: ["import", "{files}/huge-name.ldif"], status: Exit.invalid,
              mentions: ["huge-name.ldif: line 3", "at most 256 characters"], stdout: .importOfNothing),
        .init(command: "import", problem: "LDIF: an entry without sn",
              arguments: ["import", "{files}/no-surname.ldif"], status: Exit.invalid,
              mentions: ["no-surname.ldif: line 3", "no surname"], stdout: .importOfNothing),
    ]

    static let photo: [BadInput] = [
        .init(command: "photo -o", problem: "a file in a directory that does not exist",
              arguments: ["photo", "ada", "-o", "{files}/missing/ada.jpg"], status: Exit.cannotCreate,
              mentions: ["cannot write", "missing/ada.jpg", "no such file or directory"]),
        .init(command: "photo -o", problem: "a directory",
              arguments: ["photo", "ada", "-o", "{files}"], status: Exit.cannotCreate, mentions: ["cannot write", "is a directory"]),
        .init(command: "photo", problem: "a person who is not there",
              arguments: ["photo", "zebedee", "-o", "{files}/zebedee.jpg"], status: Exit.nothingDone,
              mentions: ["no photo found for zebedee"]),
    ]

    static let reading: [BadInput] = [
        .init(command: "export", problem: "a format that is not one",
              arguments: ["export", "--format", "xml"], status: Exit.usage, mentions: ["'xml'", "--format"]),
        .init(command: "export", problem: "a vCard version that is not one",
              arguments: ["export", "--vcard-version", "2.1"], status: Exit.usage, mentions: ["'2.1'", "--vcard-version"]),
        .init(command: "export", problem: "a name nobody has",
              arguments: ["export", "zebedee"], status: Exit.nothingDone, mentions: ["no one named zebedee"]),
        .init(command: "export", problem: "an empty name",
              arguments: ["export", ""], status: Exit.invalid, mentions: ["name must not be empty"]),
        .init(command: "show", problem: "a format that is not one",
              arguments: ["show", "ada", "--format", "xml"], status: Exit.usage, mentions: ["'xml'", "--format"]),
        .init(command: "show", problem: "a name nobody has",
              arguments: ["show", "zebedee"], status: Exit.nothingDone, mentions: ["no one named zebedee"]),
        .init(command: "show", problem: "a DN that is not there",
              arguments: ["show", "cn=Zebedee Zed,{base}"], status: Exit.nothingDone, mentions: ["no entry cn=Zebedee Zed"]),
        .init(command: "find", problem: "a name that cannot be a field",
              arguments: ["find", "ada", "--field", "shoe_size!"], status: Exit.invalid, mentions: ["\"shoe_size!\" is not a field"]),
        .init(command: "find", problem: "a format that is not one",
              arguments: ["find", "ada", "--format", "xml"], status: Exit.usage, mentions: ["\"xml\" is not a format"]),
        .init(command: "find", problem: "--limit 0",
              arguments: ["find", "ada", "--limit", "0"], status: Exit.usage, mentions: ["--limit"]),
        .init(command: "find", problem: "an empty name",
              arguments: ["find", ""], status: Exit.invalid, mentions: ["name must not be empty"]),
        .init(command: "query", problem: "a format that is not one",
              arguments: ["query", "ada", "--format", "xml"], status: Exit.usage, mentions: ["'xml'", "--format"]),
        .init(command: "query", problem: "--limit 0",
              arguments: ["query", "ada", "--limit", "0"], status: Exit.usage, mentions: ["--limit"]),
        .init(command: "query", problem: "a name nobody has",
              arguments: ["query", "zebedee"], status: Exit.nothingDone, mentions: [], stdout: .noMatch),
    ]

    static let administration: [BadInput] = [
        .init(command: "schema", problem: "an action that is not one",
              arguments: ["schema", "uninstall"], status: Exit.usage, mentions: ["\"uninstall\" is not an action"]),
        .init(command: "schema print", problem: "a format that is not one",
              arguments: ["schema", "print", "--format", "xml"], status: Exit.usage, mentions: ["'xml'", "--format"]),
        .init(command: "local", problem: "an action that is not one",
              arguments: ["local", "restart"], status: Exit.usage, mentions: ["\"restart\" is not an action"]),
    ]
}

/// The files the matrix reads, written into a fresh directory.
struct BadInputFiles {
    let directory: URL

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0xFF, 0xD9]

    /// Each file's contents; where a case expects a line number, the comment says which.
    static let contents: [String: [UInt8]] = [
        "not-a-photo.jpg": Array("GIF89a, not a JPEG\n".utf8),
        "good.vcf": card(["FN:Grace Hopper", "N:Hopper;Grace;;;", "EMAIL:grace@example.com"]),
        // Line 5: a line with no colon.
        "malformed.vcf": card(["FN:Bob Byte", "N:Byte;Bob;;;", "this line is no property"]),
        // Line 1: BEGIN:VCARD, never ended.
        "unterminated.vcf": Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Bob Byte\r\nN:Byte;Bob;;;\r\n".utf8),
        // Line 5: X-LDAPBOOK-<name> names the field "-shoe", which cannot be one.
        "bad-field.vcf": card(["FN:Bob Byte", "N:Byte;Bob;;;", "X-LDAPBOOK--SHOE:42"]),
        "bad-email.vcf": card(["FN:Bob Byte", "N:Byte;Bob;;;", "EMAIL:bøb@example.org"]),
        // Line 6 (after a valid email on line 5).
        "bad-phone.vcf": card(["FN:Bob Byte", "N:Byte;Bob;;;", "EMAIL:bob@example.org", "TEL:+1 555 0100 ☎"]),
        "bad-photo.vcf": card(["FN:Bob Byte", "N:Byte;Bob;;;",
                               "PHOTO:data:image/jpeg;base64," + Data("GIF89a, not a JPEG".utf8).base64EncodedString()]),
        // Line 7: "sn Byte" lacks its colon.
        "malformed.ldif": ldif(["cn: Bob Byte", "givenName: Bob", "sn Byte"]),
        // Line 8: an attribute description with "_" and "!".
        "bad-attribute.ldif": ldif(["cn: Bob Byte", "givenName: Bob", "sn: Byte", "shoe_size!: 42"]),
        // The record starts on line 3 (after "version: 1" and an empty line).
        "bad-email.ldif": ldif(["cn: Bob Byte", "givenName: Bob", "sn: Byte", "mail:: " + Data("bøb@example.org".utf8).base64EncodedString()]),
        "bad-photo.ldif": ldif(["cn: Bob Byte", "givenName: Bob", "sn: Byte",
                                "jpegPhoto:: " + Data("GIF89a, not a JPEG".utf8).base64EncodedString()]),
        "change.ldif": Array("version: 1\n\ndn: cn=Bob Byte,dc=example,dc=com\nchangetype: delete\n".utf8),
        "no-surname.ldif": ldif(["cn: Bob Byte", "givenName: Bob"]),
        // The record starts on line 3 and the file stops in the middle of its surname.
        "truncated.ldif": Array("version: 1\n\ndn: cn=Tess Two,dc=example,dc=com\nobjectClass: inetOrgPerson\ncn: Tess Two\nsn: Tw".utf8),
        // Line 4: bytes that are not UTF-8 in the name.
        "bad-utf8.vcf": Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Bob Byte\r\nN:B".utf8) + [0xFF, 0xFE]
            + Array("yte;Bob;;;\r\nEND:VCARD\r\n".utf8),
        // Line 3: a surname of one million characters.
        "huge-name.vcf": card(["FN:Bob " + String(repeating: "B", count: 1_000_000), "N:" + String(repeating: "B", count: 1_000_000) + ";Bob;;;"]),
        // The record starts on line 3; its surname, in base64, is not UTF-8.
        "bad-utf8.ldif": ldif(["cn: Bob Byte", "givenName: Bob", "sn:: " + Data([0x42, 0xFF, 0xFE, 0x79]).base64EncodedString()]),
        "huge-name.ldif": ldif(["cn: Bob Byte", "givenName: Bob", "sn: " + String(repeating: "B", count: 1_000_000)]),
    ]

    /// A vCard 4.0 whose properties start on line 3.
    static func card(_ properties: [String]) -> [UInt8] {
        Array((["BEGIN:VCARD", "VERSION:4.0"] + properties + ["END:VCARD", ""]).joined(separator: "\r\n").utf8)
    }

    /// An LDIF entry whose dn is on line 3 and whose attributes start on line 4 with objectClass.
    static func ldif(_ attributes: [String]) -> [UInt8] {
        Array((["version: 1", "", "dn: cn=Bob Byte,dc=example,dc=com", "objectClass: inetOrgPerson"] + attributes + [""])
            .joined(separator: "\n").utf8)
    }

    /// Writes the files into a new directory under `parent`.
    static func write(under parent: URL) throws -> BadInputFiles {
        let directory = parent.appendingPathComponent("bad-input-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in contents {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        return BadInputFiles(directory: directory)
    }
}

@Suite("Bad input to every command: the right exit code, a clear message, nothing written")
struct BadInputTests {
    /// Every user attribute of every entry under `base`, one line per value, sorted.
    static func dump(_ connection: LDAPConnection, _ base: DistinguishedName) async throws -> [String] {
        var lines: [String] = []
        for try await entry in connection.search(base: base, attributes: ["*"]) {
            lines.append("dn: \(entry.dn.string)")
            for attribute in entry.attributes {
                for value in attribute.values {
                    lines.append("\(entry.dn.string) \(attribute.name.lowercased()):: \(Data(value.bytes).base64EncodedString())")
                }
            }
        }
        return lines.sorted()
    }

    @Test("refused without a write", arguments: BadInput.matrix)
    func refused(_ row: BadInput) async throws {
        let server = try await CLI.shared()
        let (connection, base) = try await CLI.container(server, people: [("Ada", "Lovelace", ["ada@example.com"])])
        try await connection.modify(base.child("cn", LDAPValue("Ada Lovelace")),
                                    [.add("jpegPhoto", values: [LDAPValue(bytes: BadInputFiles.jpeg)])])
        let files = try BadInputFiles.write(under: server.directory)
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let arguments = row.arguments.map {
            $0.replacingOccurrences(of: "{files}", with: files.directory.path)
                .replacingOccurrences(of: "{base}", with: base.string)
        }

        let before = try await Self.dump(connection, base)
        #expect(before.contains { $0.hasSuffix("jpegphoto:: " + Data(BadInputFiles.jpeg).base64EncodedString()) })
        let result = try CLI.run(arguments + CLI.connectionArguments(server, base: base))
        let after = try await Self.dump(connection, base)

        #expect(result.status == row.status, "stderr: \(result.stderr)")
        if row.stdout == .noMatch {
            #expect(result.stderr.isEmpty, "mail readers read the answer on stdout; stderr would garble their screen")
        } else {
            #expect(result.stderr.hasPrefix("ldapbook: "), "a message on stderr: \(result.stderr)")
        }
        for word in row.mentions {
            #expect(result.stderr.contains(word), "stderr names \(word): \(result.stderr)")
        }
        #expect(row.stdout.accepts(result.stdout), "stdout: \(result.stdout)")
        #expect(after == before, "nothing written; added \(Set(after).subtracting(before).sorted())")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: files.directory.path)) ?? []
        #expect(Set(written) == Set(BadInputFiles.contents.keys), "no file written")
        await connection.close()
    }
}

@Suite("Bad photos for local sample: refused before anyone is added")
struct LocalSampleBadInputTests {
    @Test("a missing --photos directory, and a .jpg that is not a JPEG after a good one")
    func badPhotos() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("lb-sample-\(UUID().uuidString.prefix(6))")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "LDAPNOINIT": "1"]
        defer { _ = try? CLI.run(["local", "stop"], environment: environment) }
        let photos = home.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data(BadInputFiles.jpeg).write(to: photos.appendingPathComponent("a.jpg"))
        try Data("GIF89a, not a JPEG".utf8).write(to: photos.appendingPathComponent("b.jpg"))

        #expect(try CLI.run(["local", "sample", "--count", "3"], environment: environment).status == 0)
        let before = try CLI.run(["export", "--format", "ldif"], environment: environment)
        #expect(before.stdout.split(separator: "\n").filter { $0.hasPrefix("dn: ") }.count == 3, "three people: \(before.stdout)")

        let missing = try CLI.run(["local", "sample", "--photos", home.appendingPathComponent("none").path], environment: environment)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("--photos: cannot list"))
        #expect(missing.stderr.contains("no such file or directory"))
        #expect(missing.stdout.isEmpty)

        let notJPEG = try CLI.run(["local", "sample", "--count", "50", "--photos", photos.path], environment: environment)
        #expect(notJPEG.status == 65, "\(notJPEG.stderr)")
        #expect(notJPEG.stderr.contains("b.jpg"))
        #expect(notJPEG.stderr.contains("must be a JPEG image"))
        #expect(notJPEG.stdout.isEmpty)

        let after = try CLI.run(["export", "--format", "ldif"], environment: environment)
        #expect(after.stdout == before.stdout, "nothing added")
    }
}
