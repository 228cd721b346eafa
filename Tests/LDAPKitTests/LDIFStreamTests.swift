import Foundation
import Testing
@testable import LDAPKit

@Suite("LDIF: streams, records and separators")
struct LDIFStreamTests {
    @Test("After a bad record, the stream continues with the next one")
    func skipAndContinue() throws {
        let ldif = """
            version: 1
            dn: cn=first,dc=example
            cn: first

            dn: cn=bad base64,dc=example
            cn: bad
            jpegPhoto:: ###
            description: still part of the bad record

            dn: cn=second,dc=example
            cn: second


            objectClass: top
            cn: no dn

             a continuation line after an empty line
            dn: cn=swallowed,dc=example

            # a comment between records
            dn: cn=third,dc=example
            changetype: modify
            replace: cn
            cn: third
            """
        var stream = LDIFReader(text: ldif).stream()
        var outcomes: [String] = []
        while true {
            do {
                guard let record = try stream.next() else { break }
                outcomes.append(record.dn.string)
            } catch {
                outcomes.append(error.description)
            }
        }
        #expect(outcomes == [
            "cn=first,dc=example",
            "line 7: invalid base64 value for jpegPhoto",
            "cn=second,dc=example",
            "line 14: expected a 'dn:' line to begin the record, found 'objectClass'",
            "line 17: a line starting with a space continues nothing (it follows an empty line or begins the input)",
            "line 23: the 'replace: cn' modification is not ended by a '-' line",
        ])
        #expect(try stream.next() == nil)
        #expect(try stream.next() == nil)
    }

    @Test("Separators: several empty lines, lines of spaces, comments, CRLF, no newline at the end")
    func separators() throws {
        let expected: [LDIFRecord] = [
            .content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=a,dc=example"), ["cn": ["a"], "sn": ["b"]])),
            .content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=b,dc=example"), ["cn": ["b c"]])),
        ]
        let variants = [
            "dn: cn=a,dc=example\ncn: a\nsn: b\n\ndn: cn=b,dc=example\ncn: b c\n",
            "dn: cn=a,dc=example\ncn: a\nsn: b\n\ndn: cn=b,dc=example\ncn: b c",
            "\n\n\ndn: cn=a,dc=example\ncn: a\nsn: b\n\n\n\ndn: cn=b,dc=example\ncn: b c\n\n\n",
            "  \ndn: cn=a,dc=example\ncn: a\nsn: b\n\n   \n \ndn: cn=b,dc=example\ncn: b c\n\n  ",
            "dn: cn=a,dc=example\r\ncn: a\r\nsn: b\r\n\r\ndn: cn=b,dc=example\r\ncn: b\r\n  c\r\n",
            "version: 1\n\n# first\n#  folded comment\n  still the comment\ndn: cn=a,dc=example\n# inside\ncn: a\nsn: b\n\n# second\ndn: cn=b,dc=example\ncn: b c\n",
            "version:1\ndn: cn=a,\n dc=example\ncn:   a\nsn:b\n\ndn:: Y249YixkYz1leGFtcGxl\ncn:: YiBj\n# the end",
        ]
        for (index, variant) in variants.enumerated() {
            #expect(try LDIFReader(text: variant).records() == expected, "variant \(index)")
        }
    }

    @Test("recordLine is the line each record starts on, past a version line and comments")
    func recordLines() throws {
        let ldif = "version: 1\n# people\ndn: cn=a,dc=example\ncn: a\n\n\n# folded\n  comment\ndn: cn=b,\n dc=example\ncn: b\n"
        var stream = LDIFReader(text: ldif).stream()
        #expect(stream.recordLine == 0)
        var lines: [String: Int] = [:]
        while let record = try stream.next() { lines[record.dn.string] = stream.recordLine }
        #expect(lines == ["cn=a,dc=example": 3, "cn=b,dc=example": 9])
    }

    @Test("Input with no records gives none")
    func empty() throws {
        for text in ["", "\n\n", "version: 1\n", "version: 1\n\n# nothing here\n", "# only\n# comments"] {
            #expect(try LDIFReader(text: text).records().isEmpty)
        }
    }

    @Test("Values of the same attribute are gathered where it first appears")
    func gathering() throws {
        let records = try LDIFReader(text: "dn: cn=a\ncn: a\nmail: m1\nCN: b\ncn;lang-de: c\nmail: m2\n").records()
        #expect(records == [.content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=a"), [
            "cn": ["a", "b"], "mail": ["m1", "m2"], "cn;lang-de": ["c"],
        ]))])
    }

    @Test("A file streams the same records as the same bytes in memory")
    func fileMatchesMemory() throws {
        var generator = LDIFRecordGenerator(seed: 99)
        let records = (0..<200).map { _ in generator.record() }
        let bytes = records.reduce(LDIFWriter.versionLine) { $0 + LDIFWriter.write($1) }
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("records.ldif").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            var stream = try LDIFReader.stream(contentsOf: path)
            var read: [LDIFRecord] = []
            while let record = try stream.next() { read.append(record) }
            #expect(read == records)
            #expect(try LDIFReader(bytes: bytes).records() == records)
        }
    }

    @Test("A file that cannot be opened is an error without a line")
    func missingFile() {
        let path = "/nonexistent/ldif/\(UUID().uuidString).ldif"
        #expect(throws: LDIFError(line: 0, message: "cannot open \(path): No such file or directory")) {
            _ = try LDIFReader.stream(contentsOf: path)
        }
    }

    @Test("An 8 MB file (128 read chunks) streams record by record in bounded memory")
    func largeFile() throws {
        var generator = LDIFRecordGenerator(seed: 2_849)
        let people = try (0..<280).map { index in try Self.person(index) }
        let block = people + (0..<20).map { _ in generator.record() }
        let blockBytes = block.flatMap(LDIFWriter.write)
        let repetitions = 8 * 1024 * 1024 / blockBytes.count + 1
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("large.ldif").path
            try Data(LDIFWriter.versionLine).write(to: URL(fileURLWithPath: path))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            for _ in 0..<repetitions { try handle.write(contentsOf: blockBytes) }
            try handle.close()
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size >= 8 * 1024 * 1024)

            var stream = try LDIFReader.stream(contentsOf: path)
            var count = 0
            var largestBuffer = 0
            while let record = try stream.next() {
                if count < block.count { #expect(record == block[count]) }
                count += 1
                largestBuffer = max(largestBuffer, stream.bufferCapacity)
            }
            #expect(count == repetitions * block.count)
            #expect(largestBuffer <= 4 * LDIFByteSource.chunkSize)
        }
    }

    /// An address book entry as a directory would export it: text values,
    /// a description long enough to be folded, and a small photo.
    private static func person(_ index: Int) throws -> LDIFRecord {
        var entry = LDAPEntry(dn: try DistinguishedName(parsing: "uid=person\(index),ou=people,dc=example,dc=com"), [
            "objectClass": ["top", "person", "organizationalPerson", "inetOrgPerson"],
            "uid": ["person\(index)"],
            "cn": ["Person Number \(index)"],
            "sn": ["Number \(index)"],
            "mail": ["person\(index)@example.com"],
            "telephoneNumber": ["+1 408 555 \(1000 + index % 9000)"],
            "description": [String(repeating: "A long description that is folded over several lines. ", count: 3)],
        ])
        entry.attributes.append(LDAPAttribute(name: "jpegPhoto", values: [
            LDAPValue(bytes: (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }),
        ]))
        return .content(entry)
    }

    @Test("A physical line longer than a chunk is read whole")
    func lineLongerThanChunk() throws {
        let value = String(repeating: "0123456789", count: 30_000)
        let text = "dn: cn=a\r\ndescription: \(value)\r\ncn: a\r\n\r\ndn: cn=b\r\ncn: b"
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("long.ldif").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            var stream = try LDIFReader.stream(contentsOf: path)
            var records: [LDIFRecord] = []
            while let record = try stream.next() { records.append(record) }
            #expect(records == [
                .content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=a"), ["description": [value], "cn": ["a"]])),
                .content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=b"), ["cn": ["b"]])),
            ])
        }
    }

    @Test("A CRLF, a fold and an empty line split across chunk boundaries")
    func chunkBoundaries() throws {
        for padding in 0..<8 {
            let filler = String(repeating: "f", count: LDIFByteSource.chunkSize - 30 - padding)
            let text = "dn: cn=a\r\ndescription: \(filler)\r\n tail\r\n\r\ndn: cn=b\r\ncn: b\r\n"
            try withTemporaryDirectory { directory in
                let path = directory.appendingPathComponent("boundary.ldif").path
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                var stream = try LDIFReader.stream(contentsOf: path)
                var records: [LDIFRecord] = []
                while let record = try stream.next() { records.append(record) }
                #expect(records == [
                    .content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=a"), ["description": [filler + "tail"]])),
                    .content(LDAPEntry(dn: try DistinguishedName(parsing: "cn=b"), ["cn": ["b"]])),
                ], "padding \(padding)")
            }
        }
    }
}

/// Runs `body` with a new empty directory, removed afterwards.
func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ldif-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}
