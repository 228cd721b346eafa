/// The values of RFC 4533's controls and intermediate responses, decoded from their BER.
///
/// Every decoder throws ``LDAPError`` with code ``LDAPResultCode/decodingError`` on
/// malformed bytes, and never traps.
extension LDAPSync {
    /// The value of a Sync State control, sent with each entry of a refresh (section 2.3):
    ///
    ///     syncStateValue ::= SEQUENCE {
    ///         state ENUMERATED { present (0), add (1), modify (2), delete (3) },
    ///         entryUUID syncUUID,
    ///         cookie syncCookie OPTIONAL }
    struct StateValue: Sendable, Hashable {
        var state: State
        var uuid: [UInt8]
        var cookie: [UInt8]?

        init(state: State, uuid: [UInt8], cookie: [UInt8]? = nil) {
            self.state = state
            self.uuid = uuid
            self.cookie = cookie
        }

        init(controlValue: [UInt8]) throws {
            var reader = BERReader(controlValue)
            var value = try reader.readSequence()
            try reader.expectEnd()
            let number = try value.readEnumerated()
            guard let state = State(rawValue: number) else {
                throw BERReader.malformed("the sync state \(number) is none of RFC 4533's")
            }
            self.state = state
            uuid = try LDAPSync.readUUID(&value)
            cookie = try LDAPSync.readOptionalCookie(&value)
            try value.expectEnd()
        }
    }

    /// The value of a Sync Done control, sent with the search's result (section 2.4):
    ///
    ///     syncDoneValue ::= SEQUENCE {
    ///         cookie syncCookie OPTIONAL,
    ///         refreshDeletes BOOLEAN DEFAULT FALSE }
    struct DoneValue: Sendable, Hashable {
        var cookie: [UInt8]?
        var refreshDeletes: Bool

        init(cookie: [UInt8]? = nil, refreshDeletes: Bool = false) {
            self.cookie = cookie
            self.refreshDeletes = refreshDeletes
        }

        init(controlValue: [UInt8]) throws {
            var reader = BERReader(controlValue)
            var value = try reader.readSequence()
            try reader.expectEnd()
            cookie = try LDAPSync.readOptionalCookie(&value)
            refreshDeletes = try LDAPSync.readOptionalBoolean(&value, default: false)
            try value.expectEnd()
        }
    }

    /// The value of a Sync Info intermediate response (section 2.5):
    ///
    ///     syncInfoValue ::= CHOICE {
    ///         newcookie      [0] syncCookie,
    ///         refreshDelete  [1] SEQUENCE { cookie syncCookie OPTIONAL,
    ///                                       refreshDone BOOLEAN DEFAULT TRUE },
    ///         refreshPresent [2] SEQUENCE { cookie syncCookie OPTIONAL,
    ///                                       refreshDone BOOLEAN DEFAULT TRUE },
    ///         syncIdSet      [3] SEQUENCE { cookie syncCookie OPTIONAL,
    ///                                       refreshDeletes BOOLEAN DEFAULT FALSE,
    ///                                       syncUUIDs SET OF syncUUID } }
    enum InfoValue: Sendable, Hashable {
        case newCookie([UInt8])
        case refreshDelete(cookie: [UInt8]?, refreshDone: Bool)
        case refreshPresent(cookie: [UInt8]?, refreshDone: Bool)
        case idSet(cookie: [UInt8]?, refreshDeletes: Bool, uuids: [[UInt8]])

        static let newCookieTag = BERTag.contextSpecific(0)
        static let refreshDeleteTag = BERTag.contextSpecific(1, constructed: true)
        static let refreshPresentTag = BERTag.contextSpecific(2, constructed: true)
        static let idSetTag = BERTag.contextSpecific(3, constructed: true)

        init(responseValue: [UInt8]) throws {
            var reader = BERReader(responseValue)
            switch reader.nextTag {
            case Self.newCookieTag:
                self = .newCookie(try reader.readOctetString(tag: Self.newCookieTag))
            case let tag? where tag == Self.refreshDeleteTag || tag == Self.refreshPresentTag:
                let isDelete = tag == Self.refreshDeleteTag
                var phase = try reader.readConstructed(tag)
                let cookie = try LDAPSync.readOptionalCookie(&phase)
                let refreshDone = try LDAPSync.readOptionalBoolean(&phase, default: true)
                try phase.expectEnd()
                self = isDelete ? .refreshDelete(cookie: cookie, refreshDone: refreshDone)
                    : .refreshPresent(cookie: cookie, refreshDone: refreshDone)
            case Self.idSetTag:
                var set = try reader.readConstructed(Self.idSetTag)
                let cookie = try LDAPSync.readOptionalCookie(&set)
                let refreshDeletes = try LDAPSync.readOptionalBoolean(&set, default: false)
                var members = try set.readSet()
                try set.expectEnd()
                var uuids: [[UInt8]] = []
                while !members.isAtEnd {
                    uuids.append(try LDAPSync.readUUID(&members))
                }
                self = .idSet(cookie: cookie, refreshDeletes: refreshDeletes, uuids: uuids)
            case let tag?:
                throw BERReader.malformed("the sync info tag \(tag) is none of RFC 4533's")
            case nil:
                throw BERReader.malformed("the sync info value is empty")
            }
            try reader.expectEnd()
        }

        /// The value as the event a refresh reports.
        var event: Event {
            switch self {
            case .newCookie(let cookie):
                .newCookie(cookie)
            case .refreshDelete(let cookie, let refreshDone):
                .phaseEnded(refreshDeletes: true, done: refreshDone, cookie: cookie)
            case .refreshPresent(let cookie, let refreshDone):
                .phaseEnded(refreshDeletes: false, done: refreshDone, cookie: cookie)
            case .idSet(let cookie, let refreshDeletes, let uuids):
                .idSet(uuids: uuids, refreshDeletes: refreshDeletes, cookie: cookie)
            }
        }
    }

    /// Reads a `syncUUID`, an OCTET STRING of exactly 16 bytes.
    private static func readUUID(_ reader: inout BERReader) throws -> [UInt8] {
        let uuid = try reader.readOctetString()
        guard uuid.count == 16 else {
            throw BERReader.malformed("an entryUUID has \(uuid.count) bytes, not 16")
        }
        return uuid
    }

    /// Reads a `syncCookie` (an OCTET STRING) if one comes next.
    private static func readOptionalCookie(_ reader: inout BERReader) throws -> [UInt8]? {
        reader.nextTag == .octetString ? try reader.readOctetString() : nil
    }

    /// Reads a BOOLEAN if one comes next, else gives its default.
    private static func readOptionalBoolean(_ reader: inout BERReader, default value: Bool) throws -> Bool {
        reader.nextTag == .boolean ? try reader.readBoolean() : value
    }
}
