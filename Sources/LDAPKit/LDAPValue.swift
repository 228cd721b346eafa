/// One attribute value: the bytes the server stores, with string accessors.
///
/// LDAP values are octet strings. Most are UTF-8 text, some (`jpegPhoto`,
/// `userCertificate`) are binary, so a value keeps its bytes exactly and only
/// interprets them when asked.
public struct LDAPValue: Sendable, Hashable {
    /// The bytes. The values of an entry read from the server are slices of one
    /// buffer for the whole entry: one allocation instead of one per value, at
    /// the price that keeping any of them keeps the entry's bytes.
    @usableFromInline var storage: ArraySlice<UInt8>

    /// The value's bytes, exactly as sent to or received from the server.
    ///
    /// A value read from the server gives a copy; ``withUnsafeBufferPointer(_:)``,
    /// ``count`` and ``starts(with:)`` read the bytes where they are.
    public var bytes: [UInt8] {
        get { Array(storage) }
        set { storage = newValue[...] }
    }

    /// Creates a value from raw bytes.
    public init(bytes: [UInt8]) {
        self.storage = bytes[...]
    }

    /// Creates a value from any sequence of bytes, such as `Data`.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        self.storage = ArraySlice(bytes)
    }

    /// Creates a value holding the UTF-8 encoding of `string`.
    public init(_ string: String) {
        self.storage = ArraySlice(string.utf8)
    }

    /// A value whose bytes are `slice`, sharing its storage.
    init(sharing slice: ArraySlice<UInt8>) {
        self.storage = slice
    }

    /// The value decoded as UTF-8, or `nil` when the bytes are not valid UTF-8.
    public var string: String? {
        String(validating: storage, as: UTF8.self)
    }

    /// The value as text, with invalid UTF-8 sequences replaced by U+FFFD.
    ///
    /// Use this only for display; use ``string`` when the exact value matters.
    public var lossyString: String {
        String(decoding: storage, as: UTF8.self)
    }

    /// The number of bytes in the value.
    public var count: Int { storage.count }

    /// Whether the value has no bytes.
    public var isEmpty: Bool { storage.isEmpty }

    /// Whether the value's bytes begin with `prefix`.
    public func starts(with prefix: some Sequence<UInt8>) -> Bool {
        storage.starts(with: prefix)
    }

    /// The value without its first `count` bytes, sharing their storage.
    public func droppingFirst(_ count: Int) -> LDAPValue {
        LDAPValue(sharing: storage.dropFirst(count))
    }

    /// Calls `body` with the bytes where they are, counted from 0.
    @inlinable
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withUnsafeBufferPointer(body)
    }
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
        string ?? "<\(count) bytes>"
    }
}
