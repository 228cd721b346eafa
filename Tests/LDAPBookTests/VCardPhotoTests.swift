@testable import LDAPBook
import Testing

@Suite("Inline photos in vCards")
struct VCardPhotoTests {
    /// A JPEG-looking byte string with every byte value, several times over.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<3).flatMap { _ in (0...255).map(UInt8.init) } + [0xFF, 0xD9]

    @Test("vCard 4.0 writes a data: URI with VALUE=uri, vCard 3.0 ENCODING=b with TYPE=JPEG")
    func forms() {
        let v4 = VCardProperty(name: "PHOTO", binary: [0xFF, 0xD8, 0xFF], mediaType: "image/jpeg", version: .v4)
        #expect(v4.parameters == [VCardParameter("VALUE", "uri")])
        #expect(VCardWriter.write(VCard(properties: [v4])).contains("\r\nPHOTO;VALUE=uri:data:image/jpeg;base64,/9j/\r\n"))
        #expect(v4.value == "data:image/jpeg;base64,/9j/")
        let v3 = VCardProperty(name: "PHOTO", binary: [0xFF, 0xD8, 0xFF], mediaType: "image/jpeg", version: .v3)
        #expect(v3.parameters == [VCardParameter("ENCODING", "b"), VCardParameter("TYPE", "JPEG")])
        #expect(v3.value == "/9j/")
    }

    @Test("a photo round-trips byte for byte through writing, folding and reading",
          arguments: VCardVersion.allCases, [0, 1, 2, 3])
    func roundTrip(_ version: VCardVersion, _ trim: Int) throws {
        let bytes = Array(Self.jpeg.dropLast(trim))
        let card = VCard(version: version, properties: [
            VCardProperty(name: "FN", text: "Ada"),
            VCardProperty(name: "PHOTO", binary: bytes, mediaType: "image/jpeg", version: version),
        ])
        let text = VCardWriter.write(card)
        #expect(text.utf8.split(separator: 0x0A).allSatisfy { $0.count <= 76 })
        let read = try #require(try VCardParser.cards(in: text).first?.get())
        #expect(read == card)
        #expect(read.properties(named: "PHOTO").first?.binaryValue == bytes)
    }

    @Test("base64 codes every length and byte, with or without padding")
    func base64() throws {
        for length in 0...9 {
            let bytes = Array(Self.jpeg.suffix(length))
            let encoded = VCardBase64.encode(bytes)
            #expect(encoded.utf8.count % 4 == 0)
            #expect(try VCardBase64.decode(encoded) == bytes)
            let unpadded = encoded.filter { $0 != "=" }
            #expect(try VCardBase64.decode(unpadded) == bytes)
        }
        #expect(VCardBase64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(try VCardBase64.decode("Zm9v\r\n YmE=") == Array("fooba".utf8))
        #expect(throws: VCardBase64.Failure.self) { try VCardBase64.decode("Zm9v=YmE=") }
        #expect(throws: VCardBase64.Failure.self) { try VCardBase64.decode("Zm9vY") }
        #expect(throws: VCardBase64.Failure.self) { try VCardBase64.decode("Zm9v===") }
        #expect(throws: VCardBase64.Failure.self) { try VCardBase64.decode("Zm-v") }
    }
}
