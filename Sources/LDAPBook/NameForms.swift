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
/// looked up in a table Unicode filled in advance, and so are Chinese, Japanese kanji and
/// Korean names, whose scalars' forms follow rules; other names are asked of Unicode once
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

/// The fold and lower case of names made of ASCII, two-byte UTF-8 scalars (U+0080 to
/// U+07FF), CJK unified ideographs and Hangul syllables, put together from the forms of
/// each scalar alone.
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

    /// The most bytes either form takes for one byte of a name: a two-byte scalar's forms
    /// as long as the table's longest, over two; a Hangul syllable's nine bytes of jamo,
    /// over three; ASCII's one (a space the fold puts back stands for one it read).
    private static let tableMaximumExpansion = max(3, table.slots.map { (Int(max($0.folded, $0.lowered)) + 1) / 2 }.max() ?? 0)

    /// ``tableMaximumExpansion``, held by the instance as the table is.
    private let maximumExpansion: Int

    /// Forms read from the table.
    init() {
        (slots, formBytes) = Self.table
        maximumExpansion = Self.tableMaximumExpansion
    }

    /// The fold and lower case of `name`, or `nil` when it has a scalar outside ``range``
    /// (other than a unified ideograph or Hangul syllable) or one whose forms depend on its
    /// neighbours (or is not valid UTF-8).
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
    ///
    /// The forms are written to scratch space on the stack, then appended whole: appending
    /// a byte at a time checked each array's uniqueness and capacity for every byte, most of
    /// the cost of ranking a name beyond ASCII. A name whose forms might not fit the scratch
    /// space (a few hundred bytes) is left to Unicode whole.
    func append(_ name: UnsafeBufferPointer<UInt8>, folded: inout [UInt8], lowered: inout [UInt8]) -> Bool {
        let most = name.count * maximumExpansion
        guard most <= Self.scratchBytes / 2 else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.scratchBytes) { scratch in
            var forms = FormsWriter(folded: scratch.baseAddress!, lowered: scratch.baseAddress! + Self.scratchBytes / 2)
            guard write(name, to: &forms) else { return false }
            folded.append(contentsOf: UnsafeBufferPointer(start: forms.folded, count: forms.foldedCount))
            lowered.append(contentsOf: UnsafeBufferPointer(start: forms.lowered, count: forms.loweredCount))
            return true
        }
    }

    /// The scratch space of ``append(_:folded:lowered:)``, half for each form: small
    /// enough to be on the stack without asking the runtime whether it fits.
    private static let scratchBytes = 1024

    /// Where ``append(_:folded:lowered:)`` writes the two forms, and how much of each.
    private struct FormsWriter {
        let folded: UnsafeMutablePointer<UInt8>
        let lowered: UnsafeMutablePointer<UInt8>
        var foldedCount = 0
        var loweredCount = 0

        init(folded: UnsafeMutablePointer<UInt8>, lowered: UnsafeMutablePointer<UInt8>) {
            self.folded = folded
            self.lowered = lowered
        }

        mutating func fold(_ byte: UInt8) {
            folded[foldedCount] = byte
            foldedCount += 1
        }

        mutating func lower(_ byte: UInt8) {
            lowered[loweredCount] = byte
            loweredCount += 1
        }

        /// Adds the UTF-8 of `scalar`, one of U+0800...U+FFFF, to the fold.
        mutating func fold(threeByte scalar: UInt32) {
            fold(0xE0 | UInt8(scalar >> 12))
            fold(0x80 | UInt8(scalar >> 6 & 0x3F))
            fold(0x80 | UInt8(scalar & 0x3F))
        }

        /// Adds the UTF-8 of `scalar`, one of U+0800...U+FFFF, to the lower case.
        mutating func lower(threeByte scalar: UInt32) {
            lower(0xE0 | UInt8(scalar >> 12))
            lower(0x80 | UInt8(scalar >> 6 & 0x3F))
            lower(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// Writes the forms of `name` to `forms`; `false` when ``forms(of:)`` would be `nil`.
    /// Each form gets at most ``maximumExpansion`` bytes for each byte of `name`.
    private func write(_ name: UnsafeBufferPointer<UInt8>, to forms: inout FormsWriter) -> Bool {
        var pendingSpace = false
        var index = 0
        while index < name.count {
            let byte = name[index]
            if byte < 0x80 {
                forms.lower((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    pendingSpace = forms.foldedCount > 0
                } else {
                    if pendingSpace {
                        forms.fold(0x20)
                        pendingSpace = false
                    }
                    forms.fold((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                }
                index += 1
                continue
            }
            if byte & 0xF0 == 0xE0 {
                // A three-byte sequence: 1110xxxx 10xxxxxx 10xxxxxx, U+0800 to U+FFFF.
                guard index + 2 < name.count, name[index + 1] & 0xC0 == 0x80, name[index + 2] & 0xC0 == 0x80 else {
                    return false
                }
                let scalar = UInt32(byte & 0x0F) << 12 | UInt32(name[index + 1] & 0x3F) << 6 | UInt32(name[index + 2] & 0x3F)
                guard Self.writeThreeByteForms(scalar, to: &forms, pendingSpace: &pendingSpace) else { return false }
                index += 3
                continue
            }
            // A two-byte sequence: 110xxxxx 10xxxxxx, at least U+0080.
            guard byte & 0xE0 == 0xC0, byte >= 0xC2, index + 1 < name.count, name[index + 1] & 0xC0 == 0x80 else {
                return false
            }
            let scalar = UInt32(byte & 0x1F) << 6 | UInt32(name[index + 1] & 0x3F)
            let slot = slots[Int(scalar - Self.range.lowerBound)]
            guard slot.isAlone else { return false }
            if pendingSpace {
                forms.fold(0x20)
                pendingSpace = false
            }
            let start = Int(slot.start), middle = start + Int(slot.folded), end = middle + Int(slot.lowered)
            formBytes.withUnsafeBufferPointer { bytes in
                for offset in start..<middle { forms.fold(bytes[offset]) }
                for offset in middle..<end { forms.lower(bytes[offset]) }
            }
            index += 2
        }
        return true
    }

    /// The CJK unified ideographs of the Basic Multilingual Plane (the block and
    /// extension A): no case, no decomposition, each a character of its own, so each is
    /// its own fold and lower case.
    static let unifiedIdeographs: [ClosedRange<UInt32>] = [0x3400...0x4DBF, 0x4E00...0x9FFF]

    /// The precomposed Hangul syllables: no case, each a character of its own, and
    /// decomposed by Unicode's arithmetic into two or three conjoining jamo, none of which
    /// reorders, so each syllable's fold is its jamo and its lower case is itself.
    static let hangulSyllables: ClosedRange<UInt32> = 0xAC00...0xD7A3

    /// Writes the forms of the three-byte scalar `scalar` when it is a unified ideograph or
    /// a Hangul syllable, and returns `true`; returns `false` for any other scalar (and for
    /// an overlong or surrogate encoding), whose forms are Unicode's to give.
    private static func writeThreeByteForms(_ scalar: UInt32, to forms: inout FormsWriter, pendingSpace: inout Bool) -> Bool {
        let isIdeograph = unifiedIdeographs.contains { $0.contains(scalar) }
        guard isIdeograph || hangulSyllables.contains(scalar) else { return false }
        if pendingSpace {
            forms.fold(0x20)
            pendingSpace = false
        }
        forms.lower(threeByte: scalar)
        guard !isIdeograph else {
            forms.fold(threeByte: scalar)
            return true
        }
        // Unicode §3.12: L, V and (unless the index says none) T jamo.
        let syllableIndex = scalar - hangulSyllables.lowerBound
        let trailingCount: UInt32 = 28, vowelTrailingCount: UInt32 = 21 * 28
        forms.fold(threeByte: 0x1100 + syllableIndex / vowelTrailingCount)
        forms.fold(threeByte: 0x1161 + (syllableIndex % vowelTrailingCount) / trailingCount)
        if syllableIndex % trailingCount != 0 {
            forms.fold(threeByte: 0x11A7 + syllableIndex % trailingCount)
        }
        return true
    }

    /// Reads the table: a line per scalar of ``range`` in order, `-` for one whose forms
    /// depend on its neighbours, else the fold and the lower case in hex, around a `:`.
    ///
    /// Every process that ranks reads it, so it is read as plain bytes with integer
    /// offsets (splitting the string's UTF-8 view into lines costs ten times as much).
    private static func parse(_ text: String) -> (slots: [Slot], formBytes: [UInt8]) {
        var text = text
        return text.withUTF8 { bytes in
            var slots: [Slot] = []
            var formBytes: [UInt8] = []
            slots.reserveCapacity(range.count)
            formBytes.reserveCapacity(bytes.count / 2)
            var lineStart = 0
            while slots.count < range.count, lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var colon = lineStart
                while colon < lineEnd, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
                if colon == lineEnd {
                    slots.append(.contextual)
                } else {
                    let start = formBytes.count
                    appendHex(bytes, lineStart..<colon, to: &formBytes)
                    let middle = formBytes.count
                    appendHex(bytes, colon + 1..<lineEnd, to: &formBytes)
                    slots.append(Slot(start: UInt32(start), folded: UInt8(middle - start),
                                      lowered: UInt8(formBytes.count - middle), isAlone: true))
                }
                lineStart = lineEnd + 1
            }
            precondition(slots.count == range.count, "ScalarFormsTable.text has \(slots.count) lines, not \(range.count)")
            return (slots, formBytes)
        }
    }

    /// Appends the bytes that the pairs of hex digits at `offsets` of `text` spell.
    private static func appendHex(_ text: UnsafeBufferPointer<UInt8>, _ offsets: Range<Int>, to bytes: inout [UInt8]) {
        precondition(offsets.count.isMultiple(of: 2), "ScalarFormsTable.text has an odd number of hex digits")
        var index = offsets.lowerBound
        while index < offsets.upperBound {
            guard let high = text[index].hexDigitValue, let low = text[index + 1].hexDigitValue else {
                preconditionFailure("ScalarFormsTable.text holds something other than hex digits")
            }
            bytes.append(high << 4 | low)
            index += 2
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
