import Foundation

/// The `{SSHA}` password scheme understood by every OpenLDAP server:
/// `{SSHA}` followed by the Base64 of `SHA1(password + salt) + salt`.
enum SaltedSHA1 {
    /// The scheme prefix that introduces a salted SHA-1 value.
    static let scheme = "{SSHA}"

    /// The salt length used for new hashes; slappasswd uses 4 bytes, more does no harm.
    static let saltLength = 8

    /// Hashes `password` with a fresh random salt.
    static func hash(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return hash(password, salt: salt)
    }

    /// Hashes `password` with the given salt; the same inputs always give the same value.
    static func hash(_ password: String, salt: [UInt8]) -> String {
        let digest = SHA1.hash(Array(password.utf8) + salt)
        return scheme + Data(digest + salt).base64EncodedString()
    }

    /// Tells whether `hashed` is an `{SSHA}` value of `password`.
    static func verify(_ password: String, against hashed: String) -> Bool {
        guard hashed.hasPrefix(scheme),
              let decoded = Data(base64Encoded: String(hashed.dropFirst(scheme.count))),
              decoded.count > SHA1.digestSize
        else {
            return false
        }
        let bytes = [UInt8](decoded)
        let salt = Array(bytes[SHA1.digestSize...])
        return hash(password, salt: salt) == hashed
    }
}
