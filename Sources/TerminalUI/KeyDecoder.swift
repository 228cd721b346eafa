/// Turns the bytes a terminal sends in raw mode into keys.
///
/// Feed it bytes as they arrive and take keys until it has none. A lone ESC cannot be told from
/// the start of an escape sequence until more bytes arrive or none do: while
/// `isAwaitingMore`, the reader waits a moment for the rest and, when nothing comes, calls
/// `finishPending()`.
struct KeyDecoder {
    private var buffer: [UInt8] = []
    private var position = 0

    /// Whether bytes are buffered that do not make a whole key yet.
    var isAwaitingMore: Bool { position < buffer.count }

    /// Adds bytes read from the terminal.
    mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole key, or `nil` when the buffered bytes do not make one (yet).
    mutating func next() -> Key? {
        guard position < buffer.count else { return nil }
        guard let (key, length) = decode(at: position, complete: false) else { return nil }
        position += length
        return key
    }

    /// Decodes what is buffered as if no more bytes were coming: a lone ESC becomes `.escape`,
    /// an incomplete sequence `.unrecognized`.
    mutating func finishPending() -> [Key] {
        var keys: [Key] = []
        while position < buffer.count {
            guard let (key, length) = decode(at: position, complete: true) else { break }
            position += length
            keys.append(key)
        }
        return keys
    }

    /// The key starting at `start` and how many bytes it takes; `nil` when more bytes are
    /// needed and `complete` is false.
    private func decode(at start: Int, complete: Bool) -> (Key, Int)? {
        let byte = buffer[start]
        switch byte {
        case 0x1B:
            return decodeEscape(at: start, complete: complete)
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x09:
            return (.tab, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x01...0x1A:
            return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F:
            return (.unrecognized, 1)
        case 0x20..<0x7F:
            return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            return decodeUTF8(at: start, complete: complete)
        }
    }

    private func decodeEscape(at start: Int, complete: Bool) -> (Key, Int)? {
        let available = buffer.count - start
        guard available > 1 else { return complete ? (.escape, 1) : nil }
        switch buffer[start + 1] {
        case UInt8(ascii: "["):
            return decodeControlSequence(at: start, complete: complete)
        case UInt8(ascii: "O"):
            guard available > 2 else { return complete ? (.unrecognized, 2) : nil }
            return (Self.finalKeys[buffer[start + 2]] ?? .unrecognized, 3)
        case 0x1B:
            return (.escape, 1)
        default:
            // Alt (Meta) with a key: ESC then the key. Nothing here uses Alt.
            guard let (_, length) = decode(at: start + 1, complete: complete) else { return nil }
            return (.unrecognized, 1 + length)
        }
    }

    /// `ESC [`, parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F) and a final byte
    /// (0x40–0x7E), as ECMA-48 defines a control sequence.
    private func decodeControlSequence(at start: Int, complete: Bool) -> (Key, Int)? {
        var index = start + 2
        while index < buffer.count, (0x20...0x3F).contains(buffer[index]) {
            index += 1
        }
        guard index < buffer.count else { return complete ? (.unrecognized, index - start) : nil }
        let final = buffer[index]
        let length = index - start + 1
        guard (0x40...0x7E).contains(final) else { return (.unrecognized, length - 1) }
        if final == UInt8(ascii: "~") {
            let parameters = buffer[(start + 2)..<index]
            let first = parameters.prefix { $0 != UInt8(ascii: ";") }
            let number = Int(String(decoding: first, as: UTF8.self)) ?? 0
            return (Self.tildeKeys[number] ?? .unrecognized, length)
        }
        if final == UInt8(ascii: "Z") { return (.backTab, length) }
        return (Self.finalKeys[final] ?? .unrecognized, length)
    }

    private func decodeUTF8(at start: Int, complete: Bool) -> (Key, Int)? {
        let lead = buffer[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (.unrecognized, 1)
        }
        let available = buffer.count - start
        for offset in 1..<min(length, available) where buffer[start + offset] & 0xC0 != 0x80 {
            return (.unrecognized, offset)
        }
        guard available >= length else { return complete ? (.unrecognized, available) : nil }
        let bytes = buffer[start..<(start + length)]
        guard let scalar = String(validating: bytes, as: UTF8.self)?.unicodeScalars.first,
              !(0x80...0x9F).contains(scalar.value) else {
            return (.unrecognized, length)
        }
        return (.character(Character(scalar)), length)
    }

    /// Keys named by the final byte of `ESC [ …` or `ESC O …` (xterm, VT100 application mode).
    private static let finalKeys: [UInt8: Key] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right,
        UInt8(ascii: "D"): .left, UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
    ]

    /// Keys named by the number of `ESC [ n ~` (VT220, rxvt, the Linux console).
    private static let tildeKeys: [Int: Key] = [
        1: .home, 7: .home, 4: .end, 8: .end, 3: .delete, 5: .pageUp, 6: .pageDown,
    ]
}
