/// The entryUUID of an entry (RFC 4530) as the 16 bytes the index keeps and the text servers
/// write it as.
enum EntryUUID {
    /// The bytes of `text` (`597ae2f6-16a6-1027-98f4-d28b5365dc14`); for text that is no UUID
    /// (another server's identifier), its UTF-8, and when that is 16 bytes, as a UUID's are,
    /// a byte 0xFF after them (which UTF-8 never has), so that it is not read back as one.
    static func bytes(of text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return utf8.count == 16 ? utf8 + [0xFF] : utf8 }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x61...0x66: byte - 0x61 + 10
            case 0x41...0x46: byte - 0x41 + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var index = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard utf8[index] == UInt8(ascii: "-") else { return utf8 }
                index += 1
                continue
            }
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return utf8 }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The text of 16 bytes, and the UTF-8 of any other identifier (without the 0xFF after
    /// one of 16 bytes).
    static func text(of bytes: [UInt8]) -> String {
        if bytes.count == 17 && bytes.last == 0xFF { return String(decoding: bytes.dropLast(), as: UTF8.self) }
        guard bytes.count == 16 else { return String(decoding: bytes, as: UTF8.self) }
        // Every candidate of a lookup carries one: byte by byte, not string by string (a
        // tenth of `find jo`'s time at 100,000 people went to joining hex strings).
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
