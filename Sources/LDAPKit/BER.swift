/// The identifier octet of a BER element: its class, whether it is
/// constructed, and its tag number.
///
/// LDAP (RFC 4511 section 5.1) only uses tag numbers below 31, so every tag
/// fits in a single octet.
struct BERTag: Hashable, Sendable {
    /// The identifier octet as it appears on the wire.
    var rawValue: UInt8

    /// Creates a tag from its identifier octet.
    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Universal BOOLEAN.
    static let boolean = BERTag(rawValue: 0x01)
    /// Universal INTEGER.
    static let integer = BERTag(rawValue: 0x02)
    /// Universal OCTET STRING, always primitive in LDAP.
    static let octetString = BERTag(rawValue: 0x04)
    /// Universal ENUMERATED.
    static let enumerated = BERTag(rawValue: 0x0A)
    /// Universal SEQUENCE and SEQUENCE OF (always constructed).
    static let sequence = BERTag(rawValue: 0x30)
    /// Universal SET and SET OF (always constructed).
    static let set = BERTag(rawValue: 0x31)

    /// A context-specific tag `[number]`, as used inside CHOICE and SEQUENCE types.
    ///
    /// - Precondition: `number` is below 31.
    static func contextSpecific(_ number: UInt8, constructed: Bool = false) -> BERTag {
        BERTag(class: 0x80, number: number, constructed: constructed)
    }

    /// An application tag `[APPLICATION number]`, as used for LDAP protocol operations.
    ///
    /// - Precondition: `number` is below 31.
    static func application(_ number: UInt8, constructed: Bool = false) -> BERTag {
        BERTag(class: 0x40, number: number, constructed: constructed)
    }

    private init(class classBits: UInt8, number: UInt8, constructed: Bool) {
        precondition(number < 0x1F, "LDAP uses only single-octet tags")
        self.rawValue = classBits | (constructed ? 0x20 : 0) | number
    }

    /// Whether the element's contents are other elements rather than raw octets.
    var isConstructed: Bool { rawValue & 0x20 != 0 }
}

extension BERTag: CustomStringConvertible {
    /// The identifier octet in hexadecimal, such as `0x30`.
    var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return rawValue < 0x10 ? "0x0\(hex)" : "0x\(hex)"
    }
}

// MARK: - Writing

/// Builds the BER encoding of LDAP values, always with definite lengths in
/// their shortest form.
///
/// Constructed elements are written with a closure that writes their
/// contents, so nesting in code mirrors nesting in the encoding:
///
///     var writer = BERWriter()
///     writer.writeSequence { sequence in
///         sequence.writeInteger(100)
///         sequence.writeOctetString(cookie)
///     }
struct BERWriter {
    /// The encoding written so far.
    private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    init() {}

    /// Writes a BOOLEAN; `true` is encoded as `0xFF`, as X.690 requires of DER and LDAP prefers.
    mutating func writeBoolean(_ value: Bool, tag: BERTag = .boolean) {
        writePrimitive(tag, contents: [value ? 0xFF : 0x00])
    }

    /// Writes an INTEGER in the fewest two's-complement octets.
    mutating func writeInteger(_ value: Int, tag: BERTag = .integer) {
        writePrimitive(tag, contents: Self.integerContents(of: value))
    }

    /// Writes an ENUMERATED value, encoded like an INTEGER.
    mutating func writeEnumerated(_ value: Int, tag: BERTag = .enumerated) {
        writeInteger(value, tag: tag)
    }

    /// Writes an OCTET STRING holding `value` exactly.
    mutating func writeOctetString(_ value: some Collection<UInt8>, tag: BERTag = .octetString) {
        writePrimitive(tag, contents: value)
    }

    /// Writes an OCTET STRING holding the UTF-8 encoding of `value`, as LDAP encodes an `LDAPString`.
    mutating func writeOctetString(_ value: String, tag: BERTag = .octetString) {
        writePrimitive(tag, contents: value.utf8)
    }

    /// Writes a SEQUENCE whose elements are written by `writeContents`.
    mutating func writeSequence(_ writeContents: (inout BERWriter) throws -> Void) rethrows {
        try writeConstructed(.sequence, writeContents)
    }

    /// Writes a SET whose elements are written by `writeContents`.
    mutating func writeSet(_ writeContents: (inout BERWriter) throws -> Void) rethrows {
        try writeConstructed(.set, writeContents)
    }

    /// Writes a constructed element tagged `tag` whose elements are written by `writeContents`.
    ///
    /// The contents are written in place and the length is filled in
    /// afterwards, so large nested values are not copied once per level.
    mutating func writeConstructed(_ tag: BERTag, _ writeContents: (inout BERWriter) throws -> Void) rethrows {
        bytes.append(tag.rawValue)
        let lengthPosition = bytes.count
        bytes.append(0)
        let contentsStart = bytes.count
        try writeContents(&self)
        let length = Self.lengthOctets(of: bytes.count - contentsStart)
        bytes.replaceSubrange(lengthPosition..<contentsStart, with: length)
    }

    private mutating func writePrimitive(_ tag: BERTag, contents: some Collection<UInt8>) {
        bytes.append(tag.rawValue)
        bytes.append(contentsOf: Self.lengthOctets(of: contents.count))
        bytes.append(contentsOf: contents)
    }

    /// The length octets for `length`: one octet below 128, otherwise a
    /// count octet (`0x80 | n`) followed by `n` big-endian octets.
    static func lengthOctets(of length: Int) -> [UInt8] {
        precondition(length >= 0, "a BER length cannot be negative")
        if length < 0x80 {
            return [UInt8(length)]
        }
        let octets = withUnsafeBytes(of: length.bigEndian, Array.init).drop { $0 == 0 }
        return [0x80 | UInt8(octets.count)] + octets
    }

    /// The contents octets of an INTEGER: big-endian two's complement with
    /// every redundant leading `0x00` or `0xFF` octet removed.
    static func integerContents(of value: Int) -> [UInt8] {
        var octets = withUnsafeBytes(of: value.bigEndian, Array.init)[...]
        while octets.count > 1 {
            let first = octets[octets.startIndex]
            let signOfNext = octets[octets.startIndex + 1] & 0x80
            guard (first == 0x00 && signOfNext == 0) || (first == 0xFF && signOfNext != 0) else { break }
            octets = octets.dropFirst()
        }
        return Array(octets)
    }
}

// MARK: - Reading

/// Reads BER elements from bytes received from a server.
///
/// Every read checks its bounds and throws ``LDAPError`` with the
/// ``LDAPResultCode/decodingError`` code on malformed input, so hostile bytes
/// can make decoding fail but never crash. Indefinite lengths, which LDAP
/// forbids, are rejected, and so is nesting deeper than ``maximumDepth``.
/// Reading a constructed element gives a new reader over its contents:
///
///     var reader = BERReader(value)
///     var response = try reader.readSequence()
///     let size = try response.readInteger()
///     let cookie = try response.readOctetString()
///     try response.expectEnd()
struct BERReader {
    /// How deeply constructed elements may nest; LDAP messages need far fewer levels.
    static let maximumDepth = 32

    /// The bytes not read yet.
    private var remaining: ArraySlice<UInt8>

    /// How many constructed elements enclose this reader's bytes.
    private let depth: Int

    /// Creates a reader over `bytes`.
    init(_ bytes: [UInt8]) {
        self.init(bytes[...], depth: 0)
    }

    /// Creates a reader over `bytes`, a slice of a larger buffer.
    init(_ bytes: ArraySlice<UInt8>) {
        self.init(bytes, depth: 0)
    }

    private init(_ bytes: ArraySlice<UInt8>, depth: Int) {
        self.remaining = bytes
        self.depth = depth
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { remaining.isEmpty }

    /// The tag of the next element, or `nil` at the end; nothing is consumed.
    var nextTag: BERTag? { remaining.first.map(BERTag.init(rawValue:)) }

    /// Throws unless every byte has been read, so that trailing garbage is not silently ignored.
    func expectEnd() throws {
        guard remaining.isEmpty else {
            throw Self.malformed("\(remaining.count) unexpected bytes after the last element")
        }
    }

    /// Reads the next element of any kind and returns its tag and contents octets.
    mutating func readElement() throws -> (tag: BERTag, contents: ArraySlice<UInt8>) {
        let base = remaining.startIndex
        let (tag, contents) = try remaining.withUnsafeBufferPointer { bytes throws(LDAPError) in
            try Self.element(in: bytes, at: 0, end: bytes.count)
        }
        defer { remaining = remaining[(base + contents.upperBound)...] }
        return (tag, remaining[base + contents.lowerBound ..< base + contents.upperBound])
    }

    /// The element at `offset` of `bytes`, which ends by `end`: its tag and where its
    /// contents octets are. Every BER header LDAPKit reads is read here.
    ///
    /// - Throws: `LDAPError` with code `decodingError` when no whole element starts at
    ///   `offset`, or it uses what LDAP excludes (multi-octet tags, indefinite lengths).
    static func element(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int,
                        end: Int) throws(LDAPError) -> (tag: BERTag, contents: Range<Int>) {
        guard offset < end else {
            throw malformed("expected an element but the data ended")
        }
        let identifier = bytes[offset]
        guard identifier & 0x1F != 0x1F else {
            throw malformed("multi-octet tags are not used in LDAP")
        }
        guard offset + 1 < end else {
            throw malformed("the data ended before an element's length")
        }
        let first = bytes[offset + 1]
        var start = offset + 2
        var length = Int(first)
        if first >= 0x80 {
            guard first != 0x80 else {
                throw malformed("indefinite lengths are not allowed in LDAP")
            }
            guard first != 0xFF else {
                throw malformed("the length octet 0xFF is reserved")
            }
            let count = Int(first & 0x7F)
            guard count <= end - start else {
                throw malformed("the data ended inside an element's length")
            }
            length = 0
            for octet in bytes[start ..< start + count] {
                guard length <= Int.max >> 8 else {
                    throw malformed("an element's length does not fit in memory")
                }
                length = length << 8 | Int(octet)
            }
            start += count
        }
        guard length <= end - start else {
            throw malformed("an element claims \(length) bytes but only \(end - start) remain")
        }
        return (BERTag(rawValue: identifier), start ..< start + length)
    }

    /// ``element(in:at:end:)``, which must be tagged `tag`.
    static func element(_ tag: BERTag, in bytes: UnsafeBufferPointer<UInt8>, at offset: Int,
                        end: Int) throws(LDAPError) -> Range<Int> {
        guard offset < end else {
            throw malformed("expected an element tagged \(tag) but the data ended")
        }
        let actual = BERTag(rawValue: bytes[offset])
        guard actual == tag else {
            throw malformed("expected an element tagged \(tag) but found \(actual)")
        }
        return try element(in: bytes, at: offset, end: end).contents
    }

    /// Reads the next element, which must be tagged `tag`, and returns its contents octets.
    mutating func readElement(_ tag: BERTag) throws -> ArraySlice<UInt8> {
        guard let actual = nextTag else {
            throw Self.malformed("expected an element tagged \(tag) but the data ended")
        }
        guard actual == tag else {
            throw Self.malformed("expected an element tagged \(tag) but found \(actual)")
        }
        return try readElement().contents
    }

    /// Reads a BOOLEAN; any non-zero octet is true, as BER allows.
    mutating func readBoolean(tag: BERTag = .boolean) throws -> Bool {
        let contents = try readElement(tag)
        guard contents.count == 1, let octet = contents.first else {
            throw Self.malformed("a BOOLEAN must have exactly one octet, not \(contents.count)")
        }
        return octet != 0
    }

    /// Reads an INTEGER that fits in `Int`.
    mutating func readInteger(tag: BERTag = .integer) throws -> Int {
        let contents = try readElement(tag)
        guard let first = contents.first else {
            throw Self.malformed("an INTEGER must have at least one octet")
        }
        guard contents.count <= MemoryLayout<Int>.size else {
            throw Self.malformed("an INTEGER of \(contents.count) octets is too large")
        }
        var value = first & 0x80 == 0 ? 0 : -1
        for octet in contents {
            value = value << 8 | Int(octet)
        }
        return value
    }

    /// Reads an ENUMERATED value, encoded like an INTEGER.
    mutating func readEnumerated(tag: BERTag = .enumerated) throws -> Int {
        try readInteger(tag: tag)
    }

    /// Reads an OCTET STRING and returns its bytes exactly.
    mutating func readOctetString(tag: BERTag = .octetString) throws -> [UInt8] {
        Array(try readElement(tag))
    }

    /// Reads an OCTET STRING holding UTF-8 text, as LDAP encodes an `LDAPString`.
    mutating func readString(tag: BERTag = .octetString) throws -> String {
        let contents = try readElement(tag)
        guard let string = String(validating: contents, as: UTF8.self) else {
            throw Self.malformed("an LDAPString is not valid UTF-8")
        }
        return string
    }

    /// Reads a SEQUENCE and returns a reader over its elements.
    mutating func readSequence() throws -> BERReader {
        try readConstructed(.sequence)
    }

    /// Reads a SET and returns a reader over its elements.
    mutating func readSet() throws -> BERReader {
        try readConstructed(.set)
    }

    /// Reads a constructed element tagged `tag` and returns a reader over its elements.
    mutating func readConstructed(_ tag: BERTag) throws -> BERReader {
        guard tag.isConstructed else {
            throw Self.malformed("the tag \(tag) is not constructed")
        }
        guard depth < Self.maximumDepth else {
            throw Self.malformed("elements are nested more than \(Self.maximumDepth) levels deep")
        }
        return BERReader(try readElement(tag), depth: depth + 1)
    }

    static func malformed(_ reason: String) -> LDAPError {
        LDAPError(.decodingError, message: "Malformed BER: \(reason)")
    }
}
