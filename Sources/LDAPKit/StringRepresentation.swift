/// Pieces of the LDAP string grammars shared by distinguished names
/// (RFC 4514) and search filters (RFC 4515): the RFC 4512 rules for
/// attribute names and OIDs, UTF-8 validation, and hex escapes.
enum StringRepresentation {
    /// Whether `byte` is an ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether `byte` is a `keychar`: a letter, digit or hyphen.
    static func isKeyCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
    }

    /// The value of the hexadecimal digit `byte`, or `nil` if it is not one.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The byte written by the two hexadecimal digits at `index` and
    /// `index + 1`, or `nil` when there are not two digits there.
    static func hexPair(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt8? {
        guard index + 1 < bytes.count,
              let high = hexValue(bytes[index]),
              let low = hexValue(bytes[index + 1])
        else { return nil }
        return high << 4 | low
    }

    /// Appends `\` and the two lowercase hexadecimal digits of `byte`.
    static func appendHexEscape(_ byte: UInt8, to output: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        output.append(UInt8(ascii: "\\"))
        output.append(digits.utf8Start[Int(byte >> 4)])
        output.append(digits.utf8Start[Int(byte & 0x0F)])
    }

    /// The length of the well-formed UTF-8 sequence starting at `index`, or
    /// `nil` when the bytes there are not one (Unicode table 3-7).
    static func utf8SequenceLength(in bytes: [UInt8], at index: Int) -> Int? {
        bytes.withUnsafeBufferPointer { utf8SequenceLength(in: $0, at: index) }
    }

    /// ``utf8SequenceLength(in:at:)-([UInt8],_)`` of bytes where they are.
    static func utf8SequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            return nil
        }
        return length
    }

    /// Whether `name` is a `keystring`: a letter followed by letters,
    /// digits and hyphens (RFC 4512 section 1.4, the `descr` form).
    static func isKeyString<Bytes: Collection<UInt8>>(_ name: Bytes) -> Bool {
        guard let first = name.first, isLetter(first) else { return false }
        return name.allSatisfy(isKeyCharacter)
    }

    /// Whether `name` is a `numericoid` such as `2.5.4.3`: at least two
    /// dot-separated numbers, none with a leading zero.
    static func isNumericOID<Bytes: Collection<UInt8>>(_ name: Bytes) -> Bool {
        var numbers = 0
        var digitsInNumber = 0
        var leadingZero = false
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard digitsInNumber > 0 else { return false }
                numbers += 1
                digitsInNumber = 0
            } else if isDigit(byte) {
                if digitsInNumber == 0 {
                    leadingZero = byte == UInt8(ascii: "0")
                } else if leadingZero {
                    return false
                }
                digitsInNumber += 1
            } else {
                return false
            }
        }
        return digitsInNumber > 0 && numbers >= 1
    }

    /// Whether `name` is an `oid`: a `keystring` or a `numericoid`.
    static func isOID<Bytes: Collection<UInt8>>(_ name: Bytes) -> Bool {
        isKeyString(name) || isNumericOID(name)
    }

    /// Whether `description` is an attribute description (RFC 4512
    /// section 2.5): an `oid` followed by zero or more `;option`s, each
    /// one or more letters, digits or hyphens.
    static func isAttributeDescription(_ description: String) -> Bool {
        // Read in place: LDIF checks the name before every line it writes.
        var description = description
        return description.withUTF8 { utf8 in
            let typeEnd = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.count
            guard isOID(UnsafeBufferPointer(rebasing: utf8[..<typeEnd])) else { return false }
            var start = typeEnd
            while start < utf8.count {
                let end = utf8[(start + 1)...].firstIndex(of: UInt8(ascii: ";")) ?? utf8.count
                guard end > start + 1, utf8[(start + 1)..<end].allSatisfy(isKeyCharacter) else { return false }
                start = end
            }
            return true
        }
    }

    /// Whether `bytes` are well-formed UTF-8. `String(validating:as:)` says the same, but
    /// looks up its generic metadata on every call: 5% of a JSON export's time, where every
    /// value is checked (BENCHMARKS.md, workload 5).
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        // ASCII eight bytes at a time, as one word with no high bit set: most values are
        // ASCII, and checking a byte at a time was 4% of a JSON export's instructions
        // (callgrind, 10,000 people, BENCHMARKS.md workload 5).
        let raw = UnsafeRawBufferPointer(bytes)
        while index < bytes.count {
            if index + 8 <= bytes.count && raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
                continue
            }
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            guard let length = utf8SequenceLength(in: bytes, at: index) else { return false }
            index += length
        }
        return true
    }

    /// The number of characters before the byte at `offset`, for error
    /// messages that point into the text someone typed.
    static func characterOffset(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[..<min(offset, bytes.count)]), as: UTF8.self).count
    }

    /// How a byte is described in an error message: the character itself
    /// when it is printable ASCII, its code otherwise.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        case UInt8(ascii: " "): "a space"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    /// Appends the UTF-8 sequence that starts at `index` unchanged when it is
    /// valid, or its first byte hex-escaped when not; returns the bytes consumed.
    static func appendUTF8SequenceOrHexEscape(_ bytes: [UInt8], at index: Int, to output: inout [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { appendUTF8SequenceOrHexEscape($0, at: index, to: &output) }
    }

    /// ``appendUTF8SequenceOrHexEscape(_:at:to:)-([UInt8],_,_)`` of bytes where they are.
    static func appendUTF8SequenceOrHexEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int,
                                              to output: inout [UInt8]) -> Int {
        if let length = utf8SequenceLength(in: bytes, at: index) {
            output.append(contentsOf: bytes[index..<index + length])
            return length
        }
        appendHexEscape(bytes[index], to: &output)
        return 1
    }
}
