/// A control (RFC 4511 section 4.1.11): extra information attached to a
/// request or returned with a response, identified by an OID.
///
/// Build common request controls with the static members, such as
/// ``pagedResults(size:cookie:isCritical:)`` or ``assertion(_:)``, and read
/// response controls with the methods on sequences of controls, such as
/// ``Swift/Sequence/pagedResultsResponse()``.
public struct LDAPControl: Sendable, Hashable {
    /// The control type, a dotted-decimal OID such as ``OID/pagedResults``.
    public var oid: String

    /// Whether the server must refuse the operation, with
    /// `unavailableCriticalExtension`, rather than perform it without the control.
    public var isCritical: Bool

    /// The BER-encoded control value, or `nil` when the control has none.
    public var value: [UInt8]?

    /// Creates a control.
    public init(oid: String, isCritical: Bool = false, value: [UInt8]? = nil) {
        self.oid = oid
        self.isCritical = isCritical
        self.value = value
    }
}

extension LDAPControl {
    /// The OIDs of well-known controls.
    public enum OID {
        /// Simple Paged Results (RFC 2696), for both the request and the response.
        public static let pagedResults = "1.2.840.113556.1.4.319"
        /// Assertion (RFC 4528): perform the operation only if the entry matches a filter.
        public static let assertion = "1.3.6.1.1.12"
        /// Permissive Modify: adding a present value or deleting an absent one is not an error.
        public static let permissiveModify = "1.2.840.113556.1.4.1413"
        /// Pre-Read (RFC 4527): return the entry as it was before the update.
        public static let preRead = "1.3.6.1.1.13.1"
        /// Post-Read (RFC 4527): return the entry as it is after the update.
        public static let postRead = "1.3.6.1.1.13.2"
        /// ManageDsaIT (RFC 3296): treat referral objects as ordinary entries.
        public static let manageDsaIT = "2.16.840.1.113730.3.4.2"
        /// Proxied Authorization (RFC 4370): perform the operation as another identity.
        public static let proxiedAuthorization = "2.16.840.1.113730.3.4.18"
        /// Subentries (RFC 3672): make a search return subentries instead of ordinary entries.
        public static let subentries = "1.3.6.1.4.1.4203.1.10.1"
        /// Server-side sort request (RFC 2891).
        public static let sortRequest = "1.2.840.113556.1.4.473"
        /// Server-side sort response (RFC 2891).
        public static let sortResponse = "1.2.840.113556.1.4.474"
        /// Don't Use Copy (RFC 6171): read from an authoritative server, not a replica.
        public static let dontUseCopy = "1.3.6.1.1.22"
        /// Relax Rules: let a suitably privileged client bypass some schema and operational-attribute rules.
        public static let relax = "1.3.6.1.4.1.4203.666.5.12"
        /// Tree Delete: delete an entry together with all of its subordinates.
        public static let treeDelete = "1.2.840.113556.1.4.805"
        /// Transaction Specification (RFC 5805): send an update in a ``LDAPTransaction``.
        public static let transactionSpecification = "1.3.6.1.1.21.2"
        /// Password Policy, for both the request and the response.
        public static let passwordPolicy = "1.3.6.1.4.1.42.2.27.8.5.1"
        /// Sync Request (RFC 4533): make a search a content synchronization.
        public static let syncRequest = "1.3.6.1.4.1.4203.1.9.1.1"
        /// Sync State (RFC 4533): how an entry returned by a content synchronization changed.
        public static let syncState = "1.3.6.1.4.1.4203.1.9.1.2"
        /// Sync Done (RFC 4533): the cookie at the end of a content synchronization.
        public static let syncDone = "1.3.6.1.4.1.4203.1.9.1.3"
        /// Sync Info (RFC 4533): the name of the intermediate responses of a content
        /// synchronization, which carry cookies, the ends of phases and sets of entryUUIDs.
        /// Not a control's OID, but the `responseName` of an intermediate response.
        public static let syncInfo = "1.3.6.1.4.1.4203.1.9.1.4"
    }

    /// A Simple Paged Results request (RFC 2696) for the page after `cookie`.
    ///
    /// Send an empty `cookie` for the first page, then the cookie of each
    /// ``PagedResultsResponse`` until it is empty.
    ///
    /// - Parameters:
    ///   - size: The most entries to return in one page, clamped to
    ///     `0...Int32.max`; a size of 0 with a cookie abandons the search.
    ///   - cookie: The cookie from the previous page's response.
    ///   - isCritical: Whether the server must refuse to search without paging.
    public static func pagedResults(size: Int, cookie: [UInt8] = [], isCritical: Bool = false) -> LDAPControl {
        var writer = BERWriter()
        writer.writeSequence { request in
            request.writeInteger(min(max(size, 0), Int(Int32.max)))
            request.writeOctetString(cookie)
        }
        return LDAPControl(oid: OID.pagedResults, isCritical: isCritical, value: writer.bytes)
    }

    /// An Assertion control (RFC 4528): the operation is performed only if
    /// the target entry matches `filter`, and otherwise fails with
    /// `assertionFailed` (see ``LDAPError/isAssertionFailed``).
    ///
    /// The control is critical, so a server that does not support it refuses
    /// the operation instead of performing it unconditionally.
    public static func assertion(_ filter: LDAPFilter) -> LDAPControl {
        LDAPControl(oid: OID.assertion, isCritical: true, value: filter.ber)
    }

    /// The Permissive Modify control: adding a value that is already present,
    /// or deleting one that is absent, succeeds instead of failing.
    ///
    /// The control has no value and is not critical: a server that ignores
    /// it still reports those conditions as errors, so nothing is lost.
    public static let permissiveModify = LDAPControl(oid: OID.permissiveModify)

    /// A Pre-Read request (RFC 4527): the response carries the entry as it was
    /// before the modify, rename or delete, read with ``Swift/Sequence/preReadEntry()``.
    ///
    /// - Parameter attributes: The attributes to return; empty for all user
    ///   attributes, as in a search.
    ///
    /// The control is critical, so the update is not made when the server
    /// cannot return what it replaced.
    public static func preRead(_ attributes: [String]) -> LDAPControl {
        readEntryControl(oid: OID.preRead, attributes: attributes)
    }

    /// A Post-Read request (RFC 4527): the response carries the entry as it is
    /// after the add, modify or rename, read with ``Swift/Sequence/postReadEntry()``.
    ///
    /// - Parameter attributes: The attributes to return; empty for all user
    ///   attributes, as in a search.
    ///
    /// The control is critical, so the update is not made when the server
    /// cannot return its result.
    public static func postRead(_ attributes: [String]) -> LDAPControl {
        readEntryControl(oid: OID.postRead, attributes: attributes)
    }

    /// A Sync Request control (RFC 4533 section 2.2) in refreshOnly mode: the search
    /// returns what changed since `cookie`, then ends.
    ///
    ///     syncRequestValue ::= SEQUENCE {
    ///         mode ENUMERATED { refreshOnly (1), refreshAndPersist (3) },
    ///         cookie syncCookie OPTIONAL,
    ///         reloadHint BOOLEAN DEFAULT FALSE }
    ///
    /// ``LDAPConnection/syncRefresh(base:scope:filter:attributes:cookie:sizeLimit:)`` sends
    /// it and decodes what comes back.
    ///
    /// - Parameters:
    ///   - cookie: The cookie of the last synchronization, or `nil` for a full refresh.
    ///   - reloadHint: Whether the server should send everything again rather than fail with
    ///     ``LDAPResultCode/syncRefreshRequired`` when it cannot continue from `cookie`.
    ///
    /// The control is critical, so a server without content synchronization refuses the
    /// search with `unavailableCriticalExtension` instead of answering it as a plain search.
    public static func syncRequest(cookie: [UInt8]?, reloadHint: Bool = false) -> LDAPControl {
        var writer = BERWriter()
        writer.writeSequence { request in
            request.writeEnumerated(LDAPSync.refreshOnlyMode)
            if let cookie { request.writeOctetString(cookie) }
            if reloadHint { request.writeBoolean(true) }
        }
        return LDAPControl(oid: OID.syncRequest, isCritical: true, value: writer.bytes)
    }

    /// The ManageDsaIT control (RFC 3296): referral objects are read and
    /// updated as ordinary entries instead of producing referrals.
    ///
    /// The control has no value and is critical, so a server that does not
    /// support it refuses the operation rather than act on the referral's target.
    public static let manageDsaIT = LDAPControl(oid: OID.manageDsaIT, isCritical: true)

    private static func readEntryControl(oid: String, attributes: [String]) -> LDAPControl {
        var writer = BERWriter()
        writer.writeSequence { selection in
            for attribute in attributes { selection.writeOctetString(attribute) }
        }
        return LDAPControl(oid: oid, isCritical: true, value: writer.bytes)
    }
}

/// The server's answer to a paged search request (RFC 2696).
public struct PagedResultsResponse: Sendable, Hashable {
    /// The server's estimate of the total number of entries, or 0 when it gives none.
    public var estimatedSize: Int

    /// The cookie to send with the request for the next page; empty after the last page.
    public var cookie: [UInt8]

    /// Whether this was the last page: the server returned an empty cookie.
    public var isLastPage: Bool { cookie.isEmpty }

    /// Creates a response.
    public init(estimatedSize: Int = 0, cookie: [UInt8]) {
        self.estimatedSize = estimatedSize
        self.cookie = cookie
    }

    /// Decodes a response control value: `SEQUENCE { size INTEGER, cookie OCTET STRING }`.
    init(controlValue: [UInt8]) throws {
        var reader = BERReader(controlValue)
        var response = try reader.readSequence()
        try reader.expectEnd()
        estimatedSize = try response.readInteger()
        cookie = try response.readOctetString()
        try response.expectEnd()
    }
}

extension Sequence where Element == LDAPControl {
    /// The first control with the given OID, or `nil` when there is none.
    public func control(withOID oid: String) -> LDAPControl? {
        first { $0.oid == oid }
    }

    /// The decoded paged results response control, or `nil` when the server
    /// returned none (it does not support paging, or ignored the request).
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   when the control's value is missing or malformed.
    public func pagedResultsResponse() throws -> PagedResultsResponse? {
        guard let control = control(withOID: LDAPControl.OID.pagedResults) else { return nil }
        return try PagedResultsResponse(controlValue: control.requiredValue)
    }

    /// The entry returned by a pre-read response control: the entry as it
    /// was before the update, or `nil` when the response has no such control.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   when the control's value is missing or malformed, or the error of
    ///   ``DistinguishedName/init(parsing:)`` when the entry's DN is invalid.
    public func preReadEntry() throws -> LDAPEntry? {
        try readEntry(LDAPControl.OID.preRead)
    }

    /// The entry returned by a post-read response control: the entry as it
    /// is after the update, or `nil` when the response has no such control.
    ///
    /// - Throws: ``LDAPError`` with code ``LDAPResultCode/decodingError``
    ///   when the control's value is missing or malformed, or the error of
    ///   ``DistinguishedName/init(parsing:)`` when the entry's DN is invalid.
    public func postReadEntry() throws -> LDAPEntry? {
        try readEntry(LDAPControl.OID.postRead)
    }

    private func readEntry(_ oid: String) throws -> LDAPEntry? {
        guard let control = control(withOID: oid) else { return nil }
        return try LDAPEntry(searchResultEntry: control.requiredValue)
    }
}

extension LDAPControl {
    /// The value of a response control whose definition requires one.
    var requiredValue: [UInt8] {
        get throws {
            guard let value else {
                throw LDAPError(.decodingError, message: "The response control \(oid) has no value")
            }
            return value
        }
    }
}

extension LDAPEntry {
    /// Decodes a BER-encoded `SearchResultEntry`, the value of a pre-read or
    /// post-read response control (RFC 4527):
    ///
    ///     [APPLICATION 4] SEQUENCE {
    ///         objectName  LDAPDN,
    ///         attributes  SEQUENCE OF SEQUENCE { type AttributeDescription, vals SET OF value } }
    ///
    /// Values keep their bytes exactly.
    init(searchResultEntry bytes: [UInt8]) throws {
        var reader = BERReader(bytes)
        var entry = try reader.readConstructed(.application(4, constructed: true))
        try reader.expectEnd()
        let dn = try DistinguishedName(parsing: entry.readString())
        var attributeList = try entry.readSequence()
        try entry.expectEnd()
        var attributes: [LDAPAttribute] = []
        while !attributeList.isAtEnd {
            var attribute = try attributeList.readSequence()
            let name = try attribute.readString()
            var valueSet = try attribute.readSet()
            try attribute.expectEnd()
            var values: [LDAPValue] = []
            while !valueSet.isAtEnd {
                values.append(LDAPValue(bytes: try valueSet.readOctetString()))
            }
            attributes.append(LDAPAttribute(name: name, values: values))
        }
        self.init(dn: dn, attributes: attributes)
    }
}
