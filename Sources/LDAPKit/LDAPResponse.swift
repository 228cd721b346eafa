/// The server's result for a completed operation (RFC 4511 `LDAPResult`).
///
/// Operations that fail throw ``LDAPError`` instead; a response is what a
/// successful operation returns, with its controls (for example the entry a
/// post-read control asked for).
public struct LDAPResponse: Sendable, Hashable {
    /// The result code: `success`, or `compareTrue`/`compareFalse` for compares.
    public var code: LDAPResultCode
    /// The server's diagnostic message, usually empty on success.
    public var message: String
    /// The matched DN, usually empty on success.
    public var matchedDN: String
    /// Referral URIs, when the server sent any.
    public var referrals: [String]
    /// The response controls.
    public var controls: [LDAPControl]

    /// Creates a response.
    public init(
        code: LDAPResultCode,
        message: String = "",
        matchedDN: String = "",
        referrals: [String] = [],
        controls: [LDAPControl] = []
    ) {
        self.code = code
        self.message = message
        self.matchedDN = matchedDN
        self.referrals = referrals
        self.controls = controls
    }

    /// The entry as it was before the change, returned for a pre-read control (RFC 4527).
    public func preReadEntry() throws -> LDAPEntry? {
        try controls.preReadEntry()
    }

    /// The entry as it is after the change, returned for a post-read control (RFC 4527).
    public func postReadEntry() throws -> LDAPEntry? {
        try controls.postReadEntry()
    }
}

/// The response to an extended operation (RFC 4511 section 4.12).
public struct LDAPExtendedResponse: Sendable, Hashable {
    /// The result.
    public var response: LDAPResponse
    /// The response name (an OID), when the server sent one.
    public var oid: String?
    /// The response value, when the server sent one.
    public var value: [UInt8]?

    /// Creates an extended response.
    public init(response: LDAPResponse, oid: String? = nil, value: [UInt8]? = nil) {
        self.response = response
        self.oid = oid
        self.value = value
    }
}

/// How deep a search looks below its base (RFC 4511 section 4.5.1.2).
public enum SearchScope: Sendable, Hashable {
    /// The base entry only.
    case base
    /// The base's immediate children, not the base itself.
    case oneLevel
    /// The base and everything below it.
    case subtree
    /// Everything below the base, not the base itself.
    case children
}
