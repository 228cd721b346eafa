/// A transaction (RFC 5805): the updates sent in it take effect together, when it is
/// committed, or not at all.
///
/// Start one with ``LDAPConnection/startTransaction()``, send adds, modifies, deletes
/// and renames with its ``control`` (the server accepts each at once and makes none of
/// them yet), then ``LDAPConnection/commit(_:)`` or ``LDAPConnection/abort(_:)`` it.
/// Until the commit, searches do not see the updates. A server makes all of a
/// transaction's updates in one write to its database, which makes many small adds far
/// faster than sending them one by one (each a write of its own).
///
/// ```swift
/// let transaction = try await directory.startTransaction()
/// for entry in entries {
///     try await directory.add(entry, controls: [transaction.control])
/// }
/// try await directory.commit(transaction)
/// ```
///
/// A transaction belongs to the connection it was started on: when that connection is
/// lost, the server forgets it, and updates sent with its control afterwards are refused.
///
/// Use them with care against a shared server: Debian 12's slapd (OpenLDAP 2.5.13)
/// crashes (a null pointer in `do_add`) when two clients run transactions adding the same
/// entries at once, and when a connection sends a transaction's updates without waiting
/// for each one's reply; the server is then down for everyone. ldapbook's own import uses
/// no transactions for that reason. `TransactionTests` runs them one client at a time,
/// one update at a time.
public struct LDAPTransaction: Sendable, Hashable {
    /// The identifier the server gave the transaction (OpenLDAP's is empty: it keeps one
    /// transaction per connection).
    public let identifier: [UInt8]

    /// Creates a transaction value from the identifier a server returned.
    public init(identifier: [UInt8]) {
        self.identifier = identifier
    }

    /// The Transaction Specification control that sends an update in this transaction.
    /// It is critical, as RFC 5805 requires: a server that cannot honor it refuses the
    /// update rather than make it at once.
    public var control: LDAPControl {
        LDAPControl(oid: LDAPControl.OID.transactionSpecification, isCritical: true, value: identifier)
    }
}

extension LDAPTransaction {
    /// The OID of the Start Transaction extended operation (RFC 5805).
    public static let startOID = "1.3.6.1.1.21.1"
    /// The OID of the End Transaction extended operation (RFC 5805).
    public static let endOID = "1.3.6.1.1.21.3"

    /// The value of an End Transaction request: `SEQUENCE { commit BOOLEAN DEFAULT TRUE,
    /// identifier OCTET STRING }`, with the default left out as DER requires.
    static func endRequestValue(identifier: [UInt8], commit: Bool) -> [UInt8] {
        var writer = BERWriter()
        writer.writeSequence { request in
            if !commit { request.writeBoolean(false) }
            request.writeOctetString(identifier)
        }
        return writer.bytes
    }
}

extension LDAPConnection {
    /// Starts a transaction (RFC 5805) on this connection.
    ///
    /// - Throws: ``LDAPError``; a server without transactions answers `protocolError`
    ///   or `unavailableCriticalExtension`, and OpenLDAP answers `busy` while the
    ///   connection has a transaction open already.
    ///
    /// The corresponding C function is `ldap_txn_start`.
    public func startTransaction() async throws -> LDAPTransaction {
        let response = try await extendedOperation(LDAPTransaction.startOID)
        return LDAPTransaction(identifier: response.value ?? [])
    }

    /// Commits a transaction: the server makes all of its updates, or, when one of them
    /// fails, none.
    ///
    /// - Throws: ``LDAPError`` with the result code of the update that failed (for
    ///   example `entryAlreadyExists`), or ``LDAPResultCode/invalidTransactionIdentifier``
    ///   for a transaction the server no longer knows; either way nothing in the
    ///   transaction was made. With `serverDown` or `timeout`, whether it was committed
    ///   is unknown.
    ///
    /// The corresponding C function is `ldap_txn_end` with `commit` set.
    public func commit(_ transaction: LDAPTransaction) async throws {
        try await end(transaction, commit: true)
    }

    /// Abandons a transaction: none of its updates is made.
    ///
    /// The corresponding C function is `ldap_txn_end` with `commit` clear.
    public func abort(_ transaction: LDAPTransaction) async throws {
        try await end(transaction, commit: false)
    }

    private func end(_ transaction: LDAPTransaction, commit: Bool) async throws {
        let value = LDAPTransaction.endRequestValue(identifier: transaction.identifier, commit: commit)
        do {
            _ = try await extendedOperation(LDAPTransaction.endOID, value: value)
        } catch var error as LDAPError where commit && !error.code.isClientSide {
            // The server answered: it did not commit, so none of the updates was made.
            let note = "the transaction was not committed, and none of its updates was made"
            error.message = error.message.isEmpty ? note : "\(error.message); \(note)"
            error.operation = "commit transaction"
            throw error
        }
    }
}
