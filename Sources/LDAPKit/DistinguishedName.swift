/// A distinguished name (RFC 4514): a sequence of relative distinguished
/// names, the entry's own RDN first and the root-most last.
///
/// Build names from parts with ``child(_:_:)`` rather than by pasting
/// strings together, so that a value such as `x,dc=evil` stays one value:
///
/// ```swift
/// let people = try DistinguishedName(parsing: "ou=people,dc=example,dc=com")
/// let ada = people.child("cn", "Ada Lovelace")
/// ada.string  // "cn=Ada Lovelace,ou=people,dc=example,dc=com"
/// ```
///
/// Two names are equal (`==`) when their attribute types match ignoring
/// ASCII case and their values have exactly the same bytes; use
/// ``isEquivalent(to:)`` to also ignore the case of the values.
public struct DistinguishedName: Sendable {
    /// The RDNs, most specific first: `cn=Ada,ou=people,dc=example` has
    /// `cn=Ada` at index 0.
    public var rdns: [RelativeDistinguishedName] {
        didSet { text = nil }
    }

    /// The UTF-8 of ``string``, when it is known without writing it: the text the DN was
    /// read from, when that is exactly what ``string`` writes (``rendersAsItIs(_:)``). An
    /// export prints the DN of every entry, and writing each again took a tenth of its time.
    var text: [UInt8]?

    /// Creates a DN from its RDNs, most specific first.
    public init(rdns: [RelativeDistinguishedName]) {
        self.rdns = rdns
    }
}

/// One RDN: one or more attribute type and value pairs (`cn=Ada+uid=ada`).
///
/// The pairs of a multi-valued RDN form a set: two RDNs with the same pairs
/// in a different order are equal.
public struct RelativeDistinguishedName: Sendable {
    /// The pairs, in the order given.
    public var attributes: [AttributeTypeAndValue]

    /// Creates an RDN from its pairs.
    public init(attributes: [AttributeTypeAndValue]) {
        self.attributes = attributes
    }

    /// Creates a single-valued RDN such as `cn=Ada Lovelace`.
    public init(type: String, value: LDAPValue) {
        self.attributes = [AttributeTypeAndValue(type: type, value: value)]
    }
}

/// An attribute type and one value, as in an RDN.
///
/// Two pairs are equal when their types match ignoring ASCII case and their
/// values have exactly the same bytes.
public struct AttributeTypeAndValue: Sendable {
    /// The attribute type: a name such as `cn` or a numeric OID.
    public var type: String
    /// The value, unescaped.
    public var value: LDAPValue

    /// Creates a pair.
    public init(type: String, value: LDAPValue) {
        self.type = type
        self.value = value
    }
}

// MARK: - Navigating the tree

extension DistinguishedName {
    /// The empty DN, which names the root of the tree (the root DSE).
    public static let root = DistinguishedName(rdns: [])

    /// Whether this is the empty DN that names the root of the tree.
    public var isRoot: Bool { rdns.isEmpty }

    /// The entry's own (leftmost) RDN, or `nil` for the root.
    public var rdn: RelativeDistinguishedName? { rdns.first }

    /// The DN of the entry's parent, or `nil` for the root.
    ///
    /// The parent of a single-RDN name such as `dc=com` is the root.
    public var parent: DistinguishedName? {
        isRoot ? nil : DistinguishedName(rdns: Array(rdns.dropFirst()))
    }

    /// The DN of the child of this entry named by `rdn`.
    public func child(_ rdn: RelativeDistinguishedName) -> DistinguishedName {
        DistinguishedName(rdns: [rdn] + rdns)
    }

    /// The DN of the child of this entry whose RDN is `type=value`, as in
    /// `people.child("cn", "Ada Lovelace")`.
    ///
    /// The value is kept as one value whatever characters it contains.
    public func child(_ type: String, _ value: LDAPValue) -> DistinguishedName {
        child(RelativeDistinguishedName(type: type, value: value))
    }

    /// Whether this entry is below `ancestor` in the tree: a child, a
    /// grandchild, and so on, but not `ancestor` itself.
    ///
    /// RDNs are compared with `==`. Every DN except the root is a
    /// descendant of the root.
    public func isDescendant(of ancestor: DistinguishedName) -> Bool {
        rdns.count > ancestor.rdns.count && rdns.suffix(ancestor.rdns.count).elementsEqual(ancestor.rdns)
    }

    /// Whether the two names identify the same entry when values are
    /// compared as a directory server compares `caseIgnoreMatch` values:
    /// attribute types ignoring ASCII case, and values ignoring case and
    /// leading and trailing whitespace.
    ///
    /// This suits the usual naming attributes (`cn`, `ou`, `dc`, `uid`).
    /// Values that are not valid UTF-8 are compared byte for byte. Types
    /// are compared as spelled, so `cn` and `2.5.4.3` are not equivalent.
    public func isEquivalent(to other: DistinguishedName) -> Bool {
        rdns.count == other.rdns.count && zip(rdns, other.rdns).allSatisfy { $0.isEquivalent(to: $1) }
    }
}

extension RelativeDistinguishedName {
    /// Whether the two RDNs have the same pairs in any order, with types
    /// compared ignoring ASCII case and values ignoring case and leading
    /// and trailing whitespace (see ``DistinguishedName/isEquivalent(to:)``).
    public func isEquivalent(to other: RelativeDistinguishedName) -> Bool {
        attributes.matchesInAnyOrder(other.attributes) { $0.isEquivalent(to: $1) }
    }
}

extension AttributeTypeAndValue {
    /// Whether the pairs match with types compared ignoring ASCII case and
    /// values ignoring case and leading and trailing whitespace.
    func isEquivalent(to other: AttributeTypeAndValue) -> Bool {
        guard Self.typesMatch(type, other.type) else { return false }
        if value == other.value { return true }
        guard let text = value.string, let otherText = other.value.string else { return false }
        return Self.caseIgnoreForm(of: text) == Self.caseIgnoreForm(of: otherText)
    }

    /// `text` lowercased, without leading and trailing whitespace.
    private static func caseIgnoreForm(of text: String) -> String {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return text[start..<end].lowercased()
    }

    /// Whether two attribute types are the same ignoring ASCII case.
    static func typesMatch(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    /// `byte` with ASCII capitals made lowercase.
    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Feeds the type to `hasher` as `typesMatch` compares it.
    fileprivate func hashType(into hasher: inout Hasher) {
        for byte in type.utf8 { hasher.combine(Self.asciiLowercase(byte)) }
        hasher.combine(type.utf8.count)
    }
}

extension Array {
    /// Whether the two arrays hold matching elements, each element of one
    /// paired with a different element of the other, in any order.
    fileprivate func matchesInAnyOrder(_ other: [Element], by matches: (Element, Element) -> Bool) -> Bool {
        guard count == other.count else { return false }
        if count == 1 { return matches(self[0], other[0]) }
        var unpaired = [Int](other.indices)
        for element in self {
            guard let position = unpaired.firstIndex(where: { matches(element, other[$0]) }) else { return false }
            unpaired.remove(at: position)
        }
        return true
    }
}

// MARK: - Equality

extension AttributeTypeAndValue: Hashable {
    /// Whether the types match ignoring ASCII case and the values have the same bytes.
    public static func == (lhs: AttributeTypeAndValue, rhs: AttributeTypeAndValue) -> Bool {
        lhs.value == rhs.value && typesMatch(lhs.type, rhs.type)
    }

    /// Hashes the type ignoring ASCII case, and the value's bytes.
    public func hash(into hasher: inout Hasher) {
        hashType(into: &hasher)
        hasher.combine(value)
    }
}

extension RelativeDistinguishedName: Hashable {
    /// Whether the RDNs have equal pairs, in any order.
    public static func == (lhs: RelativeDistinguishedName, rhs: RelativeDistinguishedName) -> Bool {
        lhs.attributes.matchesInAnyOrder(rhs.attributes, by: ==)
    }

    /// Hashes the pairs without regard to their order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(attributes.count)
        hasher.combine(attributes.reduce(0) { $0 &+ $1.hashValue })
    }
}

/// Two DNs are equal when their RDNs are equal, in the same order.
extension DistinguishedName: Hashable {
    /// Whether the RDNs are equal, in the same order.
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        lhs.rdns == rhs.rdns
    }

    /// Hashes the RDNs.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rdns)
    }
}

// MARK: - String representation

extension DistinguishedName: CustomStringConvertible {
    /// The RFC 4514 string form, such as `cn=Ada Lovelace,dc=example,dc=com`;
    /// empty for the root.
    ///
    /// Values are escaped with ``escape(_:)-(LDAPValue)``, so parsing the
    /// string with ``init(parsing:)`` gives back an equal name.
    public var string: String {
        String(decoding: utf8, as: UTF8.self)
    }

    /// The RFC 4514 string form; the same as ``string``.
    public var description: String { string }

    /// The UTF-8 bytes of ``string``, made without making the string: escaping writes
    /// bytes that are not valid UTF-8 as hexadecimal, so the form is always valid UTF-8.
    /// For comparing many names byte by byte.
    public var utf8: [UInt8] {
        if let text { return text }
        var output: [UInt8] = []
        output.reserveCapacity(rdns.reduce(0) { $0 + $1.estimatedLength })
        append(to: &output)
        return output
    }

    /// Appends the string form to `output` as UTF-8.
    func append(to output: inout [UInt8]) {
        for (index, rdn) in rdns.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            rdn.append(to: &output)
        }
    }

    /// The RFC 4514 escaped form of an attribute value, as it appears after
    /// the `=` of an RDN.
    ///
    /// A backslash goes before `"`, `+`, `,`, `;`, `<`, `>`, `\` and `=`,
    /// before a leading `#` or space, and before a trailing space. ASCII
    /// control characters (NUL as `\00`, carriage return as `\0d`, and so
    /// on) and bytes that are not valid UTF-8 are written as `\` and two
    /// lowercase hexadecimal digits. Other characters, including non-ASCII
    /// letters, are written as they are.
    public static func escape(_ value: LDAPValue) -> String {
        var output: [UInt8] = []
        appendEscaped(value.bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The RFC 4514 escaped form of an attribute value given as text;
    /// see ``escape(_:)-(LDAPValue)``.
    public static func escape(_ value: String) -> String {
        escape(LDAPValue(value))
    }

    /// Appends the escaped form of `value` to `output`.
    static func appendEscaped(_ value: [UInt8], to output: inout [UInt8]) {
        value.withUnsafeBufferPointer { appendEscaped($0, to: &output) }
    }

    /// Appends the escaped form of `value`'s bytes, read where they are (an entry's values
    /// share one buffer, which ``LDAPValue/bytes`` would copy out for every RDN rendered).
    static func appendEscaped(_ value: LDAPValue, to output: inout [UInt8]) {
        value.withUnsafeBufferPointer { appendEscaped($0, to: &output) }
    }

    private static func appendEscaped(_ value: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var index = 0
        while index < value.count {
            let byte = value[index]
            var length = 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                 UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "="),
                 UInt8(ascii: "#") where index == 0,
                 UInt8(ascii: " ") where index == 0 || index == value.count - 1:
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0x00...0x1F, 0x7F:
                StringRepresentation.appendHexEscape(byte, to: &output)
            case 0x20...0x7E:
                output.append(byte)
            default:
                length = StringRepresentation.appendUTF8SequenceOrHexEscape(value, at: index, to: &output)
            }
            index += length
        }
    }
}

extension RelativeDistinguishedName: CustomStringConvertible {
    /// The RFC 4514 string form, such as `cn=Ada` or `ou=Sales+cn=Ada`.
    public var string: String {
        var output: [UInt8] = []
        append(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The RFC 4514 string form; the same as ``string``.
    public var description: String { string }

    /// The UTF-8 bytes of ``string``, made without making the string. A DN's
    /// ``DistinguishedName/utf8`` begins with those of its first RDN.
    public var utf8: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(estimatedLength)
        append(to: &output)
        return output
    }

    /// The length of the string form when no value needs escaping, with
    /// room for the separator that follows.
    var estimatedLength: Int {
        attributes.reduce(0) { $0 + $1.type.utf8.count + $1.value.count + 2 }
    }

    /// Appends the string form to `output` as UTF-8.
    func append(to output: inout [UInt8]) {
        for (index, pair) in attributes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: "+")) }
            pair.append(to: &output)
        }
    }
}

extension AttributeTypeAndValue: CustomStringConvertible {
    /// The RFC 4514 string form, such as `cn=Ada Lovelace`.
    public var string: String {
        var output: [UInt8] = []
        append(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The RFC 4514 string form; the same as ``string``.
    public var description: String { string }

    /// Appends the string form to `output` as UTF-8.
    func append(to output: inout [UInt8]) {
        output.append(contentsOf: type.utf8)
        output.append(UInt8(ascii: "="))
        DistinguishedName.appendEscaped(value, to: &output)
    }
}
