import Testing
@testable import SlapdKit

@Suite("SHA-1 and {SSHA}")
struct SHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    @Test("FIPS 180 test vectors", arguments: [
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func knownVectors(input: String, expected: String) {
        #expect(hex(SHA1.hash(Array(input.utf8))) == expected)
    }

    @Test("Inputs around the padding boundary", arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))) == expected)
    }

    @Test("One million times 'a', fed in pieces")
    func millionA() {
        var digest = SHA1()
        let piece = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 {
            digest.update(piece)
        }
        #expect(hex(digest.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("{SSHA} with a fixed salt is SHA1(password + salt) + salt in Base64")
    func saltedHashWithFixedSalt() {
        let hashed = SaltedSHA1.hash("secret", salt: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(hashed == "{SSHA}lHFzXul4wnzRItssVcTnvXWRjNgBAgMEBQYHCA==")
    }

    @Test("{SSHA} with a random salt verifies, and only for its password")
    func saltedHashRoundTrip() {
        let first = SaltedSHA1.hash("pa55 wörd")
        let second = SaltedSHA1.hash("pa55 wörd")
        #expect(first.hasPrefix("{SSHA}"))
        #expect(first != second)
        #expect(SaltedSHA1.verify("pa55 wörd", against: first))
        #expect(!SaltedSHA1.verify("pa55 word", against: first))
        #expect(!SaltedSHA1.verify("pa55 wörd", against: "{SHA}not-salted"))
    }

    @Test("Hashes made by slappasswd verify")
    func slappasswdHashVerifies() async throws {
        let result = await Tool.run("/usr/sbin/slappasswd", ["-h", "{SSHA}", "-s", "from OpenLDAP"])
        #expect(result.status == .exited(0))
        let hashed = result.output.trimmingTrailingWhitespace()
        #expect(SaltedSHA1.verify("from OpenLDAP", against: hashed))
        #expect(!SaltedSHA1.verify("from OpenLDAp", against: hashed))
    }
}
