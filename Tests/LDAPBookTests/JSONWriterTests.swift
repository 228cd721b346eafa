import Foundation
import LDAPBook
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
}
