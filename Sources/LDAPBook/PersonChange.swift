import LDAPKit

/// Changes to one person's fields, applied as one atomic modify.
///
/// Adding keeps every value already there. Replacing deletes exactly the
/// values this change saw and adds the new ones, so if someone else changed
/// the field in the meantime the whole change fails and nothing is written.
/// Removing deletes only the values named.
public struct PersonChange: Sendable {
    /// Values to add.
    public var adding: [(field: Field, values: [LDAPValue])]
    /// Fields whose values are replaced by these.
    public var replacing: [(field: Field, values: [LDAPValue])]
    /// Values to remove.
    public var removing: [(field: Field, values: [LDAPValue])]

    /// Describes a change.
    public init(adding: [(field: Field, values: [LDAPValue])] = [],
                replacing: [(field: Field, values: [LDAPValue])] = [],
                removing: [(field: Field, values: [LDAPValue])] = []) {
        self.adding = adding
        self.replacing = replacing
        self.removing = removing
    }
}

extension AddressBook {
    /// The modifications `change` makes to `person`, validated: nothing is
    /// sent. Empty when the person already looks as asked.
    ///
    /// - Throws: ``AddressBookError`` for invalid values, a second value of a
    ///   single-valued field, or removing a value the person does not have.
    public func modifications(for change: PersonChange, of person: Person) throws(AddressBookError) -> [LDAPModification] {
        var changes: [LDAPModification] = []
        var needsClass = false
        for (field, values) in change.replacing {
            try field.validate(values)
            let current = person.values(of: field)
            guard Set(current.map(\.bytes)) != Set(values.map(\.bytes)) else { continue }
            if !field.comparesValues {
                // The directory cannot delete the old values by naming them: the field is
                // replaced whole (no values remove it).
                changes.append(.replace(field.attribute, values: values.map(field.stored)))
                needsClass = needsClass || (field.needsLDAPBookClass && !values.isEmpty)
                continue
            }
            if !current.isEmpty {
                changes.append(.delete(field.attribute, values: current.map(field.stored)))
            }
            if !values.isEmpty {
                changes.append(.add(field.attribute, values: values.map(field.stored)))
                needsClass = needsClass || field.needsLDAPBookClass
            }
        }
        for (field, values) in change.adding {
            try field.validate(values)
            let present = Set(person.values(of: field).map(\.bytes))
            var missing: [LDAPValue] = []
            for value in values where !present.contains(value.bytes) && !missing.contains(value) {
                missing.append(value)
            }
            guard !missing.isEmpty else { continue }
            if field.isSingleValued && (!present.isEmpty || missing.count > 1) {
                throw AddressBookError(.tooManyValues,
                    "\(field.name) holds a single value and \(person.displayName) already has one; replace it instead")
            }
            if !field.comparesValues && !present.isEmpty {
                throw AddressBookError(.tooManyValues,
                    "\(person.displayName) has a \(field.name) already, and the directory cannot keep a second one "
                    + "beside it (it cannot compare \(field.name) values); replace it instead")
            }
            changes.append(.add(field.attribute, values: missing.map(field.stored)))
            needsClass = needsClass || field.needsLDAPBookClass
        }
        for (field, values) in change.removing {
            try field.checkWritable()
            let present = Set(person.values(of: field).map(\.bytes))
            for value in values where !present.contains(value.bytes) {
                let shown = field.kind.isBinary ? "that value" : "\"\(value.lossyString.prefix(60))\""
                throw AddressBookError(.notFound, "\(person.displayName) has no \(field.name) \(shown)")
            }
            guard !values.isEmpty else { continue }
            if !field.comparesValues {
                // The directory cannot find a value it cannot compare: what is left is
                // written whole instead (nothing left removes the field).
                let removed = Set(values.map(\.bytes))
                let kept = person.values(of: field).filter { !removed.contains($0.bytes) }
                changes.append(kept.isEmpty ? .delete(field.attribute) : .replace(field.attribute, values: kept.map(field.stored)))
                continue
            }
            changes.append(.delete(field.attribute, values: values.map(field.stored)))
        }
        if needsClass && !person.hasLDAPBookClass {
            changes.insert(.add("objectClass", LDAPValue(LDAPBookSchemaName.objectClass)), at: 0)
        }
        return changes
    }

    /// Applies `change` to `person` in one atomic modify.
    ///
    /// - Parameter unchanged: a filter the entry must still match for anything to be
    ///   written (an assertion, RFC 4528), such as its `entryCSN` when it was read: with it,
    ///   a change to any field meanwhile fails the whole change.
    /// - Returns: the person afterwards, with the changed fields.
    /// - Throws: ``AddressBookError`` (`changedMeanwhile`) when the entry no longer matches
    ///   `unchanged`; nothing is written then.
    @discardableResult
    public func update(_ person: Person, with change: PersonChange, unchanged: LDAPFilter? = nil) async throws -> Person {
        let changes = try modifications(for: change, of: person)
        let controls = unchanged.map { [LDAPControl.assertion($0)] } ?? []
        let fields = (change.adding + change.replacing + change.removing).map(\.field)
        guard !changes.isEmpty else { return person }
        do {
            // Sent once: when the reply is lost, the person is read to see whether the
            // change was made, was not (and is sent again), or was overtaken.
            _ = try await sendOnce({ try await connection.modify(person.dn, changes, controls: controls) }, at: person.dn,
                                   reading: Person.attributes(for: fields),
                                   description: "the change to \(person.displayName)") { entry in
                guard let entry else { return .changedMeanwhile }
                let now = Person(entry: entry)
                func values(_ person: Person, _ field: Field) -> Set<[UInt8]> { Set(person.values(of: field).map(\.bytes)) }
                let made = change.replacing.allSatisfy { values(now, $0.field) == Set($0.values.map(\.bytes)) }
                    && change.adding.allSatisfy { values(now, $0.field).isSuperset(of: $0.values.map(\.bytes)) }
                    && change.removing.allSatisfy { values(now, $0.field).isDisjoint(with: $0.values.map(\.bytes)) }
                if made { return .written }
                return fields.allSatisfy { values(now, $0) == values(person, $0) } ? .notWritten : .changedMeanwhile
            }
        } catch let error as LDAPError where error.isAssertionFailed {
            throw AddressBookError(.changedMeanwhile,
                "\(person.displayName) was changed by someone else since it was read; nothing was written — look again and retry")
        } catch let error as LDAPError where error.code == .noSuchAttribute && !change.replacing.isEmpty {
            throw AddressBookError(.notFound,
                "\(person.displayName) changed while this change was prepared; nothing was written — look again and retry")
        }
        guard let updated = try await self.person(at: person.dn, fields: fields) else {
            throw AddressBookError(.notFound, "\(person.dn) was deleted while it was being changed")
        }
        return updated
    }
}
