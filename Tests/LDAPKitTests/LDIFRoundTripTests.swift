import LDAPKit
import Testing

/// Records written by `LDIFWriter` read back equal with `LDIFReader`, for
/// generated records full of values that need care: binary data,
/// non-ASCII text, leading and trailing spaces, line breaks, long lines.
@Suite("LDIF: round trips")
struct LDIFRoundTripTests {
    @Test("Generated records read back equal", arguments: 1...20)
    func generatedRecords(seed: UInt64) throws {
        var generator = LDIFRecordGenerator(seed: seed)
        let records = (0..<25).map { _ in generator.record() }
        let written = records.reduce(LDIFWriter.versionLine) { $0 + LDIFWriter.write($1) }
        #expect(try LDIFReader(bytes: written).records() == records)
        for record in records {
            #expect(try LDIFReader(bytes: LDIFWriter.write(record)).records() == [record])
        }
    }

    @Test("Written LDIF is printable ASCII in lines of at most 76 bytes", arguments: 1...5)
    func writtenLines(seed: UInt64) {
        var generator = LDIFRecordGenerator(seed: seed)
        for _ in 0..<25 {
            let written = LDIFWriter.write(generator.record())
            for line in written.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                #expect(line.count <= 76)
                #expect(line.allSatisfy { (0x20...0x7E).contains($0) })
            }
        }
    }

    @Test("Written with CRLF line endings, records read back equal", arguments: 1...5)
    func crlf(seed: UInt64) throws {
        var generator = LDIFRecordGenerator(seed: seed)
        let records = (0..<25).map { _ in generator.record() }
        let written = records.flatMap(LDIFWriter.write)
        let crlf = written.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
        #expect(try LDIFReader(bytes: crlf).records() == records)
    }
}

/// Makes random records, the same for the same seed.
struct LDIFRecordGenerator {
    private var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private static let attributeNames = [
        "cn", "sn", "description", "mail", "telephoneNumber", "jpegPhoto", "userCertificate;binary",
        "cn;lang-de", "ou;lang-ja;phonetic", "2.5.4.13", "x-custom-Field", "labeledURI",
    ]
    private static let rdnTypes = ["cn", "ou", "dc", "uid", "2.5.4.3", "o"]
    private static let textPieces = [
        "Ada", "Lovelace", " ", "  ", ":", "<", "#", ",", "+", "=", "\\", "\"", "-", "é", "Zoë", "Ångström",
        "営業部", "😀", "\t", "\r", "\n", "\r\n", "\0", "\u{7F}", "a b c", "x", "1234",
    ]

    /// A record of any kind.
    mutating func record() -> LDIFRecord {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: .content(entry())
        case 2: .add(entry(), controls: controls())
        case 3: .delete(dn(), controls: controls())
        case 4: .modify(dn(), modifications(), controls: controls())
        default:
            .rename(dn(), newRDN: rdn(), deleteOldRDN: Bool.random(using: &random),
                    newSuperior: Bool.random(using: &random) ? dn() : nil, controls: controls())
        }
    }

    /// An entry with 1 to 8 attributes of 1 to 4 values each.
    mutating func entry() -> LDAPEntry {
        let names = Self.attributeNames.shuffled(using: &random).prefix(Int.random(in: 1...8, using: &random))
        let attributes = names.map { name in
            LDAPAttribute(name: name, values: (0..<Int.random(in: 1...4, using: &random)).map { _ in value() })
        }
        return LDAPEntry(dn: dn(), attributes: attributes)
    }

    /// A DN of 1 to 4 RDNs.
    mutating func dn() -> DistinguishedName {
        DistinguishedName(rdns: (0..<Int.random(in: 1...4, using: &random)).map { _ in rdn() })
    }

    /// An RDN of one pair, sometimes two.
    mutating func rdn() -> RelativeDistinguishedName {
        let types = Self.rdnTypes.shuffled(using: &random).prefix(Int.random(in: 0..<5, using: &random) == 0 ? 2 : 1)
        return RelativeDistinguishedName(attributes: types.map { type in
            var value = value()
            if value.isEmpty { value = "x" }
            return AttributeTypeAndValue(type: type, value: value)
        })
    }

    /// A value: text made of awkward pieces, random bytes, a long line, or nothing.
    mutating func value() -> LDAPValue {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return LDAPValue(bytes: (0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 1:
            let length = Int.random(in: 70...2_000, using: &random)
            return LDAPValue(String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &random))) }))
        case 2:
            return LDAPValue("")
        default:
            let pieces = (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.textPieces.randomElement(using: &random)! }
            return LDAPValue(pieces.joined())
        }
    }

    /// Modifications of every operation, with 0 to 3 values each.
    mutating func modifications() -> [LDAPModification] {
        let operations: [LDAPModification.Operation] = [.add, .delete, .replace, .increment]
        return (0..<Int.random(in: 0...5, using: &random)).map { _ in
            LDAPModification(
                operations.randomElement(using: &random)!,
                Self.attributeNames.randomElement(using: &random)!,
                values: (0..<Int.random(in: 0...3, using: &random)).map { _ in value() }
            )
        }
    }

    /// Up to two controls, with and without values.
    mutating func controls() -> [LDAPControl] {
        (0..<Int.random(in: 0...2, using: &random)).map { _ in
            let oid = (0..<Int.random(in: 2...9, using: &random)).map { _ in String(Int.random(in: 0...200_000, using: &random)) }
            return LDAPControl(
                oid: oid.joined(separator: "."),
                isCritical: Bool.random(using: &random),
                value: Bool.random(using: &random) ? value().bytes : nil
            )
        }
    }
}
