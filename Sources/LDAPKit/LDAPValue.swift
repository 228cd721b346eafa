/// One attribute value: the bytes the server stores, with string accessors.
///
/// LDAP values are octet strings. Most are UTF-8 text, some (`jpegPhoto`,
/// `userCertificate`) are binary, so a value keeps its bytes exactly and only
/// interprets them when asked.
public struct LDAPValue: Sendable, Hashable {
    /// The value's bytes, exactly as sent to or received from the server.
    public var bytes: [UInt8]

    /// Creates a value from raw bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Creates a value from any sequence of bytes, such as `Data`.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    /// Creates a value holding the UTF-8 encoding of `string`.
    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// The value decoded as UTF-8, or `nil` when the bytes are not valid UTF-8.
    public var string: String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The value as text, with invalid UTF-8 sequences replaced by U+FFFD.
    ///
    /// Use this only for display; use ``string`` when the exact value matters.
    public var lossyString: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The number of bytes in the value.
    public var count: Int { bytes.count }

    /// Whether the value has no bytes.
    public var isEmpty: Bool { bytes.isEmpty }
}

extension LDAPValue: ExpressibleByStringLiteral {
    /// Creates a value from a string literal, encoded as UTF-8.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension LDAPValue: CustomStringConvertible {
    /// The value as text when it is valid UTF-8, otherwise its size in bytes.
    public var description: String {
        string ?? "<\(bytes.count) bytes>"
    }
}
