import Foundation
import LDAPBook
import LDAPKit
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("nested objects and arrays get their commas; the output is JSON Foundation reads back")
    func structure() throws {
        var json = JSONWriter()
        json.beginObject()
        json.key("name"); json.string("Ada")
        json.key("emails"); json.strings(["a@example.com", "b@example.com"])
        json.key("empty"); json.beginArray(); json.endArray()
        json.key("nested"); json.beginObject(); json.key("n"); json.number(-3); json.key("t"); json.bool(true); json.endObject()
        json.key("none"); json.null()
        json.key("list"); json.beginArray(); json.beginObject(); json.endObject(); json.number(1); json.string(nil); json.endArray()
        json.endObject()
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text == #"{"name":"Ada","emails":["a@example.com","b@example.com"],"empty":[],"nested":{"n":-3,"t":true},"none":null,"list":[{},1,null]}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(json.bytes)) is [String: Any])
    }

    @Test("strings: quotes, backslashes and every control character escaped, C1 and DEL too; other text as it is")
    func escaping() throws {
        let tricky = "\"\\/\n\r\t\u{0}\u{1B}[2J\u{7F}\u{9B}31m\u{85}é😀 Ω"
        var json = JSONWriter()
        json.beginArray(); json.string(tricky); json.endArray()
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text == #"["\"\\/\n\r\t\u0000\u001b[2J\u007f\u009b31m\u0085é😀 Ω"]"#)
        #expect(!json.bytes.contains { $0 < 0x20 || $0 == 0x7F })
        let back = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String])
        #expect(back == [tricky], "what is written reads back as the same text")
    }

    @Test("take() hands over what was written and goes on from there")
    func take() {
        var json = JSONWriter()
        json.beginArray()
        json.string("a")
        #expect(String(decoding: json.take(), as: UTF8.self) == #"["a""#)
        json.string("b")
        json.endArray()
        #expect(String(decoding: json.take(), as: UTF8.self) == #","b"]"#)
    }

    @Test("a value's bytes: written as its text, read in place, the same as the string; not UTF-8: U+FFFD; base64 for binary")
    func values() {
        let tricky = "\"\\/\n\r\t\u{0}\u{1B}[2J\u{7F}\u{9B}31m\u{85}é😀 Ω, and a longer run of plain text"
        var fromString = JSONWriter(), fromValue = JSONWriter()
        fromString.beginArray(); fromString.string(tricky); fromString.string("\u{C2}"); fromString.endArray()
        // A slice of a shared buffer, as values read from the server are.
        fromValue.beginArray()
        fromValue.string(LDAPValue("x" + tricky).droppingFirst(1))
        fromValue.string(LDAPValue("\u{C2}"))
        fromValue.endArray()
        #expect(fromValue.bytes == fromString.bytes)

        var json = JSONWriter()
        json.beginArray()
        json.string(LDAPValue(bytes: [0x41, 0xFF, 0x42, 0xC2]))
        json.base64(LDAPValue(bytes: [0xFF, 0xD8, 0xFF]))
        json.endArray()
        #expect(String(decoding: json.bytes, as: UTF8.self) == "[\"A\u{FFFD}B\u{FFFD}\",\"/9j/\"]")

        // Text as text, escaped as strings are; anything else in base64.
        var either = JSONWriter()
        either.beginArray()
        either.textOrBase64(LDAPValue("x" + tricky).droppingFirst(1))
        either.textOrBase64(LDAPValue(bytes: [0xFF, 0xD8, 0xFF]))
        either.endArray()
        var expected = JSONWriter()
        expected.beginArray(); expected.string(tricky); expected.string("/9j/"); expected.endArray()
        #expect(either.bytes == expected.bytes)
    }

    @Test("a writer appending to a buffer takes it over and gives it back with its own JSON after what was there")
    func appending() {
        var output = Array("[\n".utf8)
        for name in ["Ada", "Alan"] {
            if output.count > 2 { output += Array(",\n".utf8) }
            var json = JSONWriter(appendingTo: &output)
            #expect(output.isEmpty)
            json.beginObject(); json.key("name"); json.string(name); json.endObject()
            json.end(into: &output)
        }
        output += Array("\n]".utf8)
        #expect(String(decoding: output, as: UTF8.self) == "[\n{\"name\":\"Ada\"},\n{\"name\":\"Alan\"}\n]")
    }

    @Test("arrays written in parts by writers of their own are put together as one array")
    func partsOfAnArray() {
        func part(_ names: [String]) -> [UInt8] {
            var json = JSONWriter()
            json.beginArray()
            for name in names { json.beginObject(); json.key("name"); json.string(name); json.endObject() }
            json.endArray()
            return json.bytes
        }
        var json = JSONWriter()
        json.beginObject()
        json.key("matches")
        json.beginArray()
        for names in [["Ada", "Alan"], [], ["Grace"]] { json.elements(ofArray: part(names)) }
        json.endArray()
        json.key("more"); json.bool(false)
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self)
            == #"{"matches":[{"name":"Ada"},{"name":"Alan"},{"name":"Grace"}],"more":false}"#)
    }
}
