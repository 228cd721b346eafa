/// A vCard: a version and properties, in the order they were written.
///
/// ``properties`` holds everything between `BEGIN:VCARD` and `END:VCARD`
/// except `VERSION`, which is ``version``. ``VCardParser`` reads cards,
/// ``VCardWriter`` writes them, ``init(person:registry:version:)`` makes
/// one from a person and ``newPerson(registry:)`` a new person from one.
///
/// Two cards are equal when their versions and properties are; ``line`` is
/// where one was read, not part of what it says.
public struct VCard: Sendable {
    /// The vCard version the card is written in.
    public var version: VCardVersion
    /// The properties, in order, without `BEGIN`, `VERSION` and `END`.
    public var properties: [VCardProperty]
    /// The 1-based line of the card's `BEGIN:VCARD`, for cards read from a file.
    public var line: Int?

    /// Creates a card.
    public init(version: VCardVersion = .v4, properties: [VCardProperty] = [], line: Int? = nil) {
        self.version = version
        self.properties = properties
        self.line = line
    }

    /// The properties named `name` (case-insensitive), in the order written.
    public func properties(named name: String) -> [VCardProperty] {
        let wanted = name.uppercased()
        return properties.filter { $0.name == wanted }
    }

    /// The properties named `name`, the most preferred first (see
    /// ``VCardProperty/preference``); properties that say nothing keep
    /// their order after those that do.
    public func preferredProperties(named name: String) -> [VCardProperty] {
        VCard.preferredFirst(properties(named: name))
    }

    /// The properties of the group `group` (`item1`), compared case-insensitively.
    public func properties(inGroup group: String) -> [VCardProperty] {
        let wanted = group.lowercased()
        return properties.filter { $0.group?.lowercased() == wanted }
    }

    /// `properties` sorted by preference, keeping the order of equals.
    static func preferredFirst(_ properties: [VCardProperty]) -> [VCardProperty] {
        properties.enumerated()
            .sorted { ($0.element.preference ?? Int.max, $0.offset) < ($1.element.preference ?? Int.max, $1.offset) }
            .map(\.element)
    }
}

extension VCard {
    /// The formatted name (`FN`), the most preferred one when there are several.
    public var formattedName: String? {
        preferredProperties(named: "FN").first?.textValue
    }

    /// The structured name (`N`).
    public var name: VCardName? {
        preferredProperties(named: "N").first.map(VCardName.init(property:))
    }

    /// The email addresses (`EMAIL`), the most preferred first.
    public var emails: [VCardTypedValue] {
        preferredProperties(named: "EMAIL").map(VCardTypedValue.init(property:))
    }

    /// The telephone numbers (`TEL`), the most preferred first.
    public var telephones: [VCardTypedValue] {
        preferredProperties(named: "TEL").map(VCardTypedValue.init(property:))
    }

    /// The card's unique identifier (`UID`).
    public var uid: String? {
        properties(named: "UID").first?.textValue
    }
}

extension VCard: Hashable {
    /// Whether the cards have the same version and properties; where they
    /// were read does not count.
    public static func == (lhs: VCard, rhs: VCard) -> Bool {
        lhs.version == rhs.version && lhs.properties == rhs.properties
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(properties)
    }
}
