@testable import LDAPBook
import Testing

/// The one card `text` holds, or the test fails.
private func onlyCard(_ text: String) throws -> VCard {
    let results = VCardParser.cards(in: text)
    try #require(results.count == 1)
    return try results[0].get()
}

@Suite("Reading vCards")
struct VCardParserTests {
    /// RFC 6350 section 8, verbatim (with its folds).
    static let rfc6350Example = """
        BEGIN:VCARD
        VERSION:4.0
        FN:Simon Perreault
        N:Perreault;Simon;;;ing. jr,M.Sc.
        BDAY:--0203
        ANNIVERSARY:20090808T1430-0500
        GENDER:M
        LANG;PREF=1:fr
        LANG;PREF=2:en
        ORG;TYPE=work:Viagenie
        ADR;TYPE=work:;Suite D2-630;2875 Laurier;
         Quebec;QC;G1V 2M2;Canada
        TEL;VALUE=uri;TYPE="work,voice";PREF=1:tel:+1-418-656-9254;ext=102
        TEL;VALUE=uri;TYPE="work,cell,voice,video,text":tel:+1-418-262-6501
        EMAIL;TYPE=work:simon.perreault@viagenie.ca
        GEO;TYPE=work:geo:46.772673,-71.282945
        KEY;TYPE=work;VALUE=uri:
         http://www.viagenie.ca/simon.perreault/simon.asc
        TZ:-0500
        URL;TYPE=home:http://nomis80.org
        END:VCARD

        """.replacing("\n", with: "\r\n")

    /// A vCard 3.0 card as Evolution writes it, with an Apple-style item
    /// group and `TYPE=INTERNET,PREF`.
    static let evolutionCard = """
        BEGIN:VCARD
        VERSION:3.0
        UID:pas-id-65A4F1C200000001
        FN:Ada Lovelace
        N:Lovelace;Ada;Augusta;Countess;
        X-EVOLUTION-FILE-AS:Lovelace\\, Ada
        NICKNAME:Ada
        EMAIL;TYPE=INTERNET,HOME;X-EVOLUTION-UI-SLOT=2:ada@home.example
        item1.EMAIL;TYPE=INTERNET,PREF:ada@example.com
        item1.X-ABLabel:work
        TEL;TYPE=WORK;TYPE=VOICE;X-EVOLUTION-UI-SLOT=1:+44 20 7946 0000
        TEL;TYPE=CELL;X-EVOLUTION-UI-SLOT=2:+44 7700 900000
        TEL;TYPE=HOME,FAX:+44 20 7946 0001
        ADR;TYPE=WORK:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom
        LABEL;TYPE=WORK:12 St James's Square\\nLondon\\nSW1Y 4JH\\nUnited Kingdom
        LABEL;TYPE=HOME:Ockham Park\\nSurrey
        ORG:Analytical Engines Ltd;Research
        TITLE:Programmer
        X-JABBER;TYPE=HOME;X-EVOLUTION-UI-SLOT=1:ada@jabber.example
        X-EVOLUTION-SPOUSE:William King
        X-EVOLUTION-ANNIVERSARY:1835-07-08
        BDAY:1815-12-10
        X-MOZILLA-HTML:FALSE
        NOTE:First programmer.\\nWrote the notes on the Analytical Engine.
        X-SHOE-SIZE:38
        CATEGORIES:Friends,Mathematicians
        REV:2024-01-02T10:00:00Z
        END:VCARD

        """.replacing("\n", with: "\r\n")

    @Test("the example card of RFC 6350 section 8")
    func rfc6350Example() throws {
        let card = try onlyCard(Self.rfc6350Example)
        #expect(card.version == .v4)
        #expect(card.line == 1)
        #expect(card.formattedName == "Simon Perreault")
        #expect(card.name == VCardName(familyNames: ["Perreault"], givenNames: ["Simon"],
                                       honorificSuffixes: ["ing. jr", "M.Sc."]))
        #expect(card.properties.count == 16)
        #expect(!card.properties.contains { $0.name == "VERSION" })

        let address = try #require(card.properties(named: "adr").first)
        #expect(address.line == 11)
        #expect(address.types == ["work"])
        #expect(address.components == [[""], ["Suite D2-630"], ["2875 Laurier"], ["Quebec"], ["QC"], ["G1V 2M2"], ["Canada"]])

        #expect(card.telephones.map(\.value) == ["tel:+1-418-656-9254;ext=102", "tel:+1-418-262-6501"])
        #expect(card.telephones[0].types == ["work", "voice"])
        #expect(card.telephones[0].preference == 1)
        #expect(card.telephones[1].types == ["work", "cell", "voice", "video", "text"])
        #expect(card.telephones[1].preference == nil)
        #expect(card.emails == [VCardTypedValue(value: "simon.perreault@viagenie.ca", types: ["work"])])

        let key = try #require(card.properties(named: "KEY").first)
        #expect(key.line == 17)
        #expect(key.valueType == "uri")
        #expect(key.value == "http://www.viagenie.ca/simon.perreault/simon.asc")
        #expect(card.preferredProperties(named: "LANG").map(\.value) == ["fr", "en"])
        #expect(card.properties(named: "GEO").first?.value == "geo:46.772673,-71.282945")
    }

    @Test("a vCard 3.0 card as Evolution writes it: item groups, repeated TYPE, TYPE=PREF")
    func evolutionCard() throws {
        let card = try onlyCard(Self.evolutionCard)
        #expect(card.version == .v3)
        #expect(card.uid == "pas-id-65A4F1C200000001")
        #expect(card.emails.map(\.value) == ["ada@example.com", "ada@home.example"])
        #expect(card.emails[0].types == ["internet", "pref"])
        #expect(card.emails[0].preference == 1)
        let grouped = card.properties(inGroup: "ITEM1")
        #expect(grouped.map(\.name) == ["EMAIL", "X-ABLABEL"])
        #expect(grouped.allSatisfy { $0.group == "item1" })
        #expect(card.telephones.map(\.types) == [["work", "voice"], ["cell"], ["home", "fax"]])
        let slot = try #require(card.properties(named: "TEL").first)
        #expect(slot.parameterValue("x-evolution-ui-slot") == "1")
        #expect(card.properties(named: "X-EVOLUTION-FILE-AS").first?.textValue == "Lovelace, Ada")
        #expect(card.properties(named: "NOTE").first?.textValue
                == "First programmer.\nWrote the notes on the Analytical Engine.")
        #expect(card.properties(named: "CATEGORIES").first?.textValues == ["Friends", "Mathematicians"])
        #expect(card.properties(named: "ORG").first?.components == [["Analytical Engines Ltd"], ["Research"]])
    }

    @Test("folded lines are joined after CRLF or LF and one space or tab")
    func unfolding() throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Zoë\n  Ångström\nNOTE:one\r\n\ttwo\r\n three\nEND:VCARD\n"
        let card = try onlyCard(text)
        #expect(card.formattedName == "Zoë Ångström")
        #expect(card.properties(named: "NOTE").first?.textValue == "onetwothree")
        #expect(card.properties(named: "NOTE").first?.line == 5)
    }

    @Test("a fold inside a multi-byte character is joined on bytes")
    func foldInsideCharacter() throws {
        let zoe = Array("Zoë".utf8), yamada = Array("山田".utf8)
        var bytes = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:".utf8)
        bytes += zoe[..<3] + Array("\r\n ".utf8) + zoe[3...]
        bytes += Array(" ".utf8) + yamada[..<2] + Array("\r\n ".utf8) + yamada[2...]
        bytes += Array("\r\nEND:VCARD\r\n".utf8)
        let results = VCardParser.cards(in: bytes)
        #expect(try results.map { try $0.get().formattedName } == ["Zoë 山田"])
    }

    @Test("names are case-insensitive, and a byte order mark, blank lines and LF endings are fine")
    func leniency() throws {
        let text = "\u{FEFF}\n\nbegin:vcard\nversion:3.0\n\nfn:Ada\nemail;type=work:ada@example.com\nEnd:VCard\n\n"
        let card = try onlyCard(text)
        #expect(card.version == .v3)
        #expect(card.properties.map(\.name) == ["FN", "EMAIL"])
        #expect(card.properties[1].parameters.map(\.name) == ["TYPE"])
        #expect(card.properties[1].line == 7)
        #expect(card.emails.first?.types == ["work"])
    }

    @Test("several cards in one file, in order")
    func severalCards() throws {
        let text = (1...3).map { "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Person \($0)\r\nEND:VCARD\r\n" }.joined()
        let cards = try VCardParser.cards(in: text).map { try $0.get() }
        #expect(cards.map(\.formattedName) == ["Person 1", "Person 2", "Person 3"])
        #expect(cards.map(\.line) == [1, 5, 9])
    }

    @Test("quoted parameter values keep : ; and , and RFC 6868's ^ escapes are undone")
    func parameterValues() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Ada
            ADR;LABEL="12 Main St.^nLondon; UK: ^'home^', ^^ok";TYPE=home,work:;;12 Main St.;London;;;UK
            TEL;WORK;VOICE:+44 1
            X-NOTE;X-A=plain^caret;X-B="":text
            END:VCARD
            """
        let card = try onlyCard(text)
        let address = try #require(card.properties(named: "ADR").first)
        #expect(address.parameterValue("label") == "12 Main St.\nLondon; UK: \"home\", ^ok")
        #expect(address.types == ["home", "work"])
        #expect(card.telephones.first?.types == ["work", "voice"])
        let note = try #require(card.properties(named: "x-note").first)
        #expect(note.parameters == [VCardParameter("X-A", "plain^caret"), VCardParameter("X-B", "")])
    }

    @Test("text values: escapes are undone, lists and components split only on unescaped separators")
    func textValues() throws {
        let card = try onlyCard(#"""
            BEGIN:VCARD
            VERSION:4.0
            FN:Back\\slash\, comma\; semicolon\nnew line\Nagain C:\temp
            NICKNAME:Jim,Jimmie\, Jr.,J\;J
            N:O'Brien\, Jr.;Mary,Ann;;;
            END:VCARD
            """#)
        #expect(card.formattedName == "Back\\slash, comma; semicolon\nnew line\nagain C:\\temp")
        #expect(card.properties(named: "NICKNAME").first?.textValues == ["Jim", "Jimmie, Jr.", "J;J"])
        #expect(card.name?.familyNames == ["O'Brien, Jr."])
        #expect(card.name?.givenNames == ["Mary", "Ann"])
    }

    @Test("base64 photos: vCard 3.0 ENCODING=b and BASE64, vCard 4.0 data: URIs, base64 or percent-encoded")
    func inlineData() throws {
        let card = try onlyCard("""
            BEGIN:VCARD
            VERSION:3.0
            FN:Ada
            PHOTO;ENCODING=b;TYPE=JPEG:/9j/
             4AA=
            LOGO;ENCODING=BASE64;TYPE=PNG:iVBORw
            SOUND:data:audio/basic,%00%FFab
            KEY;VALUE=uri:https://example.com/key.asc
            END:VCARD
            """)
        #expect(card.properties(named: "PHOTO").first?.binaryValue == [0xFF, 0xD8, 0xFF, 0xE0, 0x00])
        #expect(card.properties(named: "LOGO").first?.binaryValue == [0x89, 0x50, 0x4E, 0x47])
        #expect(card.properties(named: "SOUND").first?.binaryValue == [0x00, 0xFF, 0x61, 0x62])
        #expect(card.properties(named: "KEY").first?.binaryValue == nil)
    }
}

@Suite("Reporting bad vCards")
struct VCardParserErrorTests {
    private let good = "BEGIN:VCARD\nVERSION:4.0\nFN:Good Card\nEND:VCARD\n"

    /// The error of each failed card and the name of each good one, in order.
    private func outcomes(_ text: String) -> [String] {
        VCardParser.cards(in: text).map { result in
            switch result {
            case .success(let card): "card \(card.formattedName ?? "?")"
            case .failure(let error): "line \(error.line)"
            }
        }
    }

    private func errors(_ text: String) -> [VCardError] {
        VCardParser.cards(in: text).compactMap { result in
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    @Test("a card without END:VCARD is reported at its BEGIN, and the next card still reads")
    func missingEnd() throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Broken\n" + good
        #expect(outcomes(text) == ["line 1", "card Good Card"])
        let error = try #require(errors(text).first)
        #expect(error.message.contains("no END:VCARD"))
        #expect(error.message.contains("line 4"))
        #expect(error.description.hasPrefix("line 1: "))
    }

    @Test("a card cut off by the end of the file is reported")
    func truncated() throws {
        let text = good + "BEGIN:VCARD\nVERSION:4.0\nFN:Cut"
        #expect(outcomes(text) == ["card Good Card", "line 5"])
        #expect(errors(text).first?.message.contains("end of the file") == true)
    }

    @Test("vCard 2.1 is read: quoted-printable with soft line breaks, CHARSET, bare types")
    func vCard21() throws {
        let text = """
            BEGIN:VCARD
            VERSION:2.1
            N;ENCODING=QUOTED-PRINTABLE:L=C3=B6we;Zo=C3=AB
            FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB L=C3=B6we =
            =E2=80=94 editor
            TEL;WORK;VOICE:+1 555 0100
            NOTE;ENCODING=QUOTED-PRINTABLE:first line=0D=0Asecond line
            END:VCARD

            """ + good
        #expect(outcomes(text) == ["card Zoë Löwe — editor", "card Good Card"])
        let card = try #require(try VCardParser.cards(in: text).first?.get())
        #expect(card.version == .v3, "read as the 3.0 card it can be written as")
        #expect(card.properties.first { $0.name == "N" }?.components.prefix(2).map { $0.first } == ["Löwe", "Zoë"])
        let tel = try #require(card.properties.first { $0.name == "TEL" })
        #expect(tel.hasType("work") && tel.hasType("voice"))
        #expect(card.properties.first { $0.name == "NOTE" }?.textValue == "first line\nsecond line")
    }

    @Test("an Outlook vCard 2.1: windows-1252 text, a quoted-printable address over two lines, a BASE64 photo")
    func outlook21() throws {
        var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;LANGUAGE=de;CHARSET=Windows-1252:M".utf8) + [0xFC]
            + Array("ller;J".utf8) + [0xFC] + Array("rgen\r\nFN:Juergen Mueller\r\n".utf8)
        bytes += Array("""
            TEL;CELL:+49 170 1234567\r
            EMAIL;PREF;INTERNET:juergen@example.de\r
            ADR;WORK;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:;;Stra=C3=9Fe 1=0D=0A=\r
            Hinterhaus;Berlin;;10115;Deutschland\r
            PHOTO;TYPE=JPEG;ENCODING=BASE64:\r
             /9j/4AAQSkZJRgABAQ==\r
            \r
            END:VCARD\r

            """.utf8)
        let card = try #require(try VCardParser.cards(in: bytes).first?.get())
        #expect(card.properties.first { $0.name == "N" }?.components.first?.first == "Müller")
        #expect(card.properties.first { $0.name == "TEL" }?.hasType("cell") == true)
        let address = try #require(card.properties.first { $0.name == "ADR" })
        #expect(address.components[2] == ["Straße 1\nHinterhaus"])
        #expect(address.components[3] == ["Berlin"])
        let photo = try #require(card.properties.first { $0.name == "PHOTO" })
        #expect(try photo.inlineBytes()?.prefix(3) == [0xFF, 0xD8, 0xFF])
    }

    @Test("a 2.1 value that does not decode, or names a character set not read, is reported at its line")
    func bad21() throws {
        let broken = "BEGIN:VCARD\nVERSION:2.1\nFN:X\nNOTE;ENCODING=QUOTED-PRINTABLE:caf=C\nEND:VCARD\n"
        #expect(errors(broken).first?.message.contains("does not decode") == true)
        let unknown = "BEGIN:VCARD\nVERSION:2.1\nFN:X\nNOTE;CHARSET=KOI8-R;ENCODING=QUOTED-PRINTABLE:=C1\nEND:VCARD\n"
        #expect(errors(unknown).first?.message.contains("CHARSET=KOI8-R") == true)
    }

    @Test("quoted-printable in a vCard 3.0 card is refused at its line")
    func quotedPrintableIn30() throws {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nNOTE;ENCODING=QUOTED-PRINTABLE:caf=C3=A9\nEND:VCARD\n" + good
        #expect(outcomes(text) == ["line 4", "card Good Card"])
        #expect(errors(text).first?.message.hasPrefix("NOTE: quoted-printable is vCard 2.1's encoding") == true)
    }

    @Test("a photo whose base64 is broken is reported at its line", arguments: [
        "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AA*",
        "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4",
        "PHOTO;ENCODING=b;TYPE=JPEG:/9j=4AA=",
        "PHOTO:data:image/jpeg;base64,/9j/4AA!",
        "PHOTO:data:image/jpeg;base64",
    ])
    func badBase64(_ photo: String) throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\nFN:Ada\n\(photo)\nEND:VCARD\n" + good
        #expect(outcomes(text) == ["line 4", "card Good Card"])
        let message = try #require(errors(text).first?.message)
        #expect(message.hasPrefix("PHOTO: "))
    }

    @Test("END without BEGIN, text between cards, and a BEGIN inside a card are reported")
    func structure() throws {
        let text = "END:VCARD\nFN:stray\nNOTE:stray too\n" + good
            + "BEGIN:VCARD\nVERSION:4.0\nFN:Outer\nBEGIN:VCALENDAR\nEND:VCARD\n"
        #expect(outcomes(text) == ["line 1", "line 2", "card Good Card", "line 11"])
        let messages = errors(text).map(\.message)
        #expect(messages[0].contains("without a BEGIN:VCARD"))
        #expect(messages[1].contains("outside a card"))
        #expect(messages[2].contains("inside a card"))
    }

    @Test("cards without a VERSION or with an unknown one are refused", arguments: [
        ("BEGIN:VCARD\nFN:Ada\nEND:VCARD\n", 1, "no VERSION"),
        ("BEGIN:VCARD\nVERSION:5.0\nFN:Ada\nEND:VCARD\n", 2, "VERSION 5.0 is not supported"),
    ])
    func versions(_ text: String, _ line: Int, _ words: String) throws {
        let error = try #require(errors(text + good).first)
        #expect(error.line == line)
        #expect(error.message.contains(words))
        #expect(outcomes(text + good).last == "card Good Card")
    }

    @Test("malformed content lines are reported at their line", arguments: [
        ("FN Ada", "no \":\""),
        ("F N:Ada", "not a property name"),
        ("a.b.FN:Ada", "more than one group"),
        ("TEL;TYPE=\"work:+1 555 0100", "no closing"),
        ("TEL;TY PE=work:+1 555 0100", "parameter"),
        (":Ada", "not a property name"),
    ])
    func malformedLines(_ line: String, _ words: String) throws {
        let text = "BEGIN:VCARD\nVERSION:4.0\n\(line)\nEND:VCARD\n" + good
        #expect(outcomes(text) == ["line 3", "card Good Card"])
        #expect(errors(text).first?.message.contains(words) == true)
    }

    @Test("a line that is not UTF-8 is reported")
    func notUTF8() throws {
        let bytes = Array("BEGIN:VCARD\nVERSION:3.0\nFN:Zo".utf8) + [0xEB] + Array("\nEND:VCARD\n".utf8)
        let results = VCardParser.cards(in: bytes)
        #expect(results.count == 1)
        #expect(throws: VCardError(line: 3, message: "the line is not valid UTF-8 (vCard 3.0 and 4.0 files are UTF-8)")) {
            try results[0].get()
        }
    }
}
