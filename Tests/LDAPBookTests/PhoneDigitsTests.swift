@testable import LDAPBook
import Testing

/// The digits of `text`, as text; `nil` when it has none.
private func digits(_ text: String) -> String? {
    PhoneDigits(text)?.description
}

/// Whether `typed`, as a query, matches the stored number `stored`.
private func matches(_ typed: String, _ stored: String) throws -> Bool {
    let number = try #require(PhoneDigits.typed(typed), "\(typed) is a typed number")
    return number.isMatched(by: try #require(PhoneDigits(stored)))
}

/// Whether what the index looks `typed` up by reaches a key it files `stored` under.
private func reaches(_ typed: String, _ stored: String) -> Bool {
    guard let number = PhoneDigits.typed(typed), let kept = PhoneDigits(stored) else { return false }
    let keys = kept.indexKeys
    let lookups = number.indexLookups
    return lookups.prefixes.contains { prefix in keys.contains { $0.hasPrefix(prefix) } }
        || lookups.wholeKeys.contains { keys.contains($0) }
}

@Suite("Phone numbers by their digits")
struct PhoneDigitsTests {
    @Test("the digits of a number in any format", arguments: [
        ("+44 20 7946 0001", "442079460001"), ("020 7946 0001", "02079460001"), ("020-7946-0001", "02079460001"),
        ("(020) 7946-0001", "02079460001"), ("(0)20 79460001", "02079460001"), ("+44 (0)20 7946-0001", "442079460001"),
        ("+44(0)2079460001", "442079460001"), ("0044 (0) 20 7946 0001", "00442079460001"), ("+49 (0)30 1234567", "49301234567"),
        ("tel:+1-555-0100", "15550100"), ("+1.555.0100", "15550100"), ("+1 555 0100 ext. 1234", "155501001234"),
        ("+1 555 0100 x1234", "155501001234"), ("555 0100;ext=12", "555010012"), ("0001", "0001"), ("7", "7"),
        ("٠٢٠ ٧٩٤٦ ٠٠٠١", "02079460001"), ("０２０ ７９４６ ０００１", "02079460001"), ("۰۲۰۷۹۴۶", "0207946"), ("०१२३", "0123"),
        ("(0)", "0"), ("1 (00) 2", "1002"), ("+44 (00)20", "440020"),
    ] as [(String, String)])
    func parsing(_ text: String, _ expected: String) {
        #expect(digits(text) == expected, "\(text)")
        #expect(PhoneDigits(utf8: Array(text.utf8)[...]) == PhoneDigits(text), "a stored value's bytes read alike: \(text)")
    }

    @Test("text without a decimal digit is no number; other numerals are not digits", arguments: [
        "", "ada", "+", "()", "n/a", "½", "①②③④", "²³", "Ⅳ", "万", "—",
    ])
    func noDigits(_ text: String) {
        #expect(PhoneDigits(text) == nil, "\(text)")
        #expect(PhoneDigits(utf8: Array(text.utf8)[...]) == nil, "\(text)")
    }

    @Test("a stored value that is not UTF-8 has no digits, as it has no text")
    func notUTF8() {
        #expect(PhoneDigits(utf8: [0x30, 0x31, 0xFF, 0x32, 0x33][...]) == nil)
        #expect(PhoneDigits(utf8: Array("+44 20 7946 0001".utf8)[4...])?.description == "2079460001", "a slice of a value")
    }

    @Test("the national number leaves out leading zeros: a trunk prefix, an international 00")
    func national() throws {
        #expect(try #require(PhoneDigits("020 7946 0001")).national.elementsEqual([2, 0, 7, 9, 4, 6, 0, 0, 0, 1]))
        #expect(try #require(PhoneDigits("0044 20 7946 0001")).national.elementsEqual([4, 4, 2, 0, 7, 9, 4, 6, 0, 0, 0, 1]))
        #expect(try #require(PhoneDigits("+44 20 7946 0001")).national.count == 12)
        #expect(try #require(PhoneDigits("0000")).national.isEmpty)
    }

    @Test("a query is a number when it has only what numbers are written with, and four digits or more", arguments: [
        ("+44 20 7946 0001", "442079460001"), ("0001", "0001"), ("020/7946.0001", "02079460001"), ("(020) 7946-0001", "02079460001"),
        ("+44 (0)20 7946 0001", "442079460001"), ("\t0001 ", "0001"), ("٠٠٠١", "0001"), ("12 34", "1234"),
    ] as [(String, String)])
    func typed(_ text: String, _ expected: String) {
        #expect(PhoneDigits.typed(text)?.description == expected, "\(text)")
    }

    @Test("a name, an address, a URI, an extension written out or too few digits is no typed number", arguments: [
        "123", "12 3", "+44", "ada", "ada 2024", "tel:+1-555-0100", "+1 555 0100 ext. 1234", "555 0100 x12", "a@1234.org",
        "1234#", "1234*", "+44 20 7946 0001 ☎", "", "   ", "1 (0)23",
    ])
    func notTyped(_ text: String) {
        #expect(PhoneDigits.typed(text) == nil, "\(text)")
    }

    @Test("a typed number matches a stored one that ends with it, or the same national number", arguments: [
        ("+44 20 7946 0001", "+44 20 7946 0001", true), ("+44 20 7946 0001", "020 7946 0001", true),
        ("020 7946 0001", "+44 20 7946 0001", true), ("0044 20 7946 0001", "+44 20 7946 0001", true),
        ("+44 20 7946 0001", "0044 20 7946 0001", true), ("0001", "+44 20 7946 0001", true), ("946 0001", "+44 20 7946 0001", true),
        ("+44 20 7946 0001", "+44 (0)20 7946-0001", true), ("+44 (0)20 7946 0001", "+44 20 7946 0001", true),
        ("020 7946 0001", "+44 (0)20 7946-0001", true), ("+44 (0)20 7946 0001", "020 7946 0001", true),
        ("555-0100", "tel:+1-555-0100", true), ("+1 555 0100", "tel:+1-555-0100", true), ("1234", "+1 555 0100 ext. 1234", true),
        ("+44 20 7946 0001", "7946 0001", true), ("0001", "0001", true), ("٠٠٠١", "+44 20 7946 0001", true),
        ("0002", "+44 20 7946 0001", false), ("+33 20 7946 0001", "+44 20 7946 0001", false), ("0100", "+1 555 0100 ext. 1234", false),
        ("+44 20 7946 0001", "0001", false), ("00001", "0001", false), ("7946 0002", "+44 20 7946 0001", false),
        ("020 7946 0001", "+44 21 7946 0001", false), ("+44 20 7946 0001", "46 0001", false),
    ] as [(String, String, Bool)])
    func matching(_ typed: String, _ stored: String, _ expected: Bool) throws {
        #expect(try matches(typed, stored) == expected, "\(typed) for \(stored)")
    }

    @Test("a stored number is filed under its digits reversed, and without its leading zeros")
    func indexKeys() throws {
        #expect(try #require(PhoneDigits("+44 20 7946 0001")).indexKeys == ["100064970244"])
        #expect(try #require(PhoneDigits("020 7946 0001")).indexKeys == ["10006497020", "1000649702"])
        #expect(try #require(PhoneDigits("00 44 20 7946 0001")).indexKeys == ["10006497024400", "100064970244"])
        #expect(try #require(PhoneDigits("0001")).indexKeys == ["1000"], "no key of fewer than four digits")
        #expect(try #require(PhoneDigits("+44 (0)20 7946-0001")).indexKeys == ["100064970244"])
    }

    @Test("a typed number is looked up by the prefixes and whole keys its matches are filed under")
    func indexLookups() throws {
        let whole = try #require(PhoneDigits.typed("+44 20 7946 0001")).indexLookups
        #expect(whole.prefixes == ["100064970244"])
        #expect(whole.wholeKeys == ["1000649", "10006497", "100064970", "1000649702", "10006497024"])
        let national = try #require(PhoneDigits.typed("020 7946 0001")).indexLookups
        #expect(national.prefixes == ["10006497020", "1000649702"])
        #expect(national.wholeKeys == ["1000649", "10006497", "100064970"])
        let ending = try #require(PhoneDigits.typed("0001")).indexLookups
        #expect(ending.prefixes == ["1000"] && ending.wholeKeys.isEmpty)
    }

    @Test("whatever a typed number matches, the index's lookups of it reach: no number is missed for its format")
    func lookupsReachEveryMatch() throws {
        let formats: [(String) -> String] = [
            { "+44 \($0.prefix(2)) \($0.dropFirst(2))" }, { "0\($0)" }, { "0044 \($0)" }, { "+44 (0)\($0)" }, { "00 44 (0) \($0)" },
            { "(0\($0.prefix(2))) \($0.dropFirst(2).prefix(4))-\($0.dropFirst(6))" }, { String($0.suffix(4)) },
            { String($0.suffix(7)) }, { String($0.suffix(8)) }, { "+33 \($0)" }, { "tel:+44-\($0)" }, { "\($0) ext. 0001" },
        ]
        let numbers = ["2079460001", "2079460002", "1617960000", "7700900001", "2079461001"]
        let written = numbers.flatMap { number in formats.map { $0(number) } }
        var matched = 0
        for typed in written where PhoneDigits.typed(typed) != nil {
            for stored in written {
                guard try matches(typed, stored) else { continue }
                matched += 1
                #expect(reaches(typed, stored), "\(typed) matches \(stored), and must be looked up by a key of it")
            }
        }
        #expect(matched > written.count, "the formats match each other")
    }

    @Test("numbers are equal by their digits, whatever their format")
    func equality() throws {
        #expect(PhoneDigits("020 7946 0001") == PhoneDigits("(020) 7946-0001"))
        #expect(PhoneDigits("+44 (0)20 7946 0001") == PhoneDigits("+44 20 7946 0001"))
        #expect(PhoneDigits("020 7946 0001") != PhoneDigits("+44 20 7946 0001"), "the same line, but other digits")
        #expect(Set([PhoneDigits("1234"), PhoneDigits("12-34"), PhoneDigits("1 2 3 4")]).count == 1)
    }
}
