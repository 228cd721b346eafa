extension LDAPConnection {
    /// Asks the server what changed since `cookie` (RFC 4533 content synchronization, in
    /// refreshOnly mode); the events stream in batches as they arrive.
    ///
    /// Without a cookie, every entry that matches comes as added. With the cookie of the
    /// last refresh, the entries added or modified since come, and the entries deleted since
    /// are reported either one by one or as sets of entryUUIDs; or, when the server cannot
    /// tell what was deleted, the entries still present are reported instead (a present
    /// phase), and every other entry is gone. ``LDAPSync/Reconciliation`` applies either.
    /// Keep the cookie of the final ``LDAPSync/Event/done(cookie:refreshDeletes:)``, or of
    /// the last event that carried one, for the next refresh.
    ///
    /// ```swift
    /// var content = LDAPSync.Reconciliation(uuids: known, cookie: savedCookie)
    /// for try await events in directory.syncRefresh(filter: .equal("objectClass", "person"),
    ///                                               attributes: ["cn"], cookie: content.cookie) {
    ///     content.apply(contentsOf: events)
    /// }
    /// ```
    ///
    /// The search is never paged, whatever the configuration says: the server keeps the
    /// state of the refresh itself, and slapd refuses paging with it.
    ///
    /// - Parameters:
    ///   - base: where to look; `nil` means ``defaultBase``.
    ///   - scope: how deep to look.
    ///   - filter: which entries the content holds.
    ///   - attributes: the attributes of added and modified entries; empty means all user
    ///     attributes. Present and deleted entries come with their DN only.
    ///   - cookie: the cookie of the last refresh of the same base, scope, filter and
    ///     attributes, or `nil` for a full refresh.
    ///   - sizeLimit: the most entries to return; `nil` means the configuration's.
    ///
    /// The refresh fails with ``LDAPResultCode/unavailableCriticalExtension`` when the server
    /// has no content synchronization (slapd without the `syncprov` overlay), and may fail
    /// with ``LDAPResultCode/syncRefreshRequired`` when it cannot continue from `cookie`:
    /// start again from nothing, without a cookie.
    ///
    /// The corresponding C functions are `ldap_search_ext`, `ldap_result`,
    /// `ldap_get_entry_controls` and `ldap_parse_intermediate`.
    public func syncRefresh(
        base: DistinguishedName? = nil,
        scope: SearchScope = .subtree,
        filter: LDAPFilter = .present("objectClass"),
        attributes: [String] = [],
        cookie: [UInt8]?,
        sizeLimit: Int? = nil
    ) -> LDAPSync.Refresh {
        let request: Result<SearchRequest, LDAPError>
        if let searchBase = base ?? defaultBase {
            request = .success(SearchRequest(
                base: searchBase.string, scope: scope, filter: filter.rendered, attributes: attributes,
                sizeLimit: sizeLimit ?? configuration.sizeLimit, pageSize: nil,
                controls: [.syncRequest(cookie: cookie)]))
        } else {
            request = .failure(LDAPError(.paramError, message: "no search base: name one or configure a default",
                                         operation: "sync refresh"))
        }
        return LDAPSync.Refresh(loop: loop, request: request)
    }
}
