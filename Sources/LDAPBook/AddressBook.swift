import Foundation
import LDAPKit
import Synchronization

/// The address book over one directory connection: fields, people, and the
/// writes that keep what others wrote.
///
/// Writes are value-level: adding a value never replaces the others, and a
/// value already present is not an error. Values are validated before
/// anything is sent. A write whose reply is lost (the connection drops, or
/// no reply comes in time) is never sent blindly again: the entry is read
/// to see whether it was made.
public final class AddressBook: Sendable {
    /// Where new people go and how they are named.
    public struct Configuration: Sendable {
        /// The container of new entries; `nil` means `ou=people,<base>` under
        /// the connection's default base.
        public var peopleBase: DistinguishedName?
        /// Whether a missing people container is created on the first add.
        public var createsPeopleBase: Bool
        /// How new entries are named.
        public var naming: EntryNaming
        /// The local index of people that lookups use instead of searching the server
        /// (``PeopleIndex``); `nil` searches the server for every lookup.
        public var index: PeopleIndex?
        /// How old the index may be before a lookup brings it up to date first, in seconds.
        public var indexMaxAge: TimeInterval
        /// Told how many people have been read while the index is being made or brought up
        /// to date (a terminal shows progress), and once more with `done` when that ends.
        public var indexProgress: (@Sendable (_ read: Int, _ done: Bool) -> Void)?
        /// Told what the address book did with the index that a person may want to know: that
        /// it was made, that the server could not be reached and an older index served.
        public var notes: (@Sendable (String) -> Void)?

        /// The default ``indexMaxAge``: five minutes. Within it, a lookup costs the server
        /// nothing; past it, the next lookup asks the server what changed (with RFC 4533,
        /// little work for it).
        public static let defaultIndexMaxAge: TimeInterval = 300

        /// Creates a configuration.
        public init(peopleBase: DistinguishedName? = nil, createsPeopleBase: Bool = true,
                    naming: EntryNaming = .generatedUID, index: PeopleIndex? = nil,
                    indexMaxAge: TimeInterval = Configuration.defaultIndexMaxAge,
                    indexProgress: (@Sendable (_ read: Int, _ done: Bool) -> Void)? = nil, notes: (@Sendable (String) -> Void)? = nil) {
            self.peopleBase = peopleBase
            self.createsPeopleBase = createsPeopleBase
            self.naming = naming
            self.index = index
            self.indexMaxAge = indexMaxAge
            self.indexProgress = indexProgress
            self.notes = notes
        }
    }

    /// What ldapbook learns about a server once per address book.
    struct ServerFacts: Sendable {
        var registry: FieldRegistry
        var supportsPermissiveModify: Bool
        var supportsPostRead: Bool
    }

    /// The directory connection.
    public let connection: LDAPConnection
    /// Where new people go and how they are named.
    public let configuration: Configuration
    private let facts = Mutex<ServerFacts?>(nil)
    /// What this address book did with the index so far.
    let indexState = Mutex(IndexState())

    /// Creates an address book over `connection`.
    public init(connection: LDAPConnection, configuration: Configuration = Configuration()) {
        self.connection = connection
        self.configuration = configuration
    }

    // MARK: Fields

    func serverFacts() async throws -> ServerFacts {
        if let known = facts.withLock({ $0 }) { return known }
        async let schema = connection.schema()
        async let rootDSE = connection.rootDSE()
        let root = try await rootDSE
        let controls = Set(root.strings("supportedControl"))
        let learned = ServerFacts(
            registry: FieldRegistry(schema: try await schema),
            supportsPermissiveModify: controls.contains(LDAPControl.OID.permissiveModify),
            supportsPostRead: controls.contains(LDAPControl.OID.postRead))
        facts.withLock { $0 = learned }
        return learned
    }

    /// The field registry of this directory (its schema is read once).
    public func fieldRegistry() async throws -> FieldRegistry {
        try await serverFacts().registry
    }

    /// Resolves a field name (see ``FieldRegistry/field(named:)``).
    public func field(named name: String) async throws -> Field {
        try await fieldRegistry().field(named: name)
    }

    // MARK: Reading

    /// The container of new entries.
    public func peopleBase() throws -> DistinguishedName {
        if let base = configuration.peopleBase { return base }
        guard let base = connection.defaultBase else {
            throw AddressBookError(.notFound, "no base DN: configure one, or a people base")
        }
        return base.child("ou", "people")
    }

    /// The person at `dn`, with `fields` (and the name attributes); `nil` when there is none.
    public func person(at dn: DistinguishedName, fields: [Field] = []) async throws -> Person? {
        try await connection.read(dn, attributes: Person.attributes(for: fields)).map(Person.init)
    }

    // MARK: Writing

    /// Adds values to one field of a person, keeping every value already
    /// there (by anyone), and adds ldapbook's auxiliary class in the same
    /// atomic change when the field needs it. Values already present are
    /// not an error.
    ///
    /// - Returns: the person as stored afterwards, with `field` and the name attributes.
    /// - Throws: ``AddressBookError`` for invalid values (nothing is sent), or
    ///   ``LDAPKit/LDAPError`` from the server.
    @discardableResult
    public func add(_ values: [LDAPValue], to field: Field, of person: Person) async throws -> Person {
        try field.validate(values)
        let present = Set(person.values(of: field).map(\.bytes))
        var missing: [LDAPValue] = []
        for value in values where !present.contains(value.bytes) && !missing.contains(value) {
            missing.append(value)
        }
        if field.isSingleValued && !missing.isEmpty && !present.isEmpty {
            throw AddressBookError(.tooManyValues,
                "\(field.name) holds a single value and \(person.displayName) already has one; replace it instead")
        }
        guard !missing.isEmpty else { return person }

        var changes: [LDAPModification] = []
        if field.needsLDAPBookClass && !person.hasLDAPBookClass {
            changes.append(.add("objectClass", LDAPValue(LDAPBookSchemaName.objectClass)))
        }
        changes.append(.add(field.attribute, values: missing.map(field.stored)))
        return try await apply(changes, to: person.dn, reading: [field])
    }

    /// Applies value-level additions so that values someone else added in
    /// the meantime are never an error: with the permissive-modify control
    /// when the server has it, otherwise one change at a time.
    func apply(_ additions: [LDAPModification], to dn: DistinguishedName, reading fields: [Field]) async throws
        -> Person
    {
        let facts = try await serverFacts()
        let attributes = Person.attributes(for: fields)
        var controls: [LDAPControl] = []
        if facts.supportsPostRead { controls.append(.postRead(attributes)) }
        // Adding a value that is there already is no error here, so a write found not made
        // after its reply was lost may be sent again whole.
        func check(_ changes: [LDAPModification]) -> (LDAPEntry?) -> WriteCheck {
            { entry in
                guard let entry else { return .changedMeanwhile }
                return changes.allSatisfy { entry.has($0.values, of: $0.attribute) } ? .written : .notWritten
            }
        }
        if facts.supportsPermissiveModify {
            let response = try await sendOnce({
                try await connection.modify(dn, additions, controls: controls + [.permissiveModify])
            }, at: dn, reading: attributes, description: "adding values to \(dn)", check: check(additions))
            if let entry = try response?.postReadEntry() { return Person(entry: entry) }
        } else {
            for change in additions {
                for value in change.values {
                    let single = [LDAPModification(.add, change.attribute, values: [value])]
                    do {
                        _ = try await sendOnce({ try await connection.modify(dn, single) },
                                               at: dn, reading: attributes, description: "adding a value to \(dn)",
                                               check: check(single))
                    } catch let error as LDAPError where error.code == .attributeOrValueExists {
                        continue
                    }
                }
            }
        }
        guard let person = try await person(at: dn, fields: fields) else {
            throw AddressBookError(.notFound, "\(dn) was deleted while it was being changed")
        }
        return person
    }

    /// Creates a person: an `inetOrgPerson` (with ldapbook's auxiliary class
    /// when a field needs it) under the people base, `cn` = given name and
    /// surname, named as the configuration says. The people base is created
    /// first when missing and allowed.
    ///
    /// - Returns: the new person, with the given fields and the name attributes.
    /// - Throws: ``AddressBookError`` for a missing surname or invalid values
    ///   (nothing is sent), or ``LDAPKit/LDAPError`` from the server.
    @discardableResult
    public func add(_ newPerson: NewPerson) async throws -> Person {
        try await add(newPerson, firstName: nil)
    }

    /// ``add(_:)``, trying `firstName` first when it is given (the RDN ``entry(for:)`` found
    /// free a moment ago), so that it is not looked for again.
    func add(_ newPerson: NewPerson, firstName: RelativeDistinguishedName?) async throws -> Person {
        var entry = try draftEntry(for: newPerson)
        let surname = newPerson.surname.trimmingWhitespace()
        let base = try peopleBase()
        let fields = newPerson.values.map(\.field)
        // The new entry comes back with the add's response when the server can send it.
        let controls: [LDAPControl] = try await serverFacts().supportsPostRead ? [.postRead(Person.attributes(for: fields))] : []
        var tried = Set<String>()
        for attempt in 0..<20 {
            let rdn: RelativeDistinguishedName
            if attempt == 0, let firstName {
                rdn = firstName
            } else {
                rdn = try await freeName(for: newPerson, surname: surname, under: base, attempt: attempt, tried: tried)
            }
            let value = rdn.attributes[0].value
            tried.insert(value.lossyString)
            entry.dn = base.child(rdn)
            if case .generatedUID = configuration.naming {
                entry["uid"] = [value]
            }
            // Sent once: when the reply is lost, the entry is read to see whether it was
            // added, so that no one is ever added twice.
            let draft = entry
            func send() async throws -> LDAPResponse? {
                try await sendOnce({ try await connection.add(draft, controls: controls) }, at: draft.dn,
                                   reading: draft.attributes.map(\.name), description: "adding \(draft.dn)") { found in
                    guard let found else { return .notWritten }
                    return found.hasEveryValue(of: draft) ? .written : .changedMeanwhile
                }
            }
            let response: LDAPResponse?
            do {
                response = try await send()
            } catch let error as LDAPError where error.code == .entryAlreadyExists {
                continue
            } catch let error as AddressBookError where error.code == .changedMeanwhile {
                // Someone else added an entry of that name meanwhile: take another.
                continue
            } catch let error as LDAPError where error.code == .noSuchObject && configuration.createsPeopleBase {
                try await createPeopleBase(base)
                do {
                    response = try await send()
                } catch let error as LDAPError where error.code == .entryAlreadyExists {
                    continue
                } catch let error as AddressBookError where error.code == .changedMeanwhile {
                    continue
                }
            }
            if let added = try response?.postReadEntry() {
                return Person(entry: added)
            }
            guard let person = try await person(at: entry.dn, fields: fields) else {
                throw AddressBookError(.notFound, "\(entry.dn) was deleted right after it was added")
            }
            return person
        }
        throw AddressBookError(.noFreeName, "no free name for \(newPerson.commonName) under \(base)")
    }

    /// The entry a new person becomes, validated, without its DN: object
    /// classes, `cn`, `sn`, `givenName` and the field values.
    func draftEntry(for newPerson: NewPerson) throws(AddressBookError) -> LDAPEntry {
        let typed = newPerson.rules == .entered
        let surname = typed ? newPerson.surname.trimmingWhitespace() : newPerson.surname
        guard !surname.trimmingWhitespace().isEmpty else {
            throw AddressBookError(.invalidName, "a new person needs a surname (sn is required by inetOrgPerson)")
        }
        try Self.checkNameLengths(of: newPerson)
        if typed {
            for name in [surname, newPerson.givenName].compactMap({ $0 }) where !name.trimmingWhitespace().isEmpty {
                try NewPerson.checkHasLetter(name)
            }
        }
        let given = (typed ? newPerson.givenName?.trimmingWhitespace() : newPerson.givenName)
            .flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0 }
        let commonNames = newPerson.commonNames.map { $0.filter { !$0.isEmpty } }.flatMap { $0.isEmpty ? nil : $0 }
            ?? [newPerson.commonName]
        let nameField = Field(name: "name", attribute: "cn", kind: .text, isSingleValued: false, origin: .builtIn)
        try nameField.validate(([surname] + (given.map { [$0] } ?? []) + commonNames).map { LDAPValue($0) },
                               rules: newPerson.rules)

        var entry = LDAPEntry(dn: .root)
        var classes = newPerson.objectClasses.isEmpty ? ["inetOrgPerson"] : newPerson.objectClasses
        if !classes.contains(where: { $0.equalsIgnoringCase("inetOrgPerson") }) { classes.append("inetOrgPerson") }
        entry["cn"] = commonNames.map { LDAPValue($0) }
        entry["sn"] = [LDAPValue(surname)]
        if let given { entry["givenName"] = [LDAPValue(given)] }
        for (field, values) in newPerson.values {
            try field.validate(values, rules: newPerson.rules)
            guard !values.isEmpty else { continue }
            if field.needsLDAPBookClass && !classes.contains(where: { $0.equalsIgnoringCase(LDAPBookSchemaName.objectClass) }) {
                classes.append(LDAPBookSchemaName.objectClass)
            }
            var stored = entry[field.attribute]
            for value in values.map(field.stored) where !stored.contains(value) {
                stored.append(value)
            }
            if field.isSingleValued && stored.count > 1 {
                throw AddressBookError(.tooManyValues, "\(field.name) holds a single value; \(stored.count) were given")
            }
            entry[field.attribute] = stored
        }
        entry.attributes.insert(LDAPAttribute(name: "objectClass", values: classes.map { LDAPValue($0) }), at: 0)
        return entry
    }

    /// Refuses a first or last name longer than a query may be, before any work is done
    /// on it (a name of a million characters is refused at once).
    static func checkNameLengths(of newPerson: NewPerson) throws(AddressBookError) {
        for name in [newPerson.surname, newPerson.givenName ?? ""]
        where name.utf8.count > NameQuery.maximumLength && name.trimmingWhitespace().count > NameQuery.maximumLength {
            throw AddressBookError(.invalidName, "a name may have at most \(NameQuery.maximumLength) characters")
        }
    }

    /// The entry `add(_:)` would add for `newPerson`, DN included,
    /// without adding it (for a dry run).
    public func entry(for newPerson: NewPerson) async throws -> LDAPEntry {
        var entry = try draftEntry(for: newPerson)
        let base = try peopleBase()
        let rdn = try await freeName(for: newPerson, surname: newPerson.surname.trimmingWhitespace(), under: base,
                                     attempt: 0, tried: [])
        entry.dn = base.child(rdn)
        if case .generatedUID = configuration.naming { entry["uid"] = [rdn.attributes[0].value] }
        return entry
    }

    /// The RDN for a new entry. Generated uids skip every uid already in the
    /// directory (and those tried before); common names get a number after
    /// the first attempt.
    private func freeName(for person: NewPerson, surname: String, under base: DistinguishedName, attempt: Int,
                          tried: Set<String>) async throws -> RelativeDistinguishedName
    {
        switch configuration.naming {
        case .commonName:
            let name = attempt == 0 ? person.commonName : "\(person.commonName) \(attempt + 1)"
            return RelativeDistinguishedName(type: "cn", value: LDAPValue(name))
        case .generatedUID:
            let idBase = GeneratedUID.base(given: person.givenName, surname: surname)
            var taken = tried
            do {
                let filter = LDAPFilter.or([.equal("uid", LDAPValue(idBase)), .prefix("uid", LDAPValue(idBase + "."))])
                for try await entry in connection.search(base: connection.defaultBase ?? base, filter: filter,
                                                         attributes: ["uid"]) {
                    taken.formUnion(entry.strings("uid"))
                }
            } catch let error as LDAPError where error.code == .noSuchObject {
                // The base does not exist yet: nothing is taken.
            }
            return RelativeDistinguishedName(type: "uid", value: LDAPValue(GeneratedUID.firstFree(idBase, taken: taken)))
        }
    }

    func createPeopleBase(_ base: DistinguishedName) async throws {
        guard let rdn = base.rdn, let attribute = rdn.attributes.first else { return }
        var container = LDAPEntry(dn: base)
        container["objectClass"] = attribute.type.equalsIgnoringCase("ou")
            ? [LDAPValue("organizationalUnit")] : [LDAPValue("organization")]
        container[attribute.type] = [attribute.value]
        do {
            try await connection.add(container)
        } catch let error as LDAPError where error.code == .entryAlreadyExists {
            return
        }
    }
}
