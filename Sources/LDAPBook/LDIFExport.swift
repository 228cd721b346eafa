import LDAPKit

/// People as LDIF, one content record after another, as `ldapsearch -LLL` prints them: the
/// user attributes that ldapadd, slapadd and ldapbook import take back, never secrets
/// (passwords, keys; ``FieldRegistry/isSecret(_:)``) and not `entryUUID`, which an export
/// reads for the vCard and JSON UID only.
///
/// Whether an attribute is written is worked out once per name and kept here, one export's
/// own, so that writing every attribute of every entry asks nothing of the registry.
public struct LDIFExport {
    /// The fields of the directory the people come from.
    public let registry: FieldRegistry
    private var written = NameMemo<Bool>()

    /// An export of people of the directory `registry` describes.
    public init(registry: FieldRegistry) {
        self.registry = registry
    }

    /// Appends `entry`'s record to `bytes`.
    public mutating func append(_ entry: LDAPEntry, to bytes: inout [UInt8]) {
        // Held here while the entry is written, so that the closure owns it alone.
        var written = NameMemo<Bool>()
        swap(&written, &self.written)
        defer { swap(&written, &self.written) }
        let registry = self.registry
        LDIFWriter.append(entry, to: &bytes) { attribute in
            if let known = written.answer(for: attribute.name) { return known }
            let writes = !attribute.isNamed("entryUUID") && !registry.isSecret(attribute.name)
            written.remember(writes, for: attribute.name)
            return writes
        }
    }
}
