extension LDAPEntry {
    /// The attributes of a search result entry, from the contents of its encoded
    /// `PartialAttributeList` (RFC 4511 section 4.5.2): a `PartialAttribute` after
    /// another, each `SEQUENCE { type OCTET STRING, vals SET OF OCTET STRING }`.
    ///
    /// The values are slices of `list`, which they share: one buffer for the whole
    /// entry. Malformed input throws a ``LDAPResultCode/decodingError``.
    static func attributes(decodingList list: [UInt8]) throws(LDAPError) -> [LDAPAttribute] {
        var attributes: [LDAPAttribute] = []
        var reader = BERReader(list)
        do {
            while !reader.isAtEnd {
                var attribute = try reader.readSequence()
                let name = try attribute.readElement(.octetString)
                var set = try attribute.readSet()
                try attribute.expectEnd()
                var values: [LDAPValue] = []
                while !set.isAtEnd {
                    let contents = try set.readElement(.octetString)
                    values.append(LDAPValue(sharing: list, range: contents.startIndex..<contents.endIndex))
                }
                attributes.append(LDAPAttribute(name: String(decoding: name, as: UTF8.self), values: values))
            }
        } catch {
            // BERReader throws nothing but LDAPError.
            throw error as? LDAPError ?? LDAPError(.decodingError, message: "\(error)")
        }
        return attributes
    }
}
