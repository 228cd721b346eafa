import Foundation
import LDAPKit

/// Bytes as a dictionary key, hashed in one pass rather than byte by byte.
private struct ByteKey: Hashable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        compareBytes(lhs.bytes, rhs.bytes) == 0
    }
}

/// What ranking needs of a name: the fold the query is matched against
/// (``NameScore/fold(_:)``) and the lower case ties are broken on (`lowercased()`).
///
/// ASCII names are read directly. Names of ASCII and two-byte UTF-8 scalars (Latin,
/// Greek, Cyrillic, Hebrew, Arabic and more) are put together from each scalar's forms,
/// looked up in a table Unicode filled in advance; other names are asked of Unicode once
/// per distinct name.
struct NameCache {
    private var scalars = ScalarForms()
    private var known: [ByteKey: (folded: [UInt8], lowered: [UInt8])] = [:]

    /// The fold and the lower case of `name`, which is not all ASCII.
    mutating func forms(of name: UnsafeBufferPointer<UInt8>) -> (folded: [UInt8], lowered: [UInt8]) {
        if let forms = scalars.forms(of: name) { return forms }
        return formsOfOthers(name)
    }

    /// The forms of a name ``ScalarForms`` does not cover, asked of Unicode once per name.
    private mutating func formsOfOthers(_ name: UnsafeBufferPointer<UInt8>) -> (folded: [UInt8], lowered: [UInt8]) {
        let key = ByteKey(bytes: Array(name))
        if let forms = known[key] { return forms }
        let forms = Self.formsThroughUnicode(key.bytes)
        known[key] = forms
        return forms
    }

    /// Appends the fold and the lower case of `name`, which is not all ASCII, to `folded`
    /// and `lowered`: ``forms(of:)`` without making arrays for names ``ScalarForms`` covers.
    mutating func append(_ name: UnsafeBufferPointer<UInt8>, folded: inout [UInt8], lowered: inout [UInt8]) {
        if scalars.append(name, folded: &folded, lowered: &lowered) { return }
        let forms = formsOfOthers(name)
        folded += forms.folded
        lowered += forms.lowered
    }

    /// The forms as Unicode defines them, for any name.
    static func formsThroughUnicode(_ name: [UInt8]) -> (folded: [UInt8], lowered: [UInt8]) {
        (NameScore.fold(bytes: name), Array(String(decoding: name, as: UTF8.self).lowercased().utf8))
    }
}

/// The fold and lower case of names made of ASCII and two-byte UTF-8 scalars
/// (U+0080 to U+07FF), put together from the forms of each scalar alone.
///
/// That gives Unicode's answer for the whole name when no scalar's form depends on its
/// neighbours, so a scalar is used alone only when: it is not white space (which the fold
/// collapses) and its forms contain none; it and the first scalar of its decomposition
/// begin a character of their own, so that no reordering of combining marks and no
/// character crosses from one scalar to the next; and it is not, and does not decompose
/// to, a capital sigma, whose lower case depends on whether it ends a word. A name with
/// any other scalar is left to Unicode whole.
struct ScalarForms {
    /// What Unicode says of one scalar.
    enum Forms {
        case contextual
        case alone(folded: [UInt8], lowered: [UInt8])
    }

    /// What is known of one scalar: that its forms depend on its neighbours, or where
    /// its forms are in ``formBytes`` (the fold, then the lower case). Plain integers, so
    /// that reading one retains nothing.
    private struct Slot {
        static let contextual = Slot(start: 0, folded: 0, lowered: 0, isAlone: false)
        var start: UInt32
        var folded: UInt8
        var lowered: UInt8
        var isAlone: Bool
    }

    /// The scalars this covers: those UTF-8 writes in two bytes.
    static let range: ClosedRange<UInt32> = 0x80...0x7FF

    /// One slot per scalar of ``range``, and the forms of those used alone, one after
    /// the other: read from ``ScalarFormsTable`` once per process.
    private static let table: (slots: [Slot], formBytes: [UInt8]) = parse(ScalarFormsTable.text)

    /// The table's two halves, held by the instance so that reading a name does not fetch
    /// (and retain) the shared table again.
    private let slots: [Slot]
    private let formBytes: [UInt8]

    /// Forms read from the table.
    init() {
        (slots, formBytes) = Self.table
    }

    /// The fold and lower case of `name`, or `nil` when it has a scalar outside ``range``
    /// or one whose forms depend on its neighbours (or is not valid UTF-8).
    func forms(of name: UnsafeBufferPointer<UInt8>) -> (folded: [UInt8], lowered: [UInt8])? {
        var folded: [UInt8] = []
        var lowered: [UInt8] = []
        folded.reserveCapacity(name.count + 4)
        lowered.reserveCapacity(name.count + 4)
        return append(name, folded: &folded, lowered: &lowered) ? (folded, lowered) : nil
    }

    /// Appends the fold and lower case of `name` to `folded` and `lowered`, as
    /// ``forms(of:)`` makes them, and returns `true`; returns `false`, with both left as
    /// they were, when that would be `nil`.
    func append(_ name: UnsafeBufferPointer<UInt8>, folded: inout [UInt8], lowered: inout [UInt8]) -> Bool {
        let foldedStart = folded.count, loweredStart = lowered.count
        func fail() -> Bool {
            folded.removeSubrange(foldedStart...)
            lowered.removeSubrange(loweredStart...)
            return false
        }
        var pendingSpace = false
        var index = 0
        while index < name.count {
            let byte = name[index]
            if byte < 0x80 {
                lowered.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    pendingSpace = folded.count > foldedStart
                } else {
                    if pendingSpace {
                        folded.append(0x20)
                        pendingSpace = false
                    }
                    folded.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                }
                index += 1
                continue
            }
            // A two-byte sequence: 110xxxxx 10xxxxxx, at least U+0080.
            guard byte & 0xE0 == 0xC0, byte >= 0xC2, index + 1 < name.count, name[index + 1] & 0xC0 == 0x80 else {
                return fail()
            }
            let scalar = UInt32(byte & 0x1F) << 6 | UInt32(name[index + 1] & 0x3F)
            let forms = slots[Int(scalar - Self.range.lowerBound)]
            guard forms.isAlone else { return fail() }
            if pendingSpace {
                folded.append(0x20)
                pendingSpace = false
            }
            let start = Int(forms.start), middle = start + Int(forms.folded), end = middle + Int(forms.lowered)
            formBytes.withUnsafeBufferPointer { bytes in
                folded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<middle]))
                lowered.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[middle..<end]))
            }
            index += 2
        }
        return true
    }

    /// Reads the table: a line per scalar of ``range`` in order, `-` for one whose forms
    /// depend on its neighbours, else the fold and the lower case in hex, around a `:`.
    private static func parse(_ text: String) -> (slots: [Slot], formBytes: [UInt8]) {
        var slots: [Slot] = []
        var formBytes: [UInt8] = []
        slots.reserveCapacity(range.count)
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(range.count) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                slots.append(.contextual)
                continue
            }
            let start = formBytes.count
            appendHex(line[..<colon], to: &formBytes)
            let middle = formBytes.count
            appendHex(line[line.index(after: colon)...], to: &formBytes)
            slots.append(Slot(start: UInt32(start), folded: UInt8(middle - start), lowered: UInt8(formBytes.count - middle),
                              isAlone: true))
        }
        precondition(slots.count == range.count, "ScalarFormsTable.text has \(slots.count) lines, not \(range.count)")
        return (slots, formBytes)
    }

    /// Appends the bytes that the pairs of hex digits `hex` spell.
    private static func appendHex(_ hex: Substring.UTF8View.SubSequence, to bytes: inout [UInt8]) {
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(after: index)
            guard let high = hex[index].hexDigitValue, let low = hex[next].hexDigitValue else {
                preconditionFailure("ScalarFormsTable.text holds something other than hex digits")
            }
            bytes.append(high << 4 | low)
            index = hex.index(after: next)
        }
    }

    /// ``ScalarFormsTable/text`` as Unicode has it now: what the table is generated from,
    /// and checked against.
    static func tableTextFromUnicode() -> String {
        range.map { value -> String in
            switch forms(ofScalar: value) {
            case .alone(let folded, let lowered) where folded.count <= 255 && lowered.count <= 255:
                func hex(_ bytes: [UInt8]) -> String {
                    bytes.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
                }
                return hex(folded) + ":" + hex(lowered)
            default:
                return "-"
            }
        }.joined(separator: "\n")
    }

    /// Whether `scalar` begins a character of its own: it combines with nothing before it
    /// (canonical combining class 0), is no mark (which joins the character before it, so
    /// that a space followed by one is no longer white space) and no format character
    /// (some of which join the character after them).
    private static func startsCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return false
        default: return properties.canonicalCombiningClass == .notReordered && !properties.isGraphemeExtend
        }
    }

    /// The forms of one scalar, asked of Unicode.
    static func forms(ofScalar value: UInt32) -> Forms {
        guard let scalar = Unicode.Scalar(value) else { return .contextual }
        let text = String(Character(scalar))
        let decomposed = text.decomposedStringWithCompatibilityMapping.unicodeScalars
        let capitalSigma = Unicode.Scalar(0x03A3)!
        guard !scalar.properties.isWhitespace, startsCharacter(scalar),
              decomposed.first.map(startsCharacter) ?? true,
              !decomposed.contains(capitalSigma)
        else { return .contextual }
        let (folded, lowered) = NameCache.formsThroughUnicode(Array(text.utf8))
        let formsHaveWhiteSpace = (String(decoding: folded, as: UTF8.self).unicodeScalars
            + String(decoding: lowered, as: UTF8.self).unicodeScalars).contains { $0.properties.isWhitespace }
        guard !formsHaveWhiteSpace, !decomposed.contains(where: { $0.properties.isWhitespace }) else { return .contextual }
        return .alone(folded: folded, lowered: lowered)
    }
}
