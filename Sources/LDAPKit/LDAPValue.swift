/// One attribute value: the bytes the server stores, with string accessors.
///
/// LDAP values are octet strings. Most are UTF-8 text, some (`jpegPhoto`,
/// `userCertificate`) are binary, so a value keeps its bytes exactly and only
/// interprets them when asked.
public struct LDAPValue: Sendable {
    /// The buffer the bytes are in. The values of an entry read from the server share
    /// one buffer for the whole entry: one allocation instead of one per value, at the
    /// price that keeping any of them keeps the entry's bytes.
    @usableFromInline var buffer: [UInt8]
    /// Where the bytes start in ``buffer``; with ``end``, `UInt32.max` for all of it, whatever
    /// its size. Two 32-bit offsets keep a value at 16 bytes, where an `ArraySlice` takes 32.
    @usableFromInline var start: UInt32
    /// Where the bytes end in ``buffer``; see ``start``.
    @usableFromInline var end: UInt32

    /// The value's bytes, exactly as sent to or received from the server.
    ///
    /// A value read from the server gives a copy; ``withUnsafeBufferPointer(_:)``,
    /// ``count`` and ``starts(with:)`` read the bytes where they are.
    public var bytes: [UInt8] {
        get { isWholeBuffer ? buffer : Array(buffer[range]) }
        set { self = LDAPValue(bytes: newValue) }
    }

    /// The value's bytes where they are, without a copy (the slice shares the entry's buffer).
    public var byteSlice: ArraySlice<UInt8> { buffer[range] }

    /// Creates a value from raw bytes.
    public init(bytes: [UInt8]) {
        buffer = bytes
        start = .max
        end = .max
    }

    /// Creates a value from any sequence of bytes, such as `Data`.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(bytes: Array(bytes))
    }

    /// Creates a value holding the UTF-8 encoding of `string`.
    public init(_ string: String) {
        self.init(bytes: Array(string.utf8))
    }

    /// A value whose bytes are `buffer[range]`, sharing `buffer`.
    init(sharing buffer: [UInt8], range: Range<Int>) {
        if range != buffer.indices, let start = UInt32(exactly: range.lowerBound),
           let end = UInt32(exactly: range.upperBound), end < .max {
            self.buffer = buffer
            self.start = start
            self.end = end
        } else {
            // All of the buffer, or offsets too large for 32 bits: a buffer of its own.
            self.buffer = range == buffer.indices ? buffer : Array(buffer[range])
            self.start = .max
            self.end = .max
        }
    }

    /// Whether the value is all of ``buffer``.
    @inlinable
    var isWholeBuffer: Bool { start == .max && end == .max }

    /// Where the value's bytes are in ``buffer``.
    @inlinable
    var range: Range<Int> { isWholeBuffer ? buffer.indices : Int(start)..<Int(end) }

    /// The value decoded as UTF-8, or `nil` when the bytes are not valid UTF-8.
    public var string: String? {
        withUnsafeBufferPointer { StringRepresentation.isUTF8($0) ? String(decoding: $0, as: UTF8.self) : nil }
    }

    /// Whether the bytes are valid UTF-8 (as ``string`` reads them), found without making a
    /// string.
    public var isUTF8: Bool {
        withUnsafeBufferPointer { StringRepresentation.isUTF8($0) }
    }

    /// The value as text, with invalid UTF-8 sequences replaced by U+FFFD.
    ///
    /// Use this only for display; use ``string`` when the exact value matters.
    public var lossyString: String {
        withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The number of bytes in the value.
    public var count: Int { range.count }

    /// Whether the value has no bytes.
    public var isEmpty: Bool { range.isEmpty }

    /// Whether the value's bytes begin with `prefix`.
    public func starts(with prefix: some Sequence<UInt8>) -> Bool {
        withUnsafeBufferPointer { $0.starts(with: prefix) }
    }

    /// The value without its first `count` bytes, sharing their storage.
    public func droppingFirst(_ count: Int) -> LDAPValue {
        let range = range
        return LDAPValue(sharing: buffer, range: min(range.lowerBound + max(count, 0), range.upperBound)..<range.upperBound)
    }

    /// Calls `body` with the bytes where they are, counted from 0.
    @inlinable
    public func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let range = range
        return try buffer.withUnsafeBufferPointer { (all) throws(Failure) -> Result in
            try body(UnsafeBufferPointer(rebasing: all[range]))
        }
    }
}

extension LDAPValue: Hashable {
    /// Whether the two values have the same bytes.
    public static func == (lhs: LDAPValue, rhs: LDAPValue) -> Bool {
        lhs.withUnsafeBufferPointer { a in rhs.withUnsafeBufferPointer { b in a.elementsEqual(b) } }
    }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBufferPointer { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
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
