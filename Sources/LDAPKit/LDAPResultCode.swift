/// An LDAP result code: the server's `resultCode` (RFC 4511, section 4.1.9)
/// or one of libldap's negative client-side codes.
///
/// Codes are a struct with named static members rather than a closed enum, so a
/// code this library does not name (an extension's, or a newer RFC's) still
/// round-trips and `switch` statements keep compiling as codes are added.
/// Each named constant equals libldap's constant of the same meaning.
public struct LDAPResultCode: RawRepresentable, Hashable, Sendable {
    /// The numeric code, as on the wire (or libldap's negative value for client errors).
    public let rawValue: Int32

    /// Creates a code from its numeric value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The operation succeeded.
    ///
    /// The corresponding C constant is `LDAP_SUCCESS`.
    public static let success = LDAPResultCode(rawValue: 0)

    /// The operation was out of sequence or otherwise invalid.
    ///
    /// The corresponding C constant is `LDAP_OPERATIONS_ERROR`.
    public static let operationsError = LDAPResultCode(rawValue: 1)

    /// The server received data that is not well-formed.
    ///
    /// The corresponding C constant is `LDAP_PROTOCOL_ERROR`.
    public static let protocolError = LDAPResultCode(rawValue: 2)

    /// The server's time limit for the operation was exceeded.
    ///
    /// The corresponding C constant is `LDAP_TIMELIMIT_EXCEEDED`.
    public static let timeLimitExceeded = LDAPResultCode(rawValue: 3)

    /// More entries matched than the size limit allows.
    ///
    /// The corresponding C constant is `LDAP_SIZELIMIT_EXCEEDED`.
    public static let sizeLimitExceeded = LDAPResultCode(rawValue: 4)

    /// A compare operation found the assertion false.
    ///
    /// The corresponding C constant is `LDAP_COMPARE_FALSE`.
    public static let compareFalse = LDAPResultCode(rawValue: 5)

    /// A compare operation found the assertion true.
    ///
    /// The corresponding C constant is `LDAP_COMPARE_TRUE`.
    public static let compareTrue = LDAPResultCode(rawValue: 6)

    /// The authentication method is not supported.
    ///
    /// The corresponding C constant is `LDAP_AUTH_METHOD_NOT_SUPPORTED`.
    public static let authMethodNotSupported = LDAPResultCode(rawValue: 7)

    /// The server requires stronger authentication.
    ///
    /// The corresponding C constant is `LDAP_STRONG_AUTH_REQUIRED`.
    public static let strongerAuthRequired = LDAPResultCode(rawValue: 8)

    /// The server referred the client elsewhere.
    ///
    /// The corresponding C constant is `LDAP_REFERRAL`.
    public static let referral = LDAPResultCode(rawValue: 10)

    /// An administrative limit was exceeded.
    ///
    /// The corresponding C constant is `LDAP_ADMINLIMIT_EXCEEDED`.
    public static let adminLimitExceeded = LDAPResultCode(rawValue: 11)

    /// A control marked critical is not supported.
    ///
    /// The corresponding C constant is `LDAP_UNAVAILABLE_CRITICAL_EXTENSION`.
    public static let unavailableCriticalExtension = LDAPResultCode(rawValue: 12)

    /// The server requires a protected (TLS) connection.
    ///
    /// The corresponding C constant is `LDAP_CONFIDENTIALITY_REQUIRED`.
    public static let confidentialityRequired = LDAPResultCode(rawValue: 13)

    /// A SASL bind needs another round trip.
    ///
    /// The corresponding C constant is `LDAP_SASL_BIND_IN_PROGRESS`.
    public static let saslBindInProgress = LDAPResultCode(rawValue: 14)

    /// The entry has no such attribute or value.
    ///
    /// The corresponding C constant is `LDAP_NO_SUCH_ATTRIBUTE`.
    public static let noSuchAttribute = LDAPResultCode(rawValue: 16)

    /// The attribute type is not defined in the server's schema.
    ///
    /// The corresponding C constant is `LDAP_UNDEFINED_TYPE`.
    public static let undefinedAttributeType = LDAPResultCode(rawValue: 17)

    /// The attribute has no matching rule for the assertion.
    ///
    /// The corresponding C constant is `LDAP_INAPPROPRIATE_MATCHING`.
    public static let inappropriateMatching = LDAPResultCode(rawValue: 18)

    /// A value violates a constraint (for example, a single-valued attribute got two).
    ///
    /// The corresponding C constant is `LDAP_CONSTRAINT_VIOLATION`.
    public static let constraintViolation = LDAPResultCode(rawValue: 19)

    /// The attribute or value is already present.
    ///
    /// The corresponding C constant is `LDAP_TYPE_OR_VALUE_EXISTS`.
    public static let attributeOrValueExists = LDAPResultCode(rawValue: 20)

    /// A value does not conform to the attribute's syntax.
    ///
    /// The corresponding C constant is `LDAP_INVALID_SYNTAX`.
    public static let invalidAttributeSyntax = LDAPResultCode(rawValue: 21)

    /// The entry does not exist.
    ///
    /// The corresponding C constant is `LDAP_NO_SUCH_OBJECT`.
    public static let noSuchObject = LDAPResultCode(rawValue: 32)

    /// An alias points to a missing entry.
    ///
    /// The corresponding C constant is `LDAP_ALIAS_PROBLEM`.
    public static let aliasProblem = LDAPResultCode(rawValue: 33)

    /// A distinguished name is not well-formed.
    ///
    /// The corresponding C constant is `LDAP_INVALID_DN_SYNTAX`.
    public static let invalidDNSyntax = LDAPResultCode(rawValue: 34)

    /// An alias could not be dereferenced.
    ///
    /// The corresponding C constant is `LDAP_ALIAS_DEREF_PROBLEM`.
    public static let aliasDereferencingProblem = LDAPResultCode(rawValue: 36)

    /// The authentication is not appropriate for this identity.
    ///
    /// The corresponding C constant is `LDAP_INAPPROPRIATE_AUTH`.
    public static let inappropriateAuthentication = LDAPResultCode(rawValue: 48)

    /// The name or password is wrong.
    ///
    /// The corresponding C constant is `LDAP_INVALID_CREDENTIALS`.
    public static let invalidCredentials = LDAPResultCode(rawValue: 49)

    /// The bound identity may not do this.
    ///
    /// The corresponding C constant is `LDAP_INSUFFICIENT_ACCESS`.
    public static let insufficientAccessRights = LDAPResultCode(rawValue: 50)

    /// The server is too busy to serve the request.
    ///
    /// The corresponding C constant is `LDAP_BUSY`.
    public static let busy = LDAPResultCode(rawValue: 51)

    /// The server is shutting down or otherwise unavailable.
    ///
    /// The corresponding C constant is `LDAP_UNAVAILABLE`.
    public static let unavailable = LDAPResultCode(rawValue: 52)

    /// The server will not perform the operation.
    ///
    /// The corresponding C constant is `LDAP_UNWILLING_TO_PERFORM`.
    public static let unwillingToPerform = LDAPResultCode(rawValue: 53)

    /// The server detected a loop.
    ///
    /// The corresponding C constant is `LDAP_LOOP_DETECT`.
    public static let loopDetect = LDAPResultCode(rawValue: 54)

    /// The entry's name violates naming rules.
    ///
    /// The corresponding C constant is `LDAP_NAMING_VIOLATION`.
    public static let namingViolation = LDAPResultCode(rawValue: 64)

    /// The entry would violate its object classes (for example, a required attribute is missing).
    ///
    /// The corresponding C constant is `LDAP_OBJECT_CLASS_VIOLATION`.
    public static let objectClassViolation = LDAPResultCode(rawValue: 65)

    /// The operation is not allowed on an entry that has children.
    ///
    /// The corresponding C constant is `LDAP_NOT_ALLOWED_ON_NONLEAF`.
    public static let notAllowedOnNonLeaf = LDAPResultCode(rawValue: 66)

    /// The operation would remove a value of the entry's RDN.
    ///
    /// The corresponding C constant is `LDAP_NOT_ALLOWED_ON_RDN`.
    public static let notAllowedOnRDN = LDAPResultCode(rawValue: 67)

    /// An entry with that name already exists.
    ///
    /// The corresponding C constant is `LDAP_ALREADY_EXISTS`.
    public static let entryAlreadyExists = LDAPResultCode(rawValue: 68)

    /// Object class changes are not allowed.
    ///
    /// The corresponding C constant is `LDAP_NO_OBJECT_CLASS_MODS`.
    public static let objectClassModsProhibited = LDAPResultCode(rawValue: 69)

    /// The operation would affect several servers.
    ///
    /// The corresponding C constant is `LDAP_AFFECTS_MULTIPLE_DSAS`.
    public static let affectsMultipleDSAs = LDAPResultCode(rawValue: 71)

    /// The server reported an error of no other kind.
    ///
    /// The corresponding C constant is `LDAP_OTHER`.
    public static let other = LDAPResultCode(rawValue: 80)

    /// The operation was cancelled.
    ///
    /// The corresponding C constant is `LDAP_CANCELLED`.
    public static let canceled = LDAPResultCode(rawValue: 118)

    /// The operation to cancel is unknown.
    ///
    /// The corresponding C constant is `LDAP_NO_SUCH_OPERATION`.
    public static let noSuchOperation = LDAPResultCode(rawValue: 119)

    /// The operation is too far along to cancel.
    ///
    /// The corresponding C constant is `LDAP_TOO_LATE`.
    public static let tooLate = LDAPResultCode(rawValue: 120)

    /// The operation cannot be cancelled.
    ///
    /// The corresponding C constant is `LDAP_CANNOT_CANCEL`.
    public static let cannotCancel = LDAPResultCode(rawValue: 121)

    /// The assertion control's filter did not match the entry, so nothing was changed.
    ///
    /// The corresponding C constant is `LDAP_ASSERTION_FAILED`.
    public static let assertionFailed = LDAPResultCode(rawValue: 122)

    /// The server cannot bring the client's content up to date from the cookie of a
    /// content synchronization (RFC 4533 `e-syncRefreshRequired`): the client must start
    /// again with a full refresh, without a cookie.
    ///
    /// The corresponding C constant is `LDAP_SYNC_REFRESH_REQUIRED`.
    public static let syncRefreshRequired = LDAPResultCode(rawValue: 0x1000)

    /// The transaction named by an update or an End Transaction request is not
    /// (or no longer) open on this connection (RFC 5805).
    ///
    /// The corresponding C constant is `LDAP_TXN_ID_INVALID`.
    public static let invalidTransactionIdentifier = LDAPResultCode(rawValue: 0x4121)

    /// The server could not be reached or the connection was lost.
    ///
    /// The corresponding C constant is `LDAP_SERVER_DOWN`.
    public static let serverDown = LDAPResultCode(rawValue: -1)

    /// An error occurred in the client.
    ///
    /// The corresponding C constant is `LDAP_LOCAL_ERROR`.
    public static let localError = LDAPResultCode(rawValue: -2)

    /// A request could not be encoded.
    ///
    /// The corresponding C constant is `LDAP_ENCODING_ERROR`.
    public static let encodingError = LDAPResultCode(rawValue: -3)

    /// A response could not be decoded.
    ///
    /// The corresponding C constant is `LDAP_DECODING_ERROR`.
    public static let decodingError = LDAPResultCode(rawValue: -4)

    /// The operation did not complete within its time limit.
    ///
    /// The corresponding C constant is `LDAP_TIMEOUT`.
    public static let timeout = LDAPResultCode(rawValue: -5)

    /// The authentication method is unknown to the client.
    ///
    /// The corresponding C constant is `LDAP_AUTH_UNKNOWN`.
    public static let authUnknown = LDAPResultCode(rawValue: -6)

    /// A search filter is not well-formed.
    ///
    /// The corresponding C constant is `LDAP_FILTER_ERROR`.
    public static let filterError = LDAPResultCode(rawValue: -7)

    /// The caller cancelled the operation.
    ///
    /// The corresponding C constant is `LDAP_USER_CANCELLED`.
    public static let userCancelled = LDAPResultCode(rawValue: -8)

    /// A parameter was invalid.
    ///
    /// The corresponding C constant is `LDAP_PARAM_ERROR`.
    public static let paramError = LDAPResultCode(rawValue: -9)

    /// The client ran out of memory.
    ///
    /// The corresponding C constant is `LDAP_NO_MEMORY`.
    public static let noMemory = LDAPResultCode(rawValue: -10)

    /// The connection could not be established (for example, TLS failed).
    ///
    /// The corresponding C constant is `LDAP_CONNECT_ERROR`.
    public static let connectError = LDAPResultCode(rawValue: -11)

    /// The client does not support the request.
    ///
    /// The corresponding C constant is `LDAP_NOT_SUPPORTED`.
    public static let notSupported = LDAPResultCode(rawValue: -12)

    /// An expected response control is missing.
    ///
    /// The corresponding C constant is `LDAP_CONTROL_NOT_FOUND`.
    public static let controlNotFound = LDAPResultCode(rawValue: -13)

    /// The server returned no results.
    ///
    /// The corresponding C constant is `LDAP_NO_RESULTS_RETURNED`.
    public static let noResultsReturned = LDAPResultCode(rawValue: -14)

    /// The client detected a referral loop.
    ///
    /// The corresponding C constant is `LDAP_CLIENT_LOOP`.
    public static let clientLoop = LDAPResultCode(rawValue: -16)

    /// The referral hop limit was exceeded.
    ///
    /// The corresponding C constant is `LDAP_REFERRAL_LIMIT_EXCEEDED`.
    public static let referralLimitExceeded = LDAPResultCode(rawValue: -17)
}

extension LDAPResultCode {
    /// Every code this library names, with its Swift name, for tests and diagnostics.
    public static let allNamed: [(name: String, code: LDAPResultCode)] = [
        ("success", .success),
        ("operationsError", .operationsError),
        ("protocolError", .protocolError),
        ("timeLimitExceeded", .timeLimitExceeded),
        ("sizeLimitExceeded", .sizeLimitExceeded),
        ("compareFalse", .compareFalse),
        ("compareTrue", .compareTrue),
        ("authMethodNotSupported", .authMethodNotSupported),
        ("strongerAuthRequired", .strongerAuthRequired),
        ("referral", .referral),
        ("adminLimitExceeded", .adminLimitExceeded),
        ("unavailableCriticalExtension", .unavailableCriticalExtension),
        ("confidentialityRequired", .confidentialityRequired),
        ("saslBindInProgress", .saslBindInProgress),
        ("noSuchAttribute", .noSuchAttribute),
        ("undefinedAttributeType", .undefinedAttributeType),
        ("inappropriateMatching", .inappropriateMatching),
        ("constraintViolation", .constraintViolation),
        ("attributeOrValueExists", .attributeOrValueExists),
        ("invalidAttributeSyntax", .invalidAttributeSyntax),
        ("noSuchObject", .noSuchObject),
        ("aliasProblem", .aliasProblem),
        ("invalidDNSyntax", .invalidDNSyntax),
        ("aliasDereferencingProblem", .aliasDereferencingProblem),
        ("inappropriateAuthentication", .inappropriateAuthentication),
        ("invalidCredentials", .invalidCredentials),
        ("insufficientAccessRights", .insufficientAccessRights),
        ("busy", .busy),
        ("unavailable", .unavailable),
        ("unwillingToPerform", .unwillingToPerform),
        ("loopDetect", .loopDetect),
        ("namingViolation", .namingViolation),
        ("objectClassViolation", .objectClassViolation),
        ("notAllowedOnNonLeaf", .notAllowedOnNonLeaf),
        ("notAllowedOnRDN", .notAllowedOnRDN),
        ("entryAlreadyExists", .entryAlreadyExists),
        ("objectClassModsProhibited", .objectClassModsProhibited),
        ("affectsMultipleDSAs", .affectsMultipleDSAs),
        ("other", .other),
        ("canceled", .canceled),
        ("noSuchOperation", .noSuchOperation),
        ("tooLate", .tooLate),
        ("cannotCancel", .cannotCancel),
        ("assertionFailed", .assertionFailed),
        ("syncRefreshRequired", .syncRefreshRequired),
        ("invalidTransactionIdentifier", .invalidTransactionIdentifier),
        ("serverDown", .serverDown),
        ("localError", .localError),
        ("encodingError", .encodingError),
        ("decodingError", .decodingError),
        ("timeout", .timeout),
        ("authUnknown", .authUnknown),
        ("filterError", .filterError),
        ("userCancelled", .userCancelled),
        ("paramError", .paramError),
        ("noMemory", .noMemory),
        ("connectError", .connectError),
        ("notSupported", .notSupported),
        ("controlNotFound", .controlNotFound),
        ("noResultsReturned", .noResultsReturned),
        ("clientLoop", .clientLoop),
        ("referralLimitExceeded", .referralLimitExceeded),
    ]

    /// The code's Swift name (for example `noSuchObject`), or its number when unnamed.
    public var name: String {
        Self.allNamed.first { $0.code == self }?.name ?? "code \(rawValue)"
    }

    /// Whether the code reports success or a compare outcome rather than an error.
    public var isSuccess: Bool {
        self == .success || self == .compareTrue || self == .compareFalse
    }

    /// Whether the code comes from the client library (negative) rather than the server.
    public var isClientSide: Bool { rawValue < 0 }
}

extension LDAPResultCode: CustomStringConvertible {
    /// The code's name and number, for example `noSuchObject (32)`.
    public var description: String { "\(name) (\(rawValue))" }
}
