@testable import LDAPBook
import Testing

/// The physical lines of written text, without their CRLFs; fails on a bare CR or LF.
private func physicalLines(_ text: String) throws -> [[UInt8]] {
    let bytes = Array(text.utf8)
    var lines: [[UInt8]] = []
    var line: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == 0x0D {
            try #require(index + 1 < bytes.count && bytes[index + 1] == 0x0A, "a CR without LF")
            lines.append(line)
            line = []
            index += 2
            continue
        }
        try #require(bytes[index] != 0x0A, "an LF without CR")
        line.append(bytes[index])
        index += 1
    }
    try #require(line.isEmpty, "the text does not end with CRLF")
    return lines
}

@Suite("Writing vCards")
struct VCardWriterTests {
    @Test("BEGIN, then VERSION, the properties in order, END; CRLF after every line")
    func layout() throws {
        let card = VCard(version: .v3, properties: [
            VCardProperty(name: "fn", text: "Ada Lovelace"),
            VCardName(familyNames: ["Lovelace"], givenNames: ["Ada"]).property,
            VCardProperty(group: "item1", name: "email", parameters: [VCardParameter("type", ["INTERNET", "PREF"])],
                          text: "ada@example.com"),
            VCardProperty(name: "VERSION", value: "4.0"),
        ])
        let text = VCardWriter.write(card)
        #expect(text == """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Ada Lovelace\r
            N:Lovelace;Ada;;;\r
            item1.EMAIL;TYPE=INTERNET,PREF:ada@example.com\r
            END:VCARD\r

            """)
        #expect(VCardWriter.write([card, card]) == text + text)
    }

    @Test("lines fold at 75 octets, never inside a UTF-8 sequence, and unfold to the same text",
          arguments: ["é", "山", "🎻", "e\u{301}", "a"])
    func folding(_ unit: String) throws {
        for prefix in ["", "x", "xy"] {
            let note = prefix + String(repeating: unit, count: 150) + " end"
            let card = VCard(properties: [VCardProperty(name: "NOTE", text: note)])
            let text = VCardWriter.write(card)
            let lines = try physicalLines(text)
            for (index, line) in lines.enumerated() {
                #expect(line.count <= 75)
                #expect(String(validating: line, as: UTF8.self) != nil, "line \(index + 1) splits a character")
            }
            let noteLines = lines.dropFirst(2).dropLast()
            #expect(noteLines.count > 1)
            #expect(noteLines.dropFirst().allSatisfy { $0.first == 0x20 })
            #expect(noteLines.dropLast().allSatisfy { $0.count >= 72 })
            let read = try VCardParser.cards(in: text).map { try $0.get() }
            #expect(read == [card])
            #expect(read.first?.properties.first?.textValue == note)
        }
    }

    @Test("a line of exactly 75 octets is not folded; one of 76 is")
    func foldBoundary() throws {
        let exact = VCardProperty(name: "NOTE", value: String(repeating: "a", count: 70))
        #expect(VCardWriter.contentLine(exact).count == 75)
        #expect(try physicalLines(VCardWriter.write(VCard(properties: [exact]))).count == 4)
        let longer = VCardProperty(name: "NOTE", value: String(repeating: "a", count: 71))
        let lines = try physicalLines(VCardWriter.write(VCard(properties: [longer])))
        #expect(lines.count == 5)
        #expect(lines[2].count == 75)
        #expect(lines[3] == Array(" a".utf8))
    }

    @Test("text survives escaping and reading back: \\\\ \\, \\; and line breaks", arguments: [
        "back\\slash", "comma, here", "semi;colon", "two\nlines", "crlf\r\nline", "all: \\, ; \\n \\\\;,\n",
        "trailing backslash\\", "Zoë Ångström; 山田, 太郎",
    ])
    func escaping(_ text: String) throws {
        let property = VCardProperty(name: "NOTE", text: text)
        #expect(!property.value.contains("\n") && !property.value.contains("\r"))
        let card = VCard(properties: [property, VCardProperty(name: "NICKNAME", textList: [text, "second"]),
                                      VCardProperty(name: "N", components: [[text], [text, "x"], [], [], []])])
        let read = try #require(try VCardParser.cards(in: VCardWriter.write(card)).first?.get())
        let expected = text.replacing("\r\n", with: "\n")
        #expect(read.properties[0].textValue == expected)
        #expect(read.properties[1].textValues == [expected, "second"])
        #expect(read.properties[2].components == [[expected], [expected, "x"], [""], [""], [""]])
    }

    @Test("escaped forms are exactly RFC 6350's")
    func escapedForms() {
        #expect(VCardProperty(name: "NOTE", text: "a\\b,c;d\ne").value == #"a\\b\,c\;d\ne"#)
        #expect(VCardProperty(name: "N", components: [["O'Brien, Jr."], ["Mary", "Ann"], [], [], []]).value
                == #"O'Brien\, Jr.;Mary,Ann;;;"#)
    }

    @Test("parameter values are quoted when they must be, with RFC 6868's ^ escapes")
    func parameters() throws {
        let property = VCardProperty(name: "ADR", parameters: [
            VCardParameter("TYPE", ["work", "home"]),
            VCardParameter("LABEL", "1 Main St.\nLondon: \"HQ\", ^up; there"),
            VCardParameter("X-EMPTY", ""),
        ], components: [[], [], ["1 Main St."], ["London"], [], [], []])
        let line = String(decoding: VCardWriter.contentLine(property), as: UTF8.self)
        #expect(line == #"ADR;TYPE=work,home;LABEL="1 Main St.^nLondon: ^'HQ^', ^^up; there";X-EMPTY=:;;1 Main St.;London;;;"#)
        let read = try #require(try VCardParser.cards(in: VCardWriter.write(VCard(properties: [property]))).first?.get())
        #expect(read.properties == [property])
    }

    @Test("a raw value with a line break is written with \\n, so the card stays well-formed")
    func rawLineBreaks() throws {
        let card = VCard(properties: [VCardProperty(name: "NOTE", value: "one\r\ntwo\nthree\rfour")])
        let text = VCardWriter.write(card)
        #expect(try physicalLines(text)[2] == Array(#"NOTE:one\ntwo\nthree\nfour"#.utf8))
    }
}
