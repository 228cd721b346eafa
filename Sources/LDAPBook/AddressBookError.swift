import LDAPKit

/// An error of the address-book layer: a value or name that cannot be
/// written, a field the directory cannot hold. Errors from the directory
/// itself are ``LDAPKit/LDAPError``s and pass through unchanged.
///
/// Callers switch on ``code``; people read ``message``, which names the field
/// and the rule that was broken. Nothing is sent to the server when one of
/// these is thrown by validation.
public struct AddressBookError: Error, Sendable, Hashable {
    /// Why the operation could not be done.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String

        /// Creates a code.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A value does not satisfy its field's rule (email, phone, date, ...).
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A single-valued field was given more than one value.
        public static let tooManyValues = Code(rawValue: "tooManyValues")
        /// The field name cannot name a field.
        public static let invalidFieldName = Code(rawValue: "invalidFieldName")
        /// A person's name is missing or unusable (for example, no surname).
        public static let invalidName = Code(rawValue: "invalidName")
        /// The directory lacks the ldapbook schema this field needs.
        public static let schemaMissing = Code(rawValue: "schemaMissing")
        /// ldapbook does not write this field (see ``WriteRestriction``), or the name
        /// is a secret, which it neither reads nor writes (see ``SecretAttributes``).
        public static let notWritable = Code(rawValue: "notWritable")
        /// The entry is not there (any more).
        public static let notFound = Code(rawValue: "notFound")
        /// No free name for a new entry could be found.
        public static let noFreeName = Code(rawValue: "noFreeName")
        /// Someone else changed the entry while this change was being made, so it was
        /// not (or not entirely) made; look again.
        public static let changedMeanwhile = Code(rawValue: "changedMeanwhile")
        /// The local index of people cannot be made or read (its folder, its file).
        public static let indexUnavailable = Code(rawValue: "indexUnavailable")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// Why the operation could not be done.
    public var code: Code
    /// What went wrong, naming the field and the rule.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension AddressBookError: CustomStringConvertible {
    /// The message.
    public var description: String { message }
}
