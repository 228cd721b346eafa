@testable import LDAPBook
import Testing

@Suite("CSV and JSON for import")
struct TabularImportTests {
    @Test("CSV rows: quoted cells with commas, doubled quotes and line breaks; CRLF or LF; each row's first line")
    func csvRows() {
        let rows = TabularImport.csvRows("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nlast,,\n")
        #expect(rows.map(\.cells) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["last", "", ""]])
        #expect(rows.map(\.line) == [1, 2, 4])
        #expect(TabularImport.csvRows("a,b").map(\.cells) == [["a", "b"]], "no line break at the end")
        #expect(TabularImport.csvRows("").isEmpty)
    }

    @Test("a cell the export kept as text ('=…) is read as it was; other quotes stay")
    func unneutralized() {
        #expect(TabularImport.unneutralized("'=HYPERLINK(1)") == "=HYPERLINK(1)")
        #expect(TabularImport.unneutralized("'+44 20") == "+44 20")
        #expect(TabularImport.unneutralized("'quoted'") == "'quoted'")
        #expect(TabularImport.unneutralized("O'Brien") == "O'Brien")
    }

    @Test("Google's phone types name the field")
    func phoneTypes() {
        #expect(["Mobile", "Work Fax", "Home", "Pager", "Work", nil].map(TabularImport.telephoneField)
            == ["mobile", "fax", "home-phone", "pager", "phone", "phone"])
    }
}
