/// A phone number as its digits, compared the way people quote numbers: in any format
/// (`+44 20 7946 0001`, `020-7946-0001`, `(0)20 79460001`, `+44 (0)20 7946 0001`), nationally
/// or internationally, or by its last digits (`0001`, an extension).
///
/// A typed number matches a stored one when the stored one ends with it (at least
/// ``minimumDigits`` digits); or, leading zeros (a trunk prefix, an international `00`) left
/// out of either, when one ends with the other and the shorter is a whole national number
/// (``nationalDigits`` or more): `+44 20 7946 0001` finds `020 7946 0001`, and `020 7946
/// 0001` finds `+44 20 7946 0001`.
public struct PhoneDigits: Sendable, Hashable, CustomStringConvertible {
    /// The digits, as written; a trunk prefix written `(0)` after a country code (`+44 (0)20`)
    /// left out, as it is when the number is dialled from abroad.
    public let digits: [UInt8]

    /// The fewest digits a typed number is matched by.
    public static let minimumDigits = 4
    /// The fewest digits, leading zeros left out, a number needs to be matched as a whole
    /// national number within a longer international one.
    public static let nationalDigits = 7

    /// The decimal digits of `text`; `nil` when it has none.
    public init?(_ text: String) {
        self.init(utf8: Array(text.utf8)[...])
    }

    /// `text` as a typed phone number: only digits and what numbers are written with (spaces,
    /// `+`, `-`, `.`, `/`, parentheses), with at least ``minimumDigits`` digits; `nil` for
    /// anything else (a name, an address).
    public static func typed(_ text: String) -> PhoneDigits? {
        var count = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal {
                count += 1
            } else if !(scalar.properties.isWhitespace || "+-./()".unicodeScalars.contains(scalar)) {
                return nil
            }
        }
        guard count >= minimumDigits, let number = PhoneDigits(text), number.digits.count >= minimumDigits else { return nil }
        return number
    }

    /// The digits without leading zeros.
    public var national: ArraySlice<UInt8> { digits.drop { $0 == 0 } }

    /// Whether `stored` matches this number as typed.
    public func isMatched(by stored: PhoneDigits) -> Bool {
        if stored.digits.count >= digits.count && stored.digits.suffix(digits.count).elementsEqual(digits) { return true }
        let typed = national, kept = stored.national
        if typed.count >= Self.nationalDigits && kept.count >= typed.count && kept.suffix(typed.count).elementsEqual(typed) {
            return true
        }
        return kept.count >= Self.nationalDigits && typed.count > kept.count && typed.suffix(kept.count).elementsEqual(kept)
    }

    /// The digits of UTF-8 `bytes` (a stored value's, read where they are); `nil` when they
    /// have none, or are not UTF-8. ASCII, as most numbers are, is read byte by byte, and only
    /// other characters are decoded and asked whether they are decimal digits (making a string
    /// of a value and reading its scalars' properties was a twentieth of the local index's
    /// making).
    init?(utf8 bytes: ArraySlice<UInt8>) {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte >= 0x80 else {
                index += 1
                // A trunk prefix written `(0)` after the digits before it is left out.
                if byte == UInt8(ascii: "("), !digits.isEmpty, bytes[index...].starts(with: [UInt8(ascii: "0"), UInt8(ascii: ")")]) {
                    index += 2
                } else if byte &- 0x30 < 10 {
                    digits.append(byte - 0x30)
                }
                continue
            }
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
            index += UTF8.width(scalar)
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue { digits.append(UInt8(value)) }
        }
        guard !digits.isEmpty else { return nil }
        self.digits = digits
    }

    /// What the local index files a stored number under: its digits reversed, so that its
    /// last digits are a prefix, and the same without leading zeros when it has any; as
    /// ASCII digits.
    var indexKeyBytes: [[UInt8]] {
        let whole = Self.reversedBytes(digits[...])
        let national = national
        guard national.count < digits.count, national.count >= Self.minimumDigits else { return [whole] }
        return [whole, Self.reversedBytes(national)]
    }

    /// ``indexKeyBytes`` as text.
    var indexKeys: [String] { indexKeyBytes.map { String(decoding: $0, as: UTF8.self) } }

    /// What a typed number is looked up by in the local index: prefixes of the stored numbers'
    /// keys (its reversed digits; without leading zeros, when that is a national number), and
    /// whole keys (its reversed national endings of ``nationalDigits`` digits and more).
    var indexLookups: (prefixes: [String], wholeKeys: [String]) {
        var prefixes = [Self.reversed(digits[...])]
        let national = national
        if national.count >= Self.nationalDigits && national.count < digits.count { prefixes.append(Self.reversed(national)) }
        var whole: [String] = []
        if national.count > Self.nationalDigits {
            for length in Self.nationalDigits..<national.count { whole.append(Self.reversed(national.suffix(length))) }
        }
        return (prefixes, whole)
    }

    private static func reversed(_ digits: ArraySlice<UInt8>) -> String {
        String(decoding: reversedBytes(digits), as: UTF8.self)
    }

    private static func reversedBytes(_ digits: ArraySlice<UInt8>) -> [UInt8] {
        digits.reversed().map { $0 + 0x30 }
    }

    /// The digits as text.
    public var description: String {
        String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)
    }
}
