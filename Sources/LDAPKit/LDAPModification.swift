internal import CLDAP

/// One change of a modify request (RFC 4511 section 4.6). Several changes in
/// one ``LDAPConnection/modify(_:_:controls:)`` call apply atomically.
public struct LDAPModification: Sendable, Hashable {
    /// What the change does with its values.
    public enum Operation: Sendable, Hashable {
        /// Adds the values; fails with `attributeOrValueExists` if one is present
        /// (unless the permissive-modify control is sent).
        case add
        /// Deletes the values, or the whole attribute when no value is given;
        /// fails with `noSuchAttribute` if a value is absent.
        case delete
        /// Replaces all values with the given ones; no values removes the attribute.
        case replace
        /// Adds the given number to the single integer value (RFC 4525).
        case increment

        var cValue: Int32 {
            switch self {
            case .add: LDAP_MOD_ADD
            case .delete: LDAP_MOD_DELETE
            case .replace: LDAP_MOD_REPLACE
            case .increment: LDAP_MOD_INCREMENT
            }
        }
    }

    /// What the change does.
    public var operation: Operation
    /// The attribute description it changes.
    public var attribute: String
    /// The values it adds, deletes or sets.
    public var values: [LDAPValue]

    /// Creates a change.
    public init(_ operation: Operation, _ attribute: String, values: [LDAPValue]) {
        self.operation = operation
        self.attribute = attribute
        self.values = values
    }

    /// Adds `values` to `attribute`.
    public static func add(_ attribute: String, _ values: LDAPValue...) -> LDAPModification {
        LDAPModification(.add, attribute, values: values)
    }

    /// Adds `values` to `attribute`.
    public static func add(_ attribute: String, values: [LDAPValue]) -> LDAPModification {
        LDAPModification(.add, attribute, values: values)
    }

    /// Deletes `values` from `attribute`; with no values, deletes the attribute.
    public static func delete(_ attribute: String, _ values: LDAPValue...) -> LDAPModification {
        LDAPModification(.delete, attribute, values: values)
    }

    /// Deletes `values` from `attribute`; with no values, deletes the attribute.
    public static func delete(_ attribute: String, values: [LDAPValue]) -> LDAPModification {
        LDAPModification(.delete, attribute, values: values)
    }

    /// Replaces every value of `attribute` with `values`.
    public static func replace(_ attribute: String, _ values: LDAPValue...) -> LDAPModification {
        LDAPModification(.replace, attribute, values: values)
    }

    /// Replaces every value of `attribute` with `values`.
    public static func replace(_ attribute: String, values: [LDAPValue]) -> LDAPModification {
        LDAPModification(.replace, attribute, values: values)
    }

    /// Adds `amount` to the integer value of `attribute`.
    public static func increment(_ attribute: String, by amount: Int) -> LDAPModification {
        LDAPModification(.increment, attribute, values: [LDAPValue(String(amount))])
    }
}
