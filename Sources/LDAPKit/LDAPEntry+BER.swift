#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension LDAPEntry {
    /// The attributes of a search result entry, from the contents of its encoded
    /// `PartialAttributeList` (RFC 4511 section 4.5.2): a `PartialAttribute` after
    /// another, each `SEQUENCE { type OCTET STRING, vals SET OF OCTET STRING }`.
    ///
    /// The values are slices of `list`, which they share: one buffer for the whole
    /// entry. Malformed input throws a ``LDAPResultCode/decodingError``.
    static func attributes(decodingList list: [UInt8]) throws(LDAPError) -> [LDAPAttribute] {
        var names = RecentAttributeNames()
        return try attributes(decodingList: list, names: &names)
    }

    /// ``attributes(decodingList:)``, with the names of the entry decoded before (`names`)
    /// taken again where this entry's are the same, instead of made anew.
    static func attributes(decodingList list: [UInt8], names: inout RecentAttributeNames) throws(LDAPError) -> [LDAPAttribute] {
        // Read with integer offsets into the list, with no slice per element: every entry
        // of every search comes through here.
        try list.withUnsafeBufferPointer { bytes throws(LDAPError) in
            var attributes: [LDAPAttribute] = []
            // As many as the entry before had, most likely: made at that size, not grown to it.
            attributes.reserveCapacity(names.count)
            var offset = 0
            while offset < bytes.count {
                // PartialAttribute ::= SEQUENCE { type AttributeDescription, vals SET OF value }
                let attribute = try BERReader.element(.sequence, in: bytes, at: offset, end: bytes.count)
                offset = attribute.upperBound
                let name = try BERReader.element(.octetString, in: bytes, at: attribute.lowerBound, end: attribute.upperBound)
                let set = try BERReader.element(.set, in: bytes, at: name.upperBound, end: attribute.upperBound)
                guard set.upperBound == attribute.upperBound else {
                    throw BERReader.malformed("\(attribute.upperBound - set.upperBound) unexpected bytes after the last element")
                }
                var values: [LDAPValue]
                if set.isEmpty {
                    values = []
                } else {
                    let first = try BERReader.element(.octetString, in: bytes, at: set.lowerBound, end: set.upperBound)
                    // Most attributes hold one value: an array made for it, not grown to it.
                    values = [LDAPValue(sharing: list, range: first)]
                    var valueOffset = first.upperBound
                    while valueOffset < set.upperBound {
                        let value = try BERReader.element(.octetString, in: bytes, at: valueOffset, end: set.upperBound)
                        values.append(LDAPValue(sharing: list, range: value))
                        valueOffset = value.upperBound
                    }
                }
                let nameText = names.name(at: attributes.count, UnsafeBufferPointer(rebasing: bytes[name]))
                attributes.append(LDAPAttribute(name: nameText, values: values))
            }
            return attributes
        }
    }
}

/// The attribute names of the entry decoded last, in order: the entries of a search mostly
/// list the same attributes in the same order, so each name is compared with the one in the
/// same place before and, when equal, shared rather than decoded again (one string per
/// attribute of every entry was a tenth of decoding an entry; callgrind, BENCHMARKS.md
/// workload 5).
struct RecentAttributeNames {
    private var names: [String] = []

    /// How many attributes the entry decoded last had (or more, an entry before it).
    var count: Int { names.count }

    /// The name whose UTF-8 is `bytes` (invalid bytes repaired, as `String(decoding:as:)`
    /// does), for the attribute at `index` of the entry being decoded.
    mutating func name(at index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if index < names.count {
            let known = names[index]
            let same = known.utf8.count == bytes.count && (bytes.isEmpty || known.utf8.withContiguousStorageIfAvailable {
                memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            } == true)
            if same { return known }
        }
        let name = String(decoding: bytes, as: UTF8.self)
        if index < names.count {
            names[index] = name
        } else if index == names.count {
            names.append(name)
        }
        return name
    }
}
