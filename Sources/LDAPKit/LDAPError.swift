/// An error from an LDAP operation: the result code, the server's own
/// diagnostic message and matched DN, and what was being done.
///
/// Callers switch on ``code``; people read ``description``, which never
/// contains a password or request value.
public struct LDAPError: Error, Sendable, Hashable {
    /// The result code, named as in RFC 4511 (or libldap's client-side codes).
    public typealias Code = LDAPResultCode

    /// Why the operation failed.
    public var code: Code

    /// The server's diagnostic message (`diagnosticMessage`), or the client's
    /// explanation for client-side errors; empty when there is none.
    public var message: String

    /// The `matchedDN` of the response: for `noSuchObject`, the deepest
    /// existing ancestor of the requested entry; empty when not given.
    public var matchedDN: String

    /// The operation that failed, such as `search` or `modify`; empty when unknown.
    public var operation: String

    /// The server (URI) the operation was sent to, when known.
    public var server: String

    /// A local file the client could not read (a CA certificate, a client certificate
    /// or its key), when that is why the operation failed.
    public var unreadableFile: String?

    /// Creates an error.
    public init(
        _ code: Code,
        message: String = "",
        matchedDN: String = "",
        operation: String = "",
        server: String = "",
        unreadableFile: String? = nil
    ) {
        self.code = code
        self.message = message
        self.matchedDN = matchedDN
        self.operation = operation
        self.server = server
        self.unreadableFile = unreadableFile
    }
}

extension LDAPError {
    /// The server could not be reached, or the connection to it was lost.
    public var isServerDown: Bool {
        code == .serverDown || code == .connectError || code == .unavailable
    }

    /// The operation did not finish within its time limit (the client's or the server's).
    public var isTimeout: Bool { code == .timeout || code == .timeLimitExceeded }

    /// The bind was refused: wrong name or password.
    public var isInvalidCredentials: Bool { code == .invalidCredentials }

    /// The bound identity is not allowed to do this.
    public var isInsufficientAccess: Bool { code == .insufficientAccessRights }

    /// The entry (or an ancestor in the DN) does not exist.
    public var isNoSuchObject: Bool { code == .noSuchObject }

    /// An entry with that DN already exists, or the value is already present.
    public var isAlreadyExists: Bool { code == .entryAlreadyExists || code == .attributeOrValueExists }

    /// A value or entry breaks the schema: syntax, constraint, object class or naming rules.
    public var isSchemaViolation: Bool {
        [.constraintViolation, .invalidAttributeSyntax, .objectClassViolation,
         .namingViolation, .undefinedAttributeType, .invalidDNSyntax].contains(code)
    }

    /// An assertion control's filter did not match, so the entry was left unchanged.
    public var isAssertionFailed: Bool { code == .assertionFailed }

    /// Whether the next server of a list may be tried: this one could not be reached, did
    /// not answer in time, failed TLS, or said it is unavailable.
    var leavesServer: Bool {
        unreadableFile == nil && (isServerDown || code == .timeout || code == .busy)
    }

    /// The caller cancelled the operation (task cancellation).
    public var isCancelled: Bool { code == .userCancelled || code == .canceled }
}

extension LDAPError: CustomStringConvertible {
    /// A one-line explanation: operation, server, code, and the server's message.
    public var description: String {
        var text = operation.isEmpty ? "LDAP error" : "LDAP \(operation) failed"
        if !server.isEmpty { text += " on \(server)" }
        text += ": \(code.name) (\(code.rawValue))"
        if !message.isEmpty { text += ": \(message)" }
        if !matchedDN.isEmpty { text += " (matched DN: \(matchedDN))" }
        return text
    }
}
