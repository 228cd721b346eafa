/// The SHA-1 message digest (FIPS 180-4), used only to produce `{SSHA}` password hashes.
///
/// SHA-1 is no longer collision resistant, but `{SSHA}` is the salted hash that every
/// OpenLDAP build verifies without loading extra modules, which is all a private test
/// server needs.
struct SHA1 {
    /// The size of a digest, in bytes.
    static let digestSize = 20

    private static let blockSize = 64

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var pending: [UInt8] = []
    private var messageLength: UInt64 = 0

    /// Creates a digest with no input consumed yet.
    init() {
        pending.reserveCapacity(Self.blockSize)
    }

    /// Returns the digest of `bytes`.
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var digest = SHA1()
        digest.update(bytes)
        return digest.finalize()
    }

    /// Feeds more input into the digest.
    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            pending.append(byte)
            messageLength &+= 1
            if pending.count == Self.blockSize {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the input consumed so far and returns the 20-byte digest.
    consuming func finalize() -> [UInt8] {
        let bitLength = messageLength &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockSize != Self.blockSize - 8 {
            tail.append(0)
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        for start in stride(from: 0, to: tail.count, by: Self.blockSize) {
            compress(tail[start..<start + Self.blockSize])
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestSize)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Processes one 64-byte block.
    private mutating func compress<Block: Collection>(_ block: Block) where Block.Element == UInt8, Block.Index == Int {
        var schedule = [UInt32](repeating: 0, count: 80)
        let base = block.startIndex
        for index in 0..<16 {
            let offset = base + index * 4
            schedule[index] = UInt32(block[offset]) << 24
                | UInt32(block[offset + 1]) << 16
                | UInt32(block[offset + 2]) << 8
                | UInt32(block[offset + 3])
        }
        for index in 16..<80 {
            let mixed = schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16]
            schedule[index] = mixed.rotatedLeft(by: 1)
        }

        var (a, b, c, d, e) = state
        for index in 0..<80 {
            let (function, constant): (UInt32, UInt32)
            switch index {
            case 0..<20: (function, constant) = ((b & c) | (~b & d), 0x5A82_7999)
            case 20..<40: (function, constant) = (b ^ c ^ d, 0x6ED9_EBA1)
            case 40..<60: (function, constant) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
            default: (function, constant) = (b ^ c ^ d, 0xCA62_C1D6)
            }
            let temporary = a.rotatedLeft(by: 5) &+ function &+ e &+ constant &+ schedule[index]
            e = d
            d = c
            c = b.rotatedLeft(by: 30)
            b = a
            a = temporary
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}

extension UInt32 {
    /// The value with its bits rotated `count` places towards the most significant end.
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
