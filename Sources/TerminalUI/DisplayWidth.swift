/// How many terminal columns text occupies: a small `wcwidth(3)` in Swift, so that widths do
/// not depend on the C library's locale.
enum DisplayWidth {
    /// The columns one scalar occupies: 0 for combining marks and other zero-width characters,
    /// 2 for East Asian wide and fullwidth characters and for emoji shown as pictures, 1 otherwise.
    ///
    /// Control characters count as 0; text is sanitised before it is measured, so none remain.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value == 0x00AD { return 1 }                                   // soft hyphen, shown
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 } // Hangul medial/final jamo, ZWSP
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(value) ? 2 : 1
    }

    /// The columns one grapheme cluster occupies: the sum of its scalars' widths, at most 2
    /// (an emoji sequence joined with U+200D, or a flag, is drawn as one picture).
    static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            width += of(scalar)
        }
        return min(width, 2)
    }

    /// The columns `text` occupies.
    static func of<Text: StringProtocol>(_ text: Text) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns of `text` when it is written in the scripts most names are (Latin with its
    /// accents and combining marks, CJK ideographs, kana, Hangul syllables), which need no
    /// sanitising and take their columns scalar by scalar, no grapheme of them more than two:
    /// told without breaking the text into characters, which a table of thousands of names
    /// otherwise spends much of its time on. `nil` for any other text.
    static func ofCommonScripts(_ text: String) -> Int? {
        var width = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20...0x7E, 0xA0...0x2FF: width += 1
            case 0x300...0x36F: break
            case 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3: width += 2
            default: return nil
            }
        }
        return width
    }

    /// Ranges of East Asian Width `W` and `F` (Unicode 15) outside the emoji, which
    /// `isEmojiPresentation` covers.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
