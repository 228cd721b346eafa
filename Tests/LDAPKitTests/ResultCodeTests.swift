import CLDAP
import LDAPKit
import Testing

/// Each Swift result code equals libldap's C constant of the same meaning.
@Suite struct ResultCodeTests {
    static let pairs: [(LDAPResultCode, Int32, String)] = [
        (.success, LDAP_SUCCESS, "LDAP_SUCCESS"),
        (.operationsError, LDAP_OPERATIONS_ERROR, "LDAP_OPERATIONS_ERROR"),
        (.protocolError, LDAP_PROTOCOL_ERROR, "LDAP_PROTOCOL_ERROR"),
        (.timeLimitExceeded, LDAP_TIMELIMIT_EXCEEDED, "LDAP_TIMELIMIT_EXCEEDED"),
        (.sizeLimitExceeded, LDAP_SIZELIMIT_EXCEEDED, "LDAP_SIZELIMIT_EXCEEDED"),
        (.compareFalse, LDAP_COMPARE_FALSE, "LDAP_COMPARE_FALSE"),
        (.compareTrue, LDAP_COMPARE_TRUE, "LDAP_COMPARE_TRUE"),
        (.authMethodNotSupported, LDAP_AUTH_METHOD_NOT_SUPPORTED, "LDAP_AUTH_METHOD_NOT_SUPPORTED"),
        (.strongerAuthRequired, LDAP_STRONG_AUTH_REQUIRED, "LDAP_STRONG_AUTH_REQUIRED"),
        (.referral, LDAP_REFERRAL, "LDAP_REFERRAL"),
        (.adminLimitExceeded, LDAP_ADMINLIMIT_EXCEEDED, "LDAP_ADMINLIMIT_EXCEEDED"),
        (.unavailableCriticalExtension, LDAP_UNAVAILABLE_CRITICAL_EXTENSION, "LDAP_UNAVAILABLE_CRITICAL_EXTENSION"),
        (.confidentialityRequired, LDAP_CONFIDENTIALITY_REQUIRED, "LDAP_CONFIDENTIALITY_REQUIRED"),
        (.saslBindInProgress, LDAP_SASL_BIND_IN_PROGRESS, "LDAP_SASL_BIND_IN_PROGRESS"),
        (.noSuchAttribute, LDAP_NO_SUCH_ATTRIBUTE, "LDAP_NO_SUCH_ATTRIBUTE"),
        (.undefinedAttributeType, LDAP_UNDEFINED_TYPE, "LDAP_UNDEFINED_TYPE"),
        (.inappropriateMatching, LDAP_INAPPROPRIATE_MATCHING, "LDAP_INAPPROPRIATE_MATCHING"),
        (.constraintViolation, LDAP_CONSTRAINT_VIOLATION, "LDAP_CONSTRAINT_VIOLATION"),
        (.attributeOrValueExists, LDAP_TYPE_OR_VALUE_EXISTS, "LDAP_TYPE_OR_VALUE_EXISTS"),
        (.invalidAttributeSyntax, LDAP_INVALID_SYNTAX, "LDAP_INVALID_SYNTAX"),
        (.noSuchObject, LDAP_NO_SUCH_OBJECT, "LDAP_NO_SUCH_OBJECT"),
        (.aliasProblem, LDAP_ALIAS_PROBLEM, "LDAP_ALIAS_PROBLEM"),
        (.invalidDNSyntax, LDAP_INVALID_DN_SYNTAX, "LDAP_INVALID_DN_SYNTAX"),
        (.aliasDereferencingProblem, LDAP_ALIAS_DEREF_PROBLEM, "LDAP_ALIAS_DEREF_PROBLEM"),
        (.inappropriateAuthentication, LDAP_INAPPROPRIATE_AUTH, "LDAP_INAPPROPRIATE_AUTH"),
        (.invalidCredentials, LDAP_INVALID_CREDENTIALS, "LDAP_INVALID_CREDENTIALS"),
        (.insufficientAccessRights, LDAP_INSUFFICIENT_ACCESS, "LDAP_INSUFFICIENT_ACCESS"),
        (.busy, LDAP_BUSY, "LDAP_BUSY"),
        (.unavailable, LDAP_UNAVAILABLE, "LDAP_UNAVAILABLE"),
        (.unwillingToPerform, LDAP_UNWILLING_TO_PERFORM, "LDAP_UNWILLING_TO_PERFORM"),
        (.loopDetect, LDAP_LOOP_DETECT, "LDAP_LOOP_DETECT"),
        (.namingViolation, LDAP_NAMING_VIOLATION, "LDAP_NAMING_VIOLATION"),
        (.objectClassViolation, LDAP_OBJECT_CLASS_VIOLATION, "LDAP_OBJECT_CLASS_VIOLATION"),
        (.notAllowedOnNonLeaf, LDAP_NOT_ALLOWED_ON_NONLEAF, "LDAP_NOT_ALLOWED_ON_NONLEAF"),
        (.notAllowedOnRDN, LDAP_NOT_ALLOWED_ON_RDN, "LDAP_NOT_ALLOWED_ON_RDN"),
        (.entryAlreadyExists, LDAP_ALREADY_EXISTS, "LDAP_ALREADY_EXISTS"),
        (.objectClassModsProhibited, LDAP_NO_OBJECT_CLASS_MODS, "LDAP_NO_OBJECT_CLASS_MODS"),
        (.affectsMultipleDSAs, LDAP_AFFECTS_MULTIPLE_DSAS, "LDAP_AFFECTS_MULTIPLE_DSAS"),
        (.other, LDAP_OTHER, "LDAP_OTHER"),
        (.canceled, LDAP_CANCELLED, "LDAP_CANCELLED"),
        (.noSuchOperation, LDAP_NO_SUCH_OPERATION, "LDAP_NO_SUCH_OPERATION"),
        (.tooLate, LDAP_TOO_LATE, "LDAP_TOO_LATE"),
        (.cannotCancel, LDAP_CANNOT_CANCEL, "LDAP_CANNOT_CANCEL"),
        (.assertionFailed, LDAP_ASSERTION_FAILED, "LDAP_ASSERTION_FAILED"),
        (.syncRefreshRequired, LDAP_SYNC_REFRESH_REQUIRED, "LDAP_SYNC_REFRESH_REQUIRED"),
        (.invalidTransactionIdentifier, LDAP_TXN_ID_INVALID, "LDAP_TXN_ID_INVALID"),
        (.serverDown, LDAP_SERVER_DOWN, "LDAP_SERVER_DOWN"),
        (.localError, LDAP_LOCAL_ERROR, "LDAP_LOCAL_ERROR"),
        (.encodingError, LDAP_ENCODING_ERROR, "LDAP_ENCODING_ERROR"),
        (.decodingError, LDAP_DECODING_ERROR, "LDAP_DECODING_ERROR"),
        (.timeout, LDAP_TIMEOUT, "LDAP_TIMEOUT"),
        (.authUnknown, LDAP_AUTH_UNKNOWN, "LDAP_AUTH_UNKNOWN"),
        (.filterError, LDAP_FILTER_ERROR, "LDAP_FILTER_ERROR"),
        (.userCancelled, LDAP_USER_CANCELLED, "LDAP_USER_CANCELLED"),
        (.paramError, LDAP_PARAM_ERROR, "LDAP_PARAM_ERROR"),
        (.noMemory, LDAP_NO_MEMORY, "LDAP_NO_MEMORY"),
        (.connectError, LDAP_CONNECT_ERROR, "LDAP_CONNECT_ERROR"),
        (.notSupported, LDAP_NOT_SUPPORTED, "LDAP_NOT_SUPPORTED"),
        (.controlNotFound, LDAP_CONTROL_NOT_FOUND, "LDAP_CONTROL_NOT_FOUND"),
        (.noResultsReturned, LDAP_NO_RESULTS_RETURNED, "LDAP_NO_RESULTS_RETURNED"),
        (.clientLoop, LDAP_CLIENT_LOOP, "LDAP_CLIENT_LOOP"),
        (.referralLimitExceeded, LDAP_REFERRAL_LIMIT_EXCEEDED, "LDAP_REFERRAL_LIMIT_EXCEEDED"),
    ]

    @Test func everyNamedCodeEqualsTheCConstant() {
        for (swift, c, cName) in Self.pairs {
            #expect(swift.rawValue == c, "\(swift) should equal \(cName) = \(c)")
        }
        #expect(Self.pairs.count == LDAPResultCode.allNamed.count)
    }

    @Test func namesAreUnique() {
        let names = LDAPResultCode.allNamed.map(\.name)
        #expect(Set(names).count == names.count)
        let codes = LDAPResultCode.allNamed.map(\.code)
        #expect(Set(codes).count == codes.count)
    }

    @Test func descriptionNamesTheCode() {
        #expect(LDAPResultCode.noSuchObject.description == "noSuchObject (32)")
        #expect(LDAPResultCode(rawValue: 4242).description == "code 4242 (4242)")
        #expect(LDAPResultCode(rawValue: 4096) == .syncRefreshRequired)
        #expect(LDAPResultCode.syncRefreshRequired.description == "syncRefreshRequired (4096)")
        #expect(LDAPResultCode.timeout.isClientSide)
        #expect(!LDAPResultCode.busy.isClientSide)
    }
}
