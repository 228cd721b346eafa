import LDAPKit

/// What the local index keeps of a person, in a few bytes: the values of the attributes it
/// holds (``attributes``), each as a one-byte attribute number, its length and its bytes, and
/// the Latin transliteration of a value in another script (``Transliteration``) after it, so
/// that a lookup asks ICU nothing. Never a secret, a photo, or any other attribute.
///
/// A `cn` that is the given name and surname joined by a space, as most are, is kept as a
/// mark of one byte rather than spelt out again.
struct PersonRecord: Sendable {
    /// The attributes the index holds, numbered by their place here from 1: names,
    /// addresses, phones, and the details that tell namesakes apart.
    static let attributes = [
        "givenName", "sn", "cn", "displayName", LDAPBookSchemaName.nickname, "mail",
        "telephoneNumber", "mobile", "homePhone", "pager", "title", "ou", "o",
    ]

    /// The number of the mark that follows a value with its transliteration.
    private static let transliterationMark: UInt8 = 0x40
    /// The number of the mark that stands for `cn: <givenName> <sn>`.
    private static let joinedNameMark: UInt8 = 0x41

    /// Whether the index holds `attribute` (an attribute type, in any case; options such as
    /// `;lang-ja` are held under their type).
    static func holds(_ attribute: String) -> Bool { number(of: attribute) != nil }

    /// The record's bytes.
    var bytes: [UInt8] = []

    /// What the record holds, as ``values()`` gives it back, when the record was made from
    /// an entry (the keys of a person are worked out from it, as they are again when the
    /// person is taken out); empty for a record read back.
    private(set) var held: [[LDAPValue]] = []

    /// The record of `entry`'s attributes the index holds.
    init(entry: LDAPEntry) {
        var given: LDAPValue?, surname: LDAPValue?
        var commonNames: [LDAPValue] = []
        held = [[LDAPValue]](repeating: [], count: Self.attributes.count)
        for attribute in entry.attributes {
            guard let number = Self.number(of: attribute.name) else { continue }
            for value in attribute.values where !value.isEmpty {
                held[Int(number) - 1].append(value)
                switch number {
                case 1 where given == nil: given = value
                case 2 where surname == nil: surname = value
                case 3:
                    commonNames.append(value)
                    continue
                default: break
                }
                append(number, value)
            }
        }
        // The common names last, in their order, once the names they may join are known.
        for value in commonNames {
            if let given, let surname, Self.joins(value, given, surname) {
                bytes.append(Self.joinedNameMark)
            } else {
                append(3, value)
            }
        }
    }

    /// Whether `value` is `given`, a space and `surname`.
    static func joins(_ value: LDAPValue, _ given: LDAPValue, _ surname: LDAPValue) -> Bool {
        let (whole, first, last) = (value.byteSlice, given.byteSlice, surname.byteSlice)
        guard whole.count == first.count + 1 + last.count else { return false }
        let space = whole.startIndex + first.count
        return whole[space] == UInt8(ascii: " ") && whole[..<space].elementsEqual(first) && whole[(space + 1)...].elementsEqual(last)
    }

    /// A record read back from the index.
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func append(_ number: UInt8, _ value: LDAPValue) {
        appendValue(number, value.byteSlice)
        // Names in another script carry their Latin letters.
        if number <= 5, value.byteSlice.contains(where: { $0 >= 0x80 }), let text = value.string,
           let latin = Transliteration.latin(of: text) {
            appendValue(Self.transliterationMark, Array(latin.utf8)[...])
        }
    }

    private mutating func appendValue(_ number: UInt8, _ value: ArraySlice<UInt8>) {
        bytes.append(number)
        var length = value.count
        // The length in seven-bit groups, the low ones first (LEB128).
        while length >= 0x80 {
            bytes.append(UInt8(length & 0x7F) | 0x80)
            length >>= 7
        }
        bytes.append(UInt8(length))
        bytes += value
    }

    private static func entry(dn: DistinguishedName, values: [[LDAPValue]]) -> LDAPEntry {
        var entry = LDAPEntry(dn: dn)
        for (number, found) in values.enumerated() where !found.isEmpty {
            entry.attributes.append(LDAPAttribute(name: attributes[number], values: found))
        }
        return entry
    }

    /// The entry the record holds, at `dn`, its attributes in ``attributes``'s order; the
    /// transliterations are handed to ``Transliteration`` instead.
    func entry(dn: DistinguishedName) -> LDAPEntry {
        Self.entry(dn: dn, values: values())
    }

    /// The values the record holds, by attribute: those of attribute number `n` (its place
    /// in ``attributes``, from 1) at `n - 1`. The transliterations are handed to
    /// ``Transliteration``.
    func values() -> [[LDAPValue]] {
        var values = [[LDAPValue]](repeating: [], count: Self.attributes.count)
        var index = 0
        var last: LDAPValue?
        // The Latin letters of the first given name and surname, when they have them.
        var givenLatin: String?, surnameLatin: String?
        while index < bytes.count {
            let number = bytes[index]
            index += 1
            if number == Self.joinedNameMark {
                // The common names come last, after the given name and surname they join.
                if let given = values[0].first, let surname = values[1].first {
                    let joined = LDAPValue(bytes: given.byteSlice + [UInt8(ascii: " ")] + surname.byteSlice)
                    values[2].append(joined)
                    // Its Latin letters are theirs, so that a lookup asks ICU nothing of it.
                    if givenLatin != nil || surnameLatin != nil, let text = joined.string,
                       let givenText = given.string, let surnameText = surname.string {
                        Transliteration.remember(text, latin: (givenLatin ?? givenText) + " " + (surnameLatin ?? surnameText))
                    }
                }
                continue
            }
            var length = 0, shift = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            // A length beyond the record (cut short, or damaged: past Int's bits) takes the rest.
            let end = length >= 0 && length <= bytes.count - index ? index + length : bytes.count
            let value = LDAPValue(bytes: bytes[index..<end])
            index = end
            if number == Self.transliterationMark {
                if let text = last?.string {
                    Transliteration.remember(text, latin: value.string)
                    if let last, last == values[0].first { givenLatin = value.string }
                    if let last, last == values[1].first { surnameLatin = value.string }
                }
                continue
            }
            guard number >= 1 && Int(number) <= Self.attributes.count else { continue }
            values[Int(number) - 1].append(value)
            last = value
        }
        return values
    }

    /// The attribute number of `name` (its type, options dropped), or `nil`.
    private static func number(of name: String) -> UInt8? {
        // Every attribute of every entry read comes through here, entryUUID and the others
        // the index does not hold among them: compared as bytes, ASCII case folded, with no
        // string made (making the type without its options and comparing it with each of
        // ours cost more than the rest of a record).
        var name = name
        return name.withUTF8 { bytes -> UInt8? in
            let length = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            for (index, attribute) in loweredAttributes.enumerated() where attribute.count == length {
                var same = true
                for offset in 0..<length {
                    let byte = bytes[offset]
                    if (byte &- 0x41 < 26 ? byte | 0x20 : byte) != attribute[offset] {
                        same = false
                        break
                    }
                }
                if same { return UInt8(index + 1) }
            }
            return nil
        }
    }

    /// ``attributes`` in lower case, as UTF-8.
    private static let loweredAttributes = attributes.map { Array($0.lowercased().utf8) }
}
