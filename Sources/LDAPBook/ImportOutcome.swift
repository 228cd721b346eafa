import LDAPKit

/// How an import goes about its work.
public struct ImportOptions: Sendable {
    /// Plan everything, write nothing: the outcomes say exactly what a real run would do
    /// against the directory as it is now.
    public var dryRun: Bool
    /// Take a person with no identifier in common with anyone to be the one person of
    /// the same first and last name, when there is exactly one, and give them what they
    /// lack (for a personal address book; in a shared directory, namesakes are different
    /// people). Without it, such a person is added and reported as a possible duplicate.
    public var mergesByName: Bool
    /// The most writes in flight at once on the connection.
    public var window: Int
    /// How many people are looked up together, in one search.
    public var batchSize: Int

    /// Creates options.
    public init(dryRun: Bool = false, mergesByName: Bool = false, window: Int = 32, batchSize: Int = 100) {
        self.dryRun = dryRun
        self.mergesByName = mergesByName
        self.window = window
        self.batchSize = batchSize
    }
}

/// What importing one person did (or, in a dry run, would do).
public struct ImportOutcome: Sendable {
    /// What happened.
    public enum Result: Sendable {
        /// A new entry was added.
        case added
        /// The person was there, and these attributes got values they lacked.
        case updated([String])
        /// The person was there with everything the file gives.
        case unchanged
        /// This person alone could not be imported; the others went on.
        case rejected(any Error)
        /// The directory refused this person's write for a reason that stops the whole
        /// import (``ImportResult/stoppedBy``): access, or being busy or unavailable.
        case refused(LDAPError)
        /// The import stopped (see ``ImportResult/stoppedBy``) before this person was written.
        case notTried
        /// The reply to this person's write was lost, and whether it was made could not be
        /// checked; importing again finds out, without adding anyone twice.
        case unknown(LDAPError)
    }

    /// How the person was found in the directory.
    public enum Match: Sendable, Hashable {
        /// By the DN of their LDIF record.
        case distinguishedName
        /// By their card's `UID` (``VCardIdentity``).
        case cardUID
        /// By a shared email address.
        case email
        /// By their first and last name, with `mergesByName`.
        case name
        /// By their name, holding every value the file gives already: nothing to write.
        case nameWithNothingNew
        /// As the person an earlier record of this import describes (the same DN, card
        /// UID or email): at that index of the records.
        case earlierRecord(Int)
    }

    /// Something worth saying about the person's import.
    public enum Note: Sendable, Hashable {
        /// The file held these, and they were not written.
        case skipped([SkippedAttribute])
        /// Added as a new person, though these people have the same email address, or the
        /// same first and last name and no identifier that tells them apart.
        case possibleDuplicate(of: [DistinguishedName], sameEmail: Bool)
        /// The record's DN is outside the directory's base: the person went under the
        /// people base with the same RDN.
        case movedFrom(DistinguishedName)
        /// More people have this name than one search may return: they were not compared.
        case namesakesNotCompared
    }

    /// What happened.
    public var result: Result
    /// The person's entry, when there is one (or would be).
    public var dn: DistinguishedName?
    /// How the person was found, when they were.
    public var match: Match?
    /// Notes, in order.
    public var notes: [Note]

    /// Creates an outcome.
    public init(_ result: Result, dn: DistinguishedName? = nil, match: Match? = nil, notes: [Note] = []) {
        self.result = result
        self.dn = dn
        self.match = match
        self.notes = notes
    }
}

/// What an import did, person by person.
public struct ImportResult: Sendable {
    /// Each record's outcome, in the order of the records.
    public var outcomes: [ImportOutcome]
    /// The containers created (or, in a dry run, to be created) for new entries.
    public var containers: [DistinguishedName]
    /// Why the import stopped before the end: the directory was unavailable (down, hung,
    /// busy) or refused access. What was written stays written; the people ``ImportOutcome/Result/notTried``
    /// were not, and importing the same files again finishes the job.
    public var stoppedBy: LDAPError?
    /// Whether card UIDs could be kept (the directory has ldapbook's schema); without it, the
    /// next import finds the people by email or name alone.
    public var keepsCardUIDs: Bool
}
