import Testing
@testable import LDAPKit

@Suite("Base64")
struct Base64Tests {
    /// RFC 4648 section 10.
    static let vectors: [(text: String, encoded: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    @Test("The RFC 4648 test vectors", arguments: vectors)
    func vector(text: String, encoded: String) {
        var output: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { Base64.encode($0, to: &output) }
        #expect(String(decoding: output, as: UTF8.self) == encoded)
        #expect(Base64.decode(ArraySlice(encoded.utf8)) == Array(text.utf8))
    }

    @Test("Every byte value survives encoding and decoding, at every length up to 300")
    func allBytes() {
        var random = SeededRandom(seed: 4_648)
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            var encoded: [UInt8] = []
            bytes.withUnsafeBufferPointer { Base64.encode($0, to: &encoded) }
            #expect(encoded.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(encoded[...]) == bytes)
        }
        let everyByte = (0...255).map { UInt8($0) }
        var encoded: [UInt8] = []
        everyByte.withUnsafeBufferPointer { Base64.encode($0, to: &encoded) }
        #expect(Base64.decode(encoded[...]) == everyByte)
    }

    @Test("Text that is not base64 is refused", arguments: [
        "Zg", "Zm9", "Zm9vY", "Zg=", "====", "Z===", "Zg=a", "Z=g=", "Zm=v", "Zm9 ", "Zm9v Zm9v", "Zm9v\n", "Zm-v", "Zm_v", "Zm9v!AAA",
    ])
    func invalid(text: String) {
        #expect(Base64.decode(ArraySlice(text.utf8)) == nil)
    }
}
