import LDAPKit

extension LDAPError {
    /// Whether a write that failed this way may have been made all the same: the
    /// connection was lost, or no reply came in time, after the request may have reached
    /// the server.
    var leavesWriteUnknown: Bool { code == .serverDown || code == .timeout }
}

/// What the entry shows, read again after a write whose reply was lost.
enum WriteCheck: Sendable {
    /// The write was made.
    case written
    /// The entry is as it was before: the write was not made, and sending it is safe.
    case notWritten
    /// The entry shows neither: someone else changed it meanwhile.
    case changedMeanwhile
}

extension AddressBook {
    /// How many times a write is sent when each time its reply is lost and the entry
    /// shows it was not made.
    static let maximumWriteAttempts = 3

    /// Sends `write`, never blindly twice.
    ///
    /// When the reply is lost (the connection drops, or the reply does not come in time),
    /// the write may or may not have been made, and sending it again could add a person
    /// twice or fail on a change that was in fact made.
    ///
    /// A reply that did not come in time fails at once, never sent again: the server that
    /// kept it is hung or overloaded, reading from it would wait a second timeout, and
    /// reading from the next server of the list could show a replica that has not yet
    /// received the write.
    ///
    /// When the connection dropped, the entry at `dn` is read again instead (which
    /// reconnects, with the bind), and `check` says what it shows: a write
    /// that was made counts as done; one that was not is sent again (at most
    /// ``maximumWriteAttempts`` times in all), and a failure of that second sending is
    /// checked the same way; an entry that shows neither ends in
    /// ``AddressBookError/Code/changedMeanwhile``.
    ///
    /// - Parameters:
    ///   - dn: the entry the write changes or adds.
    ///   - attributes: what `check` needs to see of it.
    ///   - description: the change in words, for messages.
    /// - Returns: the write's response, or `nil` when the write was found made by reading.
    func sendOnce(
        _ write: () async throws -> LDAPResponse,
        at dn: DistinguishedName,
        reading attributes: [String],
        description: String,
        check: (LDAPEntry?) -> WriteCheck
    ) async throws -> LDAPResponse? {
        // The index learns of the write from the server, as of anyone's: the next lookup asks.
        markIndexStale()
        var lostReplies = 0
        while true {
            do {
                return try await write()
            } catch var error as LDAPError where error.code == .timeout {
                error.message = [error.message, "whether \(description) was written is not known; look before trying again"]
                    .filter { !$0.isEmpty }.joined(separator: "; ")
                throw error
            } catch let error as LDAPError where error.leavesWriteUnknown || lostReplies > 0 {
                if error.leavesWriteUnknown { lostReplies += 1 }
                let entry: LDAPEntry?
                do {
                    entry = try await connection.read(dn, attributes: attributes)
                } catch let readError as LDAPError {
                    var unknown = error.leavesWriteUnknown ? error : readError
                    unknown.message = [unknown.message,
                                       "the reply to \(description) was lost, and whether it was written could not be checked"]
                        .filter { !$0.isEmpty }.joined(separator: "; ")
                    throw unknown
                }
                switch check(entry) {
                case .written:
                    return nil
                case .notWritten where error.leavesWriteUnknown && lostReplies < Self.maximumWriteAttempts:
                    continue
                case .notWritten:
                    throw error
                case .changedMeanwhile:
                    throw AddressBookError(.changedMeanwhile,
                        "the reply to \(description) was lost, and \(dn) has changed since in a way that shows neither "
                        + "the change nor what was there before; look again")
                }
            }
        }
    }
}

extension LDAPEntry {
    /// Whether the entry holds every value of `sent`, as ``has(_:of:)`` compares them.
    func hasEveryValue(of sent: LDAPEntry) -> Bool {
        sent.attributes.allSatisfy { has($0.values, of: $0.name) }
    }

    /// Whether every value of `attribute` in `values` is among the entry's, byte for
    /// byte (object class names ignoring ASCII case, as the server compares them).
    func has(_ values: [LDAPValue], of attribute: String) -> Bool {
        let present = self[attribute]
        if attribute.equalsIgnoringCase("objectClass") {
            let names = Set(present.map { $0.lossyString.lowercased() })
            return values.allSatisfy { names.contains($0.lossyString.lowercased()) }
        }
        let bytes = Set(present.map(\.bytes))
        return values.allSatisfy { bytes.contains($0.bytes) }
    }
}
