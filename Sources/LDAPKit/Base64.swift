/// Base64 (RFC 4648 section 4): the standard alphabet with `=` padding, on one line, as
/// LDIF (RFC 2849 note 10), vCard and JSON exports write binary values. Decoding is LDIF's:
/// nothing but the alphabet and the padding inside the text, since LDIF breaks long lines
/// only by folding.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let padding = UInt8(ascii: "=")
    private static let invalid: UInt8 = 0xFF

    /// The 6-bit value of each byte of the alphabet; ``invalid`` for the others.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Appends the base64 encoding of `value`'s bytes to `output`, padded with `=`.
    public static func encode(_ value: LDAPValue, to output: inout [UInt8]) {
        value.withUnsafeBufferPointer { encode($0, to: &output) }
    }

    /// Appends the base64 encoding of `bytes` to `output`, padded with `=`.
    ///
    /// The characters are written into room made at the end of `output` at once, rather than
    /// appended one by one: the photos of a vCard export of 100,000 people spent 9% of its
    /// time in those appends (BENCHMARKS.md, workload 5).
    public static func encode(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(padding, count: (bytes.count + 2) / 3 * 4))
        output.withUnsafeMutableBufferPointer { written in
            alphabet.withUnsafeBufferPointer { alphabet in
                var at = start
                func put(_ group: UInt32, _ count: Int) {
                    for position in 0..<count {
                        written[at + position] = alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)]
                    }
                    at += 4
                }
                var index = 0
                while index + 3 <= bytes.count {
                    put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]), 4)
                    index += 3
                }
                switch bytes.count - index {
                case 1: put(UInt32(bytes[index]) << 16, 2)
                case 2: put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, 3)
                default: break
                }
            }
        }
    }

    /// The bytes that `text` encodes, or `nil` when it is not base64: a
    /// length that is not a multiple of four, a character outside the
    /// alphabet, or padding anywhere but at the end.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        let paddingCount = text.last == padding ? (text.dropLast().last == padding ? 2 : 1) : 0
        let decodedCount = text.count / 4 * 3 - paddingCount
        var isValid = true
        let decoded = text.withUnsafeBufferPointer { input in
            decodingTable.withUnsafeBufferPointer { table in
                [UInt8](unsafeUninitializedCapacity: decodedCount) { output, initializedCount in
                    var written = 0
                    var group: UInt32 = 0
                    for index in 0..<(input.count - paddingCount) {
                        let value = table[Int(input[index])]
                        if value == invalid {
                            isValid = false
                            break
                        }
                        group = group << 6 | UInt32(value)
                        if index % 4 == 3 {
                            output[written] = UInt8(truncatingIfNeeded: group >> 16)
                            output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                            output[written + 2] = UInt8(truncatingIfNeeded: group)
                            written += 3
                            group = 0
                        }
                    }
                    if isValid, paddingCount > 0 {
                        group <<= 6 * UInt32(paddingCount)
                        output[written] = UInt8(truncatingIfNeeded: group >> 16)
                        if paddingCount == 1 { output[written + 1] = UInt8(truncatingIfNeeded: group >> 8) }
                        written += 3 - paddingCount
                    }
                    initializedCount = isValid ? written : 0
                }
            }
        }
        return isValid ? decoded : nil
    }
}
