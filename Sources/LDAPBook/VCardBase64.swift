import LDAPKit

/// Base64 (RFC 4648 section 4) for inline binary values: `ENCODING=b` in
/// vCard 3.0 and `data:...;base64,` URIs in vCard 4.0. Encoding is LDAPKit's ``LDAPKit/Base64``;
/// decoding is a card reader's, which allows what other writers leave (white space, missing padding).
enum VCardBase64 {
    /// Why text is not base64.
    struct Failure: Error {
        /// What is wrong, in words.
        let reason: String
    }

    private static let decoding: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// `bytes` in base64, padded with `=`, on one line.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        bytes.withUnsafeBufferPointer { Base64.encode($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes. White space (left by line folding) is
    /// skipped and the final `=` padding may be missing; anything else that
    /// is not base64 is an error.
    static func decode<Text: StringProtocol>(_ text: Text) throws(Failure) -> [UInt8] {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "="):
                padding += 1
            default:
                let value = decoding[Int(byte)]
                guard value != 0xFF else {
                    let shown = byte < 0x80 ? "\"\(Character(Unicode.Scalar(byte)))\"" : "a non-ASCII character"
                    throw Failure(reason: "\(shown) is not a base64 character")
                }
                guard padding == 0 else { throw Failure(reason: "data follows the \"=\" padding") }
                sextets.append(value)
            }
        }
        guard sextets.count % 4 != 1, padding <= 2, padding == 0 || (sextets.count + padding) % 4 == 0 else {
            throw Failure(reason: "its length is not that of base64 data (it is cut short or has extra characters)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 1 < sextets.count {
            let group = sextets[index..<min(index + 4, sextets.count)]
            let start = group.startIndex
            bytes.append(group[start] << 2 | group[start + 1] >> 4)
            if group.count > 2 { bytes.append(group[start + 1] << 4 | group[start + 2] >> 2) }
            if group.count > 3 { bytes.append(group[start + 2] << 6 | group[start + 3]) }
            index += 4
        }
        return bytes
    }
}
