internal import CLDAP

/// A connection to an LDAP directory.
///
/// All libldap work happens on the connection's own thread, so no call
/// blocks Swift's cooperative thread pool. Many operations may be in flight
/// at once; each waits for the response to its own message id. Cancelling
/// the calling task abandons the operation on the server. An operation whose
/// server stays silent for ``Configuration/operationTimeout`` throws
/// ``LDAPResultCode/timeout`` and the connection stays usable.
///
/// The connection is established on first use (or by ``connect()``) and
/// re-established by the first operation after it was lost; operations in
/// flight when it is lost fail with ``LDAPResultCode/serverDown`` and are
/// never resent.
///
/// ```swift
/// let directory = LDAPConnection(configuration: .init(servers: ["ldap://ldap.example.com"]))
/// let people = try await directory.search(filter: .equal("mail", "ada@example.com")).collect()
/// ```
public final class LDAPConnection: Sendable {
    /// The configuration the connection was created with.
    public let configuration: Configuration

    /// The base used by searches that name none: the configuration's, or
    /// libldap's default (`BASE`, `LDAPBASE`) when defaults are honored.
    public let defaultBase: DistinguishedName?

    let loop: ConnectionLoop

    /// Creates a connection. Nothing is sent until the first operation.
    public init(configuration: Configuration) {
        self.configuration = configuration
        if let base = configuration.base {
            defaultBase = base
        } else if configuration.systemDefaults == .honored, let text = LDAPHandle.defaultBase() {
            defaultBase = try? DistinguishedName(parsing: text)
        } else {
            defaultBase = nil
        }
        loop = ConnectionLoop(configuration: configuration)
    }

    /// Creates a connection and connects and binds at once, so a wrong
    /// address or password is reported here rather than by the first operation.
    public static func connect(configuration: Configuration) async throws -> LDAPConnection {
        let connection = LDAPConnection(configuration: configuration)
        try await connection.connect()
        return connection
    }

    deinit {
        loop.send(.shutdown({}))
    }

    /// Connects and binds now if not connected.
    ///
    /// The corresponding C functions are `ldap_initialize`, `ldap_connect`,
    /// `ldap_start_tls_s` and `ldap_sasl_bind_s`.
    public func connect() async throws {
        let result: Result<Void, LDAPError> = await withCheckedContinuation { continuation in
            loop.send(.connect({ continuation.resume(returning: $0) }))
        }
        try result.get()
    }

    /// The connection's own thread as a task executor: the jobs of a task that prefers it
    /// (`withTaskExecutorPreference(connection.executor) { … }`) run on that thread, between
    /// its reads of the server's replies. A command that reads a long search as it arrives
    /// then reads and handles the entries on one thread, as `ldapsearch` does, instead of
    /// handing each batch from the connection's thread to another: on two cores shared with
    /// the server, the hand-overs cost more than the work (BENCHMARKS.md, workloads 1 and 5).
    ///
    /// While such a job runs, the connection reads nothing, so a job that waits for the
    /// connection must wait by `await`, never by blocking its thread.
    public var executor: any TaskExecutor { loop }

    /// The server the connection reached last: of a list, the first that answered; `nil`
    /// before the connection is first made.
    public var server: String? {
        loop.server.uri.withLock { $0 }
    }

    /// Unbinds and closes the connection. Operations still in flight fail;
    /// later operations fail with ``LDAPResultCode/serverDown``.
    ///
    /// The corresponding C function is `ldap_unbind_ext`.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.send(.shutdown({ continuation.resume() }))
        }
    }

    // MARK: Searching

    /// Searches the directory; entries stream as they arrive.
    ///
    /// - Parameters:
    ///   - base: where to search; `nil` means ``defaultBase``.
    ///   - scope: how deep to look.
    ///   - filter: which entries match.
    ///   - attributes: the attributes to return; empty means all user
    ///     attributes, `["1.1"]` none, `["*", "+"]` user and operational ones.
    ///   - sizeLimit: the most entries to return; `nil` means the configuration's.
    ///   - pageSize: entries per page; `nil` means the configuration's, `0` turns paging off.
    ///   - controls: extra request controls.
    ///   - timeLimit: the most seconds the server may spend on the search (it then stops with
    ///     ``LDAPResultCode/timeLimitExceeded``, after what it found); `nil` for the server's own limit.
    ///   - typesOnly: return attribute names only, each with no values (`attrsonly`): what
    ///     attributes the entries have, cheaply.
    ///
    /// The corresponding C functions are `ldap_search_ext` and `ldap_result`.
    public func search(
        base: DistinguishedName? = nil,
        scope: SearchScope = .subtree,
        filter: LDAPFilter = .present("objectClass"),
        attributes: [String] = [],
        sizeLimit: Int? = nil,
        pageSize: Int? = nil,
        controls: [LDAPControl] = [],
        typesOnly: Bool = false,
        timeLimit: Int? = nil
    ) -> LDAPSearchResults {
        let request: Result<SearchRequest, LDAPError>
        if let searchBase = base ?? defaultBase {
            let pages = pageSize ?? configuration.pageSize
            request = .success(SearchRequest(
                base: searchBase.string, scope: scope, filter: filter.rendered, attributes: attributes,
                sizeLimit: sizeLimit ?? configuration.sizeLimit,
                pageSize: pages.flatMap { $0 > 0 ? $0 : nil }, controls: controls, typesOnly: typesOnly,
                timeLimit: timeLimit))
        } else {
            request = .failure(LDAPError(.paramError, message: "no search base: name one or configure a default",
                                         operation: "search"))
        }
        return LDAPSearchResults(loop: loop, request: request)
    }

    /// Reads one entry, or returns `nil` when it does not exist.
    ///
    /// - Parameter attributes: the attributes to return; empty means all user attributes.
    public func read(_ dn: DistinguishedName, attributes: [String] = [],
                     controls: [LDAPControl] = []) async throws -> LDAPEntry? {
        do {
            var iterator = search(base: dn, scope: .base, attributes: attributes, pageSize: 0,
                                  controls: controls).makeAsyncIterator()
            let entry = try await iterator.next()
            while try await iterator.next() != nil {}
            return entry
        } catch let error as LDAPError where error.code == .noSuchObject {
            return nil
        }
    }

    /// Reads the root DSE: the server's naming contexts, supported controls,
    /// extensions and SASL mechanisms, and its subschema entry's name.
    public func rootDSE() async throws -> LDAPEntry {
        guard let entry = try await read(.root, attributes: ["*", "+"]) else {
            throw LDAPError(.noSuchObject, message: "the server returned no root DSE", operation: "search")
        }
        return entry
    }

    /// Reads the subschema entry (RFC 4512 section 4.2) that governs `dn`
    /// (the root DSE's by default), with its attribute types, object classes,
    /// syntaxes and matching rules.
    public func subschema(for dn: DistinguishedName = .root) async throws -> LDAPEntry {
        guard let governed = try await read(dn, attributes: ["subschemaSubentry"]),
              let name = governed.string("subschemaSubentry") else {
            throw LDAPError(.noSuchObject, message: "no subschemaSubentry for \(dn)", operation: "search")
        }
        let schemaDN = try DistinguishedName(parsing: name)
        let attributes = ["attributeTypes", "objectClasses", "ldapSyntaxes", "matchingRules",
                          "matchingRuleUse", "dITContentRules", "nameForms", "dITStructureRules"]
        guard let schema = try await read(schemaDN, attributes: attributes) else {
            throw LDAPError(.noSuchObject, message: "the subschema entry \(name) is missing", operation: "search")
        }
        return schema
    }

    // MARK: Writing

    /// Adds an entry.
    ///
    /// The corresponding C function is `ldap_add_ext`.
    @discardableResult
    public func add(_ entry: LDAPEntry, controls: [LDAPControl] = []) async throws -> LDAPResponse {
        let dn = entry.dn.string
        let changes = entry.attributes.map { LDAPModification(.add, $0.name, values: $0.values) }
        return try await perform("add") { handle, messageID in
            let arena = CArena()
            return ldap_add_ext(handle.ld, arena.cString(dn), arena.modifications(changes),
                                arena.controls(controls), nil, &messageID)
        }.response
    }

    /// Applies `changes` to an entry, all or none.
    ///
    /// The corresponding C function is `ldap_modify_ext`.
    @discardableResult
    public func modify(_ dn: DistinguishedName, _ changes: [LDAPModification],
                       controls: [LDAPControl] = []) async throws -> LDAPResponse {
        guard !changes.isEmpty else {
            throw LDAPError(.paramError, message: "a modify request needs at least one change", operation: "modify")
        }
        let name = dn.string
        return try await perform("modify") { handle, messageID in
            let arena = CArena()
            return ldap_modify_ext(handle.ld, arena.cString(name), arena.modifications(changes),
                                   arena.controls(controls), nil, &messageID)
        }.response
    }

    /// Deletes a leaf entry.
    ///
    /// The corresponding C function is `ldap_delete_ext`.
    @discardableResult
    public func delete(_ dn: DistinguishedName, controls: [LDAPControl] = []) async throws -> LDAPResponse {
        let name = dn.string
        return try await perform("delete") { handle, messageID in
            let arena = CArena()
            return ldap_delete_ext(handle.ld, arena.cString(name), arena.controls(controls), nil, &messageID)
        }.response
    }

    /// Renames an entry (modify DN): gives it `newRDN` and, optionally, moves
    /// it under `newParent`.
    ///
    /// - Parameter deletingOldRDN: whether the old RDN's values are removed
    ///   from the entry (usually what you want).
    ///
    /// The corresponding C function is `ldap_rename`.
    @discardableResult
    public func rename(_ dn: DistinguishedName, to newRDN: RelativeDistinguishedName,
                       deletingOldRDN: Bool = true, under newParent: DistinguishedName? = nil,
                       controls: [LDAPControl] = []) async throws -> LDAPResponse {
        let name = dn.string
        let rdn = newRDN.string
        let parent = newParent?.string
        return try await perform("rename") { handle, messageID in
            let arena = CArena()
            return ldap_rename(handle.ld, arena.cString(name), arena.cString(rdn), arena.cString(parent),
                               deletingOldRDN ? 1 : 0, arena.controls(controls), nil, &messageID)
        }.response
    }

    /// Asks the server whether the entry has `value` in `attribute`, using
    /// the attribute's equality matching rule.
    ///
    /// The corresponding C function is `ldap_compare_ext`.
    public func compare(_ dn: DistinguishedName, attribute: String, value: LDAPValue,
                        controls: [LDAPControl] = []) async throws -> Bool {
        let name = dn.string
        let response = try await perform("compare", acceptedCodes: [.compareTrue, .compareFalse]) { handle, messageID in
            let arena = CArena()
            var assertion = arena.berval(value.bytes)
            return ldap_compare_ext(handle.ld, arena.cString(name), arena.cString(attribute), &assertion,
                                    arena.controls(controls), nil, &messageID)
        }
        return response.response.code == .compareTrue
    }

    /// Sends an extended operation (RFC 4511 section 4.12).
    ///
    /// The corresponding C function is `ldap_extended_operation`.
    public func extendedOperation(_ oid: String, value: [UInt8]? = nil,
                                  controls: [LDAPControl] = []) async throws -> LDAPExtendedResponse {
        try await perform("extended operation \(oid)") { handle, messageID in
            let arena = CArena()
            return ldap_extended_operation(handle.ld, arena.cString(oid), value.map { arena.bervalPointer($0) },
                                           arena.controls(controls), nil, &messageID)
        }
    }

    /// The identity the server associates with this connection (RFC 4532):
    /// `dn:...` or `u:...`, or an empty string when anonymous.
    public func whoAmI() async throws -> String {
        let response = try await extendedOperation("1.3.6.1.4.1.4203.1.11.3")
        return response.value.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    // MARK: Running operations on the loop

    private func perform(
        _ name: String,
        acceptedCodes: Set<LDAPResultCode> = [.success],
        send: @escaping SingleResultOperation.Send
    ) async throws -> LDAPExtendedResponse {
        let id = loop.makeOperationID()
        let cancellation = CancellationFlag()
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.send(.start(SingleResultOperation(
                    id: id, name: name, timeout: loop.configuration.operationTimeout, cancellation: cancellation,
                    acceptedCodes: acceptedCodes, continuation: continuation, send: send)))
            }
        } onCancel: {
            cancellation.cancel()
            loop.send(.cancel(id))
        }
    }
}

extension LDAPConnection {
    /// libldap's default URI list (from `ldap.conf`, `~/.ldaprc` or `LDAPURI`,
    /// else its built-in `ldap://localhost`), as `ldap_get_option` reports it.
    public static var libldapDefaultURI: String? {
        LDAPHandle.defaultURI()
    }
}
