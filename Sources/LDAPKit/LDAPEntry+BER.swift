extension LDAPEntry {
    /// The attributes of a search result entry, from the contents of its encoded
    /// `PartialAttributeList` (RFC 4511 section 4.5.2): a `PartialAttribute` after
    /// another, each `SEQUENCE { type OCTET STRING, vals SET OF OCTET STRING }`.
    ///
    /// The values are slices of `list`, which they share: one buffer for the whole
    /// entry. Malformed input throws a ``LDAPResultCode/decodingError``.
    static func attributes(decodingList list: [UInt8]) throws(LDAPError) -> [LDAPAttribute] {
        // Read with integer offsets into the list, with no slice per element: every entry
        // of every search comes through here.
        try list.withUnsafeBufferPointer { bytes throws(LDAPError) in
            var attributes: [LDAPAttribute] = []
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
                var values: [LDAPValue] = []
                var valueOffset = set.lowerBound
                while valueOffset < set.upperBound {
                    let value = try BERReader.element(.octetString, in: bytes, at: valueOffset, end: set.upperBound)
                    values.append(LDAPValue(sharing: list, range: value))
                    valueOffset = value.upperBound
                }
                let nameText = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
                attributes.append(LDAPAttribute(name: nameText, values: values))
            }
            return attributes
        }
    }
}
