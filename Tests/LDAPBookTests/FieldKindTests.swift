@testable import LDAPBook
import LDAPKit
import Testing

@Suite("Field values are checked before they are written")
struct FieldKindTests {
    @Test("plausible email addresses pass", arguments: [
        "ada@example.com", "a.b-c+tag@mail.example.co.uk", "x@localhost", "o'brien@example.ie",
        "user@xn--bcher-kva.example", "1234@123.example",
    ])
    func validEmail(_ text: String) {
        #expect(FieldKind.email.violation(of: LDAPValue(text)) == nil)
    }

    @Test("implausible email addresses fail", arguments: [
        "", "ada", "ada@", "@example.com", "ada@@example.com", "ada@example..com", "ada.@example.com",
        ".ada@example.com", "ada lovelace@example.com", "ada@exa mple.com", "adä@example.com",
        "ada@bücher.example", "ada@-example.com", "ada@example.com\n", "a@b@c",
    ])
    func invalidEmail(_ text: String) {
        #expect(FieldKind.email.violation(of: LDAPValue(text)) != nil)
    }

    @Test("telephone numbers in PrintableString pass", arguments: [
        "+44 20 7946 0000", "(555) 123-4567", "+1.555.123.4567", "0049 30 1234567 ext. 12", "112",
    ])
    func validPhone(_ text: String) {
        #expect(FieldKind.phone.violation(of: LDAPValue(text)) == nil)
    }

    @Test("telephone numbers outside PrintableString or without digits fail", arguments: [
        "", "call me", "+44 20 7946 0000 ☎", "555-1234 #2", "555_1234", "+49 (0) 30 1234567!",
    ])
    func invalidPhone(_ text: String) {
        #expect(FieldKind.phone.violation(of: LDAPValue(text)) != nil)
    }

    @Test("dates are YYYY-MM-DD or --MM-DD and exist", arguments: [
        ("1815-12-10", true), ("--12-10", true), ("2000-02-29", true), ("1900-02-29", false),
        ("2024-02-29", true), ("2023-02-29", false), ("2023-04-31", false), ("2023-13-01", false),
        ("2023-00-10", false), ("2023-1-10", false), ("10.12.1815", false), ("--02-29", true),
        ("1815-12-10T00:00", false), ("", false), ("１８１５-12-10", false),
    ])
    func dates(_ text: String, _ valid: Bool) {
        #expect((FieldKind.date.violation(of: LDAPValue(text)) == nil) == valid)
    }

    @Test("URLs need a scheme and no spaces; a label may follow", arguments: [
        ("https://example.com", true), ("https://example.com/ada Ada's page", true), ("xmpp:ada@example.com", true),
        ("mailto:ada@example.com", true), ("example.com", false), ("://example.com", false), ("https:", false),
        ("ht tp://example.com", false), ("1http://example.com", false),
    ])
    func urls(_ text: String, _ valid: Bool) {
        #expect((FieldKind.url.violation(of: LDAPValue(text)) == nil) == valid)
    }

    @Test("a photo must be a JPEG")
    func photos() {
        #expect(FieldKind.photo.violation(of: LDAPValue(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])) == nil)
        #expect(FieldKind.photo.violation(of: LDAPValue(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])) != nil, "PNG")
        #expect(FieldKind.photo.violation(of: LDAPValue("GIF89a")) != nil)
        #expect(FieldKind.photo.violation(of: LDAPValue(bytes: [])) != nil)
    }

    @Test("distinguished names must parse and not be the root")
    func distinguishedNames() {
        #expect(FieldKind.distinguishedName.violation(of: "uid=ada,ou=people,dc=example,dc=com") == nil)
        #expect(FieldKind.distinguishedName.violation(of: "not a dn") != nil)
        #expect(FieldKind.distinguishedName.violation(of: "uid=ada,") != nil)
    }

    @Test("text must be non-empty UTF-8 without control characters")
    func text() {
        #expect(FieldKind.text.violation(of: "Zoë Ångström 日本") == nil)
        #expect(FieldKind.text.violation(of: "") != nil)
        #expect(FieldKind.text.violation(of: "bell\u{7}") != nil)
        #expect(FieldKind.text.violation(of: "\u{1B}[31mred") != nil, "terminal escapes")
        #expect(FieldKind.text.violation(of: LDAPValue(bytes: [0x66, 0xFF, 0x6F])) != nil, "invalid UTF-8")
    }

    @Test("integers and booleans")
    func integersAndBooleans() {
        #expect(FieldKind.integer.violation(of: "-42") == nil)
        #expect(FieldKind.integer.violation(of: "4.2") != nil)
        #expect(FieldKind.integer.violation(of: "-") != nil)
        #expect(FieldKind.boolean.violation(of: "TRUE") == nil)
        #expect(FieldKind.boolean.violation(of: "true") != nil)
    }

    @Test("kinds follow the attribute's syntax")
    func kindsFromSyntax() {
        #expect(FieldKind.forSyntax("1.3.6.1.4.1.1466.115.121.1.50", isBinary: false) == .phone)
        #expect(FieldKind.forSyntax("1.3.6.1.4.1.1466.115.121.1.12", isBinary: false) == .distinguishedName)
        #expect(FieldKind.forSyntax("1.3.6.1.4.1.1466.115.121.1.28", isBinary: true) == .photo)
        #expect(FieldKind.forSyntax("1.3.6.1.4.1.1466.115.121.1.40", isBinary: true) == .binary)
        #expect(FieldKind.forSyntax("1.3.6.1.4.1.1466.115.121.1.15", isBinary: false) == .text)
        #expect(FieldKind.forSyntax(nil, isBinary: false) == .text)
    }
}

@Suite("Generated user ids")
struct GeneratedUIDTests {
    @Test("names become readable ASCII ids", arguments: [
        ("Ada", "Lovelace", "ada.lovelace"),
        ("Zoë", "Ångström", "zoe.angstrom"),
        ("Дмитрий", "Иванов", "dmitrij.ivanov"),
        ("Łukasz", "Żółć", "lukasz.zolc"),
        ("Jean-Luc", "Picard", "jean-luc.picard"),
        ("Mary Ann", "O'Brien", "mary-ann.o-brien"),
        ("", "Ørsted", "orsted"),
        ("🙂", "🙃", "person"),
    ])
    func readableIDs(_ given: String, _ surname: String, _ expected: String) {
        #expect(GeneratedUID.base(given: given, surname: surname) == expected)
    }

    @Test("ids are bounded and unique against those taken")
    func boundedAndUnique() {
        let long = GeneratedUID.base(given: String(repeating: "a", count: 50), surname: "b")
        #expect(long.count <= GeneratedUID.maximumLength)
        #expect(GeneratedUID.firstFree("ada.lovelace", taken: []) == "ada.lovelace")
        #expect(GeneratedUID.firstFree("ada.lovelace", taken: ["ADA.Lovelace", "ada.lovelace.2"]) == "ada.lovelace.3")
    }
}
