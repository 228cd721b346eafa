extension LDIFRecord: Hashable {
    /// Whether the records are of the same kind with equal parts: DNs as
    /// ``DistinguishedName`` compares them, attributes and modifications
    /// with their names as spelled and their values byte for byte, in the
    /// same order, and the same controls in the same order.
    public static func == (lhs: LDIFRecord, rhs: LDIFRecord) -> Bool {
        switch (lhs, rhs) {
        case let (.content(left), .content(right)):
            left.hasSameContent(as: right)
        case let (.add(left, leftControls), .add(right, rightControls)):
            left.hasSameContent(as: right) && leftControls == rightControls
        case let (.delete(left, leftControls), .delete(right, rightControls)):
            left == right && leftControls == rightControls
        case let (.modify(left, leftChanges, leftControls), .modify(right, rightChanges, rightControls)):
            left == right && leftChanges == rightChanges && leftControls == rightControls
        case let (.rename(left, leftRDN, leftDelete, leftSuperior, leftControls),
                  .rename(right, rightRDN, rightDelete, rightSuperior, rightControls)):
            left == right && leftRDN == rightRDN && leftDelete == rightDelete
                && leftSuperior == rightSuperior && leftControls == rightControls
        default:
            false
        }
    }

    /// Hashes the kind of record and the parts that ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .content(let entry):
            hasher.combine(0)
            entry.hashContent(into: &hasher)
        case .add(let entry, let controls):
            hasher.combine(1)
            entry.hashContent(into: &hasher)
            hasher.combine(controls)
        case .delete(let dn, let controls):
            hasher.combine(2)
            hasher.combine(dn)
            hasher.combine(controls)
        case .modify(let dn, let changes, let controls):
            hasher.combine(3)
            hasher.combine(dn)
            hasher.combine(changes)
            hasher.combine(controls)
        case .rename(let dn, let newRDN, let deleteOldRDN, let newSuperior, let controls):
            hasher.combine(4)
            hasher.combine(dn)
            hasher.combine(newRDN)
            hasher.combine(deleteOldRDN)
            hasher.combine(newSuperior)
            hasher.combine(controls)
        }
    }
}

extension LDAPEntry {
    /// Whether the entries have equal DNs and the same attributes in the same order.
    fileprivate func hasSameContent(as other: LDAPEntry) -> Bool {
        dn == other.dn && attributes == other.attributes
    }

    /// Feeds the DN and attributes to `hasher`.
    fileprivate func hashContent(into hasher: inout Hasher) {
        hasher.combine(dn)
        hasher.combine(attributes)
    }
}
