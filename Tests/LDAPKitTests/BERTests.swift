import CLDAP
import Testing
@testable import LDAPKit

@Suite("BER encoding and decoding")
struct BERTests {
    // MARK: Integers

    @Test("Integers are written in the fewest two's-complement octets", arguments: [
        (0, [0x02, 0x01, 0x00]),
        (127, [0x02, 0x01, 0x7F]),
        (128, [0x02, 0x02, 0x00, 0x80]),
        (255, [0x02, 0x02, 0x00, 0xFF]),
        (256, [0x02, 0x02, 0x01, 0x00]),
        (-1, [0x02, 0x01, 0xFF]),
        (-128, [0x02, 0x01, 0x80]),
        (-129, [0x02, 0x02, 0xFF, 0x7F]),
        (Int(Int32.max), [0x02, 0x04, 0x7F, 0xFF, 0xFF, 0xFF]),
        (Int(Int32.min), [0x02, 0x04, 0x80, 0x00, 0x00, 0x00]),
        (1 << 40, [0x02, 0x06, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00]),
        (Int.max, [0x02, 0x08, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        (Int.min, [0x02, 0x08, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
    ] as [(Int, [UInt8])])
    func integerEncoding(value: Int, encoding: [UInt8]) throws {
        var writer = BERWriter()
        writer.writeInteger(value)
        #expect(writer.bytes == encoding)

        var reader = BERReader(encoding)
        #expect(try reader.readInteger() == value)
        try reader.expectEnd()
    }

    @Test("Integers match liblber's encoding and decode with liblber", arguments: [
        0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 8_388_607, 8_388_608,
        -1, -127, -128, -129, -256, -32768, -32769, Int(Int32.max), Int(Int32.min),
    ])
    func integerMatchesLiblber(value: Int) throws {
        let expected = try liblberEncoding { ber_put_int($0, ber_int_t(value), ber_tag_t(0x02)) }
        var writer = BERWriter()
        writer.writeInteger(value)
        #expect(writer.bytes == expected)
        #expect(try liblberDecodeInteger(writer.bytes) == value)
    }

    @Test("Redundant leading octets in a received integer are tolerated")
    func nonMinimalInteger() throws {
        var positive = BERReader([0x02, 0x03, 0x00, 0x00, 0x05])
        #expect(try positive.readInteger() == 5)
        var negative = BERReader([0x02, 0x03, 0xFF, 0xFF, 0xFE])
        #expect(try negative.readInteger() == -2)
    }

    @Test("Enumerated values and booleans round-trip, with true written as 0xFF")
    func enumeratedAndBoolean() throws {
        var writer = BERWriter()
        writer.writeEnumerated(53)
        writer.writeBoolean(true)
        writer.writeBoolean(false)
        writer.writeBoolean(true, tag: .contextSpecific(4))
        #expect(writer.bytes == [0x0A, 0x01, 0x35, 0x01, 0x01, 0xFF, 0x01, 0x01, 0x00, 0x84, 0x01, 0xFF])

        var reader = BERReader(writer.bytes)
        #expect(try reader.readEnumerated() == 53)
        #expect(try reader.readBoolean() == true)
        #expect(try reader.readBoolean() == false)
        #expect(try reader.readBoolean(tag: .contextSpecific(4)) == true)
        try reader.expectEnd()

        let liblberTrue = try liblberEncoding { ber_put_boolean($0, 1, ber_tag_t(0x01)) }
        let liblberEnum = try liblberEncoding { ber_put_enum($0, 53, ber_tag_t(0x0A)) }
        #expect(liblberEnum + liblberTrue == Array(writer.bytes.prefix(6)))
    }

    @Test("Any non-zero boolean octet reads as true")
    func lenientBoolean() throws {
        var reader = BERReader([0x01, 0x01, 0x01])
        #expect(try reader.readBoolean() == true)
    }

    // MARK: Lengths

    @Test("Lengths use the short form below 128 and the shortest long form above", arguments: [
        (0, [0x04, 0x00]),
        (1, [0x04, 0x01]),
        (127, [0x04, 0x7F]),
        (128, [0x04, 0x81, 0x80]),
        (255, [0x04, 0x81, 0xFF]),
        (256, [0x04, 0x82, 0x01, 0x00]),
        (65535, [0x04, 0x82, 0xFF, 0xFF]),
        (65536, [0x04, 0x83, 0x01, 0x00, 0x00]),
        (16_777_216, [0x04, 0x84, 0x01, 0x00, 0x00, 0x00]),
    ] as [(Int, [UInt8])])
    func lengthEncoding(length: Int, header: [UInt8]) throws {
        let contents = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var writer = BERWriter()
        writer.writeOctetString(contents)
        #expect(Array(writer.bytes.prefix(header.count)) == header)
        #expect(writer.bytes.count == header.count + length)

        var reader = BERReader(writer.bytes)
        #expect(try reader.readOctetString() == contents)
        try reader.expectEnd()
    }

    @Test("Octet string lengths match liblber's", arguments: [0, 1, 127, 128, 255, 256, 65535, 65536, 300_000])
    func lengthMatchesLiblber(length: Int) throws {
        let contents = [CChar](repeating: 0x61, count: length)
        let expected = try liblberEncoding { ber in
            contents.withUnsafeBufferPointer { ber_put_ostring(ber, $0.baseAddress, ber_len_t(length), ber_tag_t(0x04)) }
        }
        var writer = BERWriter()
        writer.writeOctetString([UInt8](repeating: 0x61, count: length))
        #expect(writer.bytes == expected)
    }

    @Test("Long-form lengths with leading zero octets are accepted", arguments: [
        [0x04, 0x81, 0x03, 0x61, 0x62, 0x63],
        [0x04, 0x82, 0x00, 0x03, 0x61, 0x62, 0x63],
        [0x04, 0x84, 0x00, 0x00, 0x00, 0x03, 0x61, 0x62, 0x63],
        [0x04, 0x88, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x61, 0x62, 0x63],
        [0x04, 0x8A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x61, 0x62, 0x63],
    ] as [[UInt8]])
    func nonMinimalLength(encoding: [UInt8]) throws {
        var reader = BERReader(encoding)
        #expect(try reader.readString() == "abc")
        try reader.expectEnd()
    }

    @Test("Constructed elements get their length filled in, in long form when needed")
    func constructedLengths() throws {
        var writer = BERWriter()
        writer.writeSequence { outer in
            outer.writeSet { inner in
                inner.writeOctetString([UInt8](repeating: 7, count: 200))
            }
            outer.writeInteger(1)
        }
        // SET: 0x31 0x81 0xCB (200 + 3 octets); SEQUENCE: 206 + 3 octets of contents.
        #expect(Array(writer.bytes.prefix(6)) == [0x30, 0x81, 0xD1, 0x31, 0x81, 0xCB])
        #expect(writer.bytes.count == 3 + 0xD1)

        var reader = BERReader(writer.bytes)
        var sequence = try reader.readSequence()
        var set = try sequence.readSet()
        #expect(try set.readOctetString() == [UInt8](repeating: 7, count: 200))
        try set.expectEnd()
        #expect(try sequence.readInteger() == 1)
        try sequence.expectEnd()
        try reader.expectEnd()
    }

    @Test("A nested structure matches liblber's encoding byte for byte")
    func nestedStructureMatchesLiblber() throws {
        let long = [CChar](repeating: 0x78, count: 1000)
        let expected = try liblberEncoding { ber in
            guard ber_start_seq(ber, ber_tag_t(0x30)) != -1,
                  ber_put_int(ber, 42, ber_tag_t(0x02)) != -1,
                  ber_start_set(ber, ber_tag_t(0xA3)) != -1,
                  ber_put_ostring(ber, "cn", 2, ber_tag_t(0x04)) != -1,
                  long.withUnsafeBufferPointer({ ber_put_ostring(ber, $0.baseAddress, 1000, ber_tag_t(0x81)) }) != -1,
                  ber_put_set(ber) != -1,
                  ber_put_boolean(ber, 1, ber_tag_t(0x01)) != -1
            else { return -1 }
            return ber_put_seq(ber)
        }

        var writer = BERWriter()
        writer.writeSequence { sequence in
            sequence.writeInteger(42)
            sequence.writeConstructed(.contextSpecific(3, constructed: true)) { set in
                set.writeOctetString("cn")
                set.writeOctetString([UInt8](repeating: 0x78, count: 1000), tag: .contextSpecific(1))
            }
            sequence.writeBoolean(true)
        }
        #expect(writer.bytes == expected)
    }

    @Test("Application and context-specific tags are built from their numbers")
    func tags() {
        #expect(BERTag.application(4, constructed: true).rawValue == 0x64)
        #expect(BERTag.application(2).rawValue == 0x42)
        #expect(BERTag.contextSpecific(0, constructed: true).rawValue == 0xA0)
        #expect(BERTag.contextSpecific(7).rawValue == 0x87)
        #expect(BERTag.sequence.isConstructed)
        #expect(!BERTag.octetString.isConstructed)
        #expect(BERTag.enumerated.description == "0x0A")
        #expect(BERTag.set.description == "0x31")
    }

    @Test("A multi-megabyte value round-trips byte for byte")
    func largeValue() throws {
        var generator = SeededRandom(seed: 7)
        let photo = (0..<5_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var writer = BERWriter()
        writer.writeSequence { $0.writeOctetString(photo) }
        #expect(Array(writer.bytes.prefix(5)) == [0x30, 0x83, 0x4C, 0x4B, 0x45])

        var reader = BERReader(writer.bytes)
        var sequence = try reader.readSequence()
        #expect(try sequence.readOctetString() == photo)
        try sequence.expectEnd()
    }

    @Test("A reader over a slice reads only that slice")
    func sliceReader() throws {
        let bytes: [UInt8] = [0xFF, 0x02, 0x01, 0x09, 0xFF]
        var reader = BERReader(bytes[1..<4])
        #expect(reader.nextTag == .integer)
        #expect(try reader.readInteger() == 9)
        #expect(reader.isAtEnd)
        #expect(reader.nextTag == nil)
    }

    @Test("UTF-8 strings round-trip")
    func strings() throws {
        var writer = BERWriter()
        writer.writeOctetString("Zoë Ångström ✓")
        var reader = BERReader(writer.bytes)
        #expect(try reader.readString() == "Zoë Ångström ✓")
    }

    // MARK: Malformed input

    @Test("Malformed input throws a decoding error", arguments: [
        ("empty input", []),
        ("tag only", [0x02]),
        ("truncated contents", [0x04, 0x05, 0x61, 0x62]),
        ("long-form length past the end", [0x04, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]),
        ("truncated long-form length", [0x04, 0x82, 0x01]),
        ("length larger than memory", [0x04, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ("length overflowing Int", [0x04, 0x89, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        ("reserved length octet", [0x04, 0xFF, 0x00]),
        ("multi-octet tag", [0x1F, 0x81, 0x00, 0x00]),
        ("wrong tag", [0x04, 0x01, 0x05]),
    ] as [(String, [UInt8])])
    func malformedInteger(_ problem: String, bytes: [UInt8]) {
        var reader = BERReader(bytes)
        let error = #expect(throws: LDAPError.self, "\(problem)") { try reader.readInteger() }
        #expect(error?.code == .decodingError)
    }

    @Test("Integers must have between one and eight octets", arguments: [
        [0x02, 0x00],
        [0x02, 0x09, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    ] as [[UInt8]])
    func integerSize(bytes: [UInt8]) {
        var reader = BERReader(bytes)
        #expect(throws: LDAPError.self) { try reader.readInteger() }
    }

    @Test("Booleans must have exactly one octet", arguments: [
        [0x01, 0x00],
        [0x01, 0x02, 0xFF, 0xFF],
    ] as [[UInt8]])
    func booleanSize(bytes: [UInt8]) {
        var reader = BERReader(bytes)
        #expect(throws: LDAPError.self) { try reader.readBoolean() }
    }

    @Test("Indefinite lengths are rejected")
    func indefiniteLength() {
        var reader = BERReader([0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00])
        let error = #expect(throws: LDAPError.self) { try reader.readSequence() }
        #expect(error?.message.contains("indefinite") == true)
    }

    @Test("Trailing bytes are reported")
    func trailingBytes() throws {
        var reader = BERReader([0x02, 0x01, 0x01, 0x00])
        _ = try reader.readInteger()
        #expect(throws: LDAPError.self) { try reader.expectEnd() }
    }

    @Test("Strings that are not UTF-8 are rejected")
    func invalidUTF8() {
        var reader = BERReader([0x04, 0x02, 0xC3, 0x28])
        #expect(throws: LDAPError.self) { try reader.readString() }
    }

    @Test("A constructed element is not read as a primitive one, nor the reverse")
    func constructedMismatch() {
        var sequence = BERReader([0x30, 0x00])
        #expect(throws: LDAPError.self) { try sequence.readOctetString() }
        var string = BERReader([0x04, 0x00])
        #expect(throws: LDAPError.self) { try string.readSequence() }
    }

    @Test("Nesting is limited to the maximum depth")
    func nestingDepth() throws {
        func nested(_ levels: Int) -> [UInt8] {
            var writer = BERWriter()
            func write(_ remaining: Int, into writer: inout BERWriter) {
                guard remaining > 0 else { return writer.writeInteger(1) }
                writer.writeSequence { write(remaining - 1, into: &$0) }
            }
            write(levels, into: &writer)
            return writer.bytes
        }
        func descend(_ reader: inout BERReader) throws -> Int {
            guard reader.nextTag == .sequence else { return try reader.readInteger() }
            var inner = try reader.readSequence()
            return try descend(&inner)
        }

        var allowed = BERReader(nested(BERReader.maximumDepth))
        #expect(try descend(&allowed) == 1)

        var tooDeep = BERReader(nested(BERReader.maximumDepth + 1))
        let error = #expect(throws: LDAPError.self) { try descend(&tooDeep) }
        #expect(error?.message.contains("nested") == true)

        var hostile = BERReader(nested(1000))
        #expect(throws: LDAPError.self) { try descend(&hostile) }
    }

    @Test("Random and mutated bytes only ever throw or decode")
    func fuzz() throws {
        var generator = SeededRandom(seed: 0x1DA9_B00C)
        var valid = BERWriter()
        valid.writeConstructed(.application(4, constructed: true)) { entry in
            entry.writeOctetString("cn=Ada,dc=example")
            entry.writeSequence { attributes in
                attributes.writeSequence { attribute in
                    attribute.writeOctetString("cn")
                    attribute.writeSet { $0.writeOctetString("Ada"); $0.writeOctetString("A") }
                }
            }
        }
        var outcomes = (decoded: 0, rejected: 0)
        let iterations = 20_000
        for iteration in 0..<iterations {
            var bytes: [UInt8]
            if iteration.isMultiple(of: 2) {
                bytes = (0..<Int.random(in: 0...48, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = valid.bytes
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                bytes.removeLast(Int.random(in: 0...3, using: &generator))
            }
            do {
                var reader = BERReader(bytes)
                try walk(&reader)
                _ = try? PagedResultsResponse(controlValue: bytes)
                _ = try? LDAPEntry(searchResultEntry: bytes)
                outcomes.decoded += 1
            } catch let error as LDAPError {
                #expect(error.code == .decodingError)
                outcomes.rejected += 1
            }
        }
        #expect(outcomes.decoded + outcomes.rejected == iterations)
        #expect(outcomes.decoded > 0)
        #expect(outcomes.rejected > 0)
    }

    /// Reads every element, descending into constructed ones and reading
    /// primitive ones as the type their tag names.
    private func walk(_ reader: inout BERReader) throws {
        while let tag = reader.nextTag {
            if tag.isConstructed {
                var inner = try reader.readConstructed(tag)
                try walk(&inner)
            } else if tag == .integer {
                _ = try reader.readInteger()
            } else if tag == .boolean {
                _ = try reader.readBoolean()
            } else if tag == .enumerated {
                _ = try reader.readEnumerated()
            } else {
                _ = try reader.readElement()
            }
        }
    }
}

// MARK: - Test support

/// Encodes with liblber in DER mode and returns the bytes.
private func liblberEncoding(_ encode: (OpaquePointer) -> Int32) throws -> [UInt8] {
    let ber = try #require(ber_alloc_t(LBER_USE_DER))
    defer { ber_free(ber, 1) }
    try #require(encode(ber) != -1)
    var flattened = berval()
    try #require(ber_flatten2(ber, &flattened, 0) == 0)
    return Array(UnsafeRawBufferPointer(start: flattened.bv_val, count: Int(flattened.bv_len)))
}

/// Decodes an INTEGER with liblber.
private func liblberDecodeInteger(_ bytes: [UInt8]) throws -> Int {
    var copy = bytes.map { CChar(bitPattern: $0) }
    return try copy.withUnsafeMutableBufferPointer { buffer in
        var input = berval(bv_len: ber_len_t(buffer.count), bv_val: buffer.baseAddress)
        let ber = try #require(ber_init(&input))
        defer { ber_free(ber, 1) }
        var number: ber_int_t = 0
        try #require(ber_get_int(ber, &number) == ber_tag_t(0x02))
        return Int(number)
    }
}
