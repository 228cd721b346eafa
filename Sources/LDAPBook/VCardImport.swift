import LDAPKit

/// Reads one card into a ``NewPerson``, property by property (see
/// ``VCard/newPerson(registry:)`` for what goes where).
struct VCardImport {
    private let card: VCard
    private let registry: FieldRegistry
    /// The values found so far, by field in order of first appearance, with
    /// the line each came from.
    private var collected: [(field: Field, values: [LDAPValue], lines: [Int?])] = []
    /// The address fields an `ADR` gave a value, so a vCard 3.0 `LABEL`
    /// does not repeat it.
    private var addressFieldsFromADR: Set<String> = []

    init(card: VCard, registry: FieldRegistry) {
        self.card = card
        self.registry = registry
    }

    mutating func newPerson() throws(VCardImportFailure) -> NewPerson {
        let (given, surname) = try names()
        var person = NewPerson(givenName: given, surname: surname)
        if let formatted = card.preferredProperties(named: "FN").first {
            let text = formatted.textValue.trimmingWhitespace()
            if !text.isEmpty && text != person.commonName {
                try add(text, to: "display-name", from: formatted)
            }
        }
        for property in VCard.preferredFirst(card.properties) where !property.isBlank {
            try read(property)
        }
        for label in card.properties(named: "LABEL") where !label.isBlank {
            let fieldName = Self.isHome(label) ? "home-address" : "address"
            guard !addressFieldsFromADR.contains(fieldName) else { continue }
            let lines = VCardPostalAddress.splitLines(label.textValue)
            if !lines.isEmpty { try add(VCardPostalAddress.stored(lines: lines), to: fieldName, from: label) }
        }
        person.values = collected.map { ($0.field, $0.values) }
        return person
    }

    // MARK: Names

    /// Given name and surname from `N`, else from the words of `FN`.
    private func names() throws(VCardImportFailure) -> (given: String?, surname: String) {
        let structured = card.preferredProperties(named: "N").first
        let formatted = card.preferredProperties(named: "FN").first
        let name = structured.map(VCardName.init(property:))
        var surname = (name?.familyNames ?? []).joined(separator: " ").trimmingWhitespace()
        var given = ((name?.givenNames ?? []) + (name?.additionalNames ?? [])).joined(separator: " ").trimmingWhitespace()
        var source = structured
        if surname.isEmpty {
            let words = (formatted?.textValue ?? "").split(whereSeparator: \.isWhitespace)
            guard let last = words.last else {
                throw VCardImportFailure(line: structured?.line ?? formatted?.line ?? card.line, error: AddressBookError(
                    .invalidName, "the card has no family name in N and no FN to take one from; a person needs a surname"))
            }
            surname = String(last)
            if given.isEmpty || given == surname { given = words.dropLast().joined(separator: " ") }
            source = formatted
        }
        let nameField = Field(name: "name", attribute: "cn", kind: .text, isSingleValued: false, origin: .builtIn)
        do {
            try nameField.validate([LDAPValue(surname)] + (given.isEmpty ? [] : [LDAPValue(given)]))
        } catch {
            throw VCardImportFailure(line: source?.line ?? card.line,
                                     error: AddressBookError(error.code, "\(source?.name ?? "N"): \(error.message)"))
        }
        return (given.isEmpty ? nil : given, surname)
    }

    // MARK: Properties

    private mutating func read(_ property: VCardProperty) throws(VCardImportFailure) {
        let name = property.name
        switch name {
        case "EMAIL":
            var address = property.textValue.trimmingWhitespace()
            if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
            try add(address, to: "email", from: property)
        case "TEL":
            try add(Self.telephoneNumber(property), to: VCardFieldMap.telephoneField(types: property.types), from: property)
        case "ADR":
            let lines = VCardPostalAddress.lines(of: property)
            guard !lines.isEmpty else { return }
            let fieldName = Self.isHome(property) ? "home-address" : "address"
            addressFieldsFromADR.insert(fieldName)
            try add(VCardPostalAddress.stored(lines: lines), to: fieldName, from: property)
        case "ORG":
            let components = property.components.map { $0.joined(separator: ",").trimmingWhitespace() }
            try add(components.first ?? "", to: "organization", from: property)
            for department in components.dropFirst() {
                try add(department, to: "department", from: property)
            }
        case "TITLE":
            try add(property.textValue, to: "title", from: property)
        case "NOTE":
            for line in VCardPostalAddress.splitLines(property.textValue) {
                try add(line, to: "note", from: property)
            }
        case "URL":
            var url = property.textValue.trimmingWhitespace()
            if !url.contains(":") || url.lowercased().hasPrefix("www.") { url = "http://" + url }
            try add(url, to: "url", from: property)
        case "NICKNAME":
            for nickname in property.textValues {
                try add(nickname, to: "nickname", from: property)
            }
        case "BDAY":
            try add(VCardDate.ldapValue(of: property), to: "birthday", from: property)
        case _ where VCardFieldMap.anniversaryProperties.contains(name):
            try add(VCardDate.ldapValue(of: property), to: "anniversary", from: property)
        case "IMPP":
            try add(property.textValue, to: "im", from: property)
        case "RELATED":
            let relation = property.types.first { $0 != "pref" } ?? "contact"
            try add(relation + "=" + property.textValue.trimmingWhitespace(), to: "related", from: property)
        case "PHOTO":
            guard let bytes = property.binaryValue else { return }
            try add(LDAPValue(bytes: bytes), to: try field("photo", for: property), from: property)
        case VCardFieldMap.customFieldProperty:
            try add(LDAPValue(property.textValue), to: try exactCustomField(for: property), from: property)
        case _ where name.hasPrefix(VCardFieldMap.ldapbookPrefix):
            let fieldName = String(name.dropFirst(VCardFieldMap.ldapbookPrefix.count)).lowercased()
            try add(property.textValue, to: fieldName, from: property)
        case _ where VCardFieldMap.instantMessagingSchemes[name] != nil:
            let scheme = VCardFieldMap.instantMessagingSchemes[name] ?? ""
            var handle = property.textValue.trimmingWhitespace()
            if !handle.lowercased().hasPrefix(scheme + ":") { handle = scheme + ":" + handle }
            try add(handle, to: "im", from: property)
        case _ where VCardFieldMap.relatedProperties[name] != nil:
            let relation = VCardFieldMap.relatedProperties[name] ?? "contact"
            try add(relation + "=" + property.textValue.trimmingWhitespace(), to: "related", from: property)
        case VCardFieldMap.appleRelatedNames:
            try add(Self.appleRelation(of: property, in: card) + "=" + property.textValue.trimmingWhitespace(), to: "related",
                    from: property)
        case _ where name.hasPrefix("X-") && !VCardFieldMap.bookkeepingProperties.contains(name):
            try add(LDAPValue(property.textValue.trimmingWhitespace()), to: try customField(for: property),
                    from: property)
        default:
            return
        }
    }

    // MARK: Fields

    private func failure(_ property: VCardProperty, _ error: AddressBookError) -> VCardImportFailure {
        VCardImportFailure(line: property.line ?? card.line,
                           error: AddressBookError(error.code, "\(property.name): \(error.message)"))
    }

    /// The field named `name`.
    private func field(_ name: String, for property: VCardProperty) throws(VCardImportFailure) -> Field {
        do {
            return try registry.field(named: name)
        } catch {
            throw failure(property, error)
        }
    }

    /// The custom field for an `X-<NAME>` property: `<name>`, or `x-<name>`
    /// when `<name>` is a built-in or schema field.
    private func customField(for property: VCardProperty) throws(VCardImportFailure) -> Field {
        let name = String(property.name.dropFirst(2)).lowercased()
        for candidate in [name, "x-" + name] {
            let resolved = try field(candidate, for: property)
            if resolved.origin == .custom { return resolved }
        }
        throw failure(property, AddressBookError(.invalidFieldName,
            "neither \(name) nor x-\(name) can be a custom field: both name fields of the directory"))
    }

    /// The custom field that `X-LDAPBOOK-FIELD;KEY=<key>` names, with the
    /// key exactly as written.
    private func exactCustomField(for property: VCardProperty) throws(VCardImportFailure) -> Field {
        guard let key = property.parameterValue(VCardFieldMap.keyParameter)?.trimmingWhitespace(), !key.isEmpty,
              !key.contains("=")
        else {
            throw failure(property, AddressBookError(.invalidFieldName,
                "needs a \(VCardFieldMap.keyParameter) parameter naming the custom field (without \"=\")"))
        }
        if let resolved = try? registry.field(named: key), resolved.origin == .custom, resolved.customKey == key {
            return resolved
        }
        guard registry.hasLDAPBookSchema else {
            throw failure(property, AddressBookError(.schemaMissing,
                "custom fields need ldapbook's schema: " + LDAPBookSchemaName.installHint))
        }
        return Field(name: key, attribute: LDAPBookSchemaName.customField, kind: .text, isSingleValued: false,
                     origin: .custom, customKey: key)
    }

    /// Adds a text value (trimmed; nothing when empty) to the field named `fieldName`.
    private mutating func add(_ text: String, to fieldName: String, from property: VCardProperty)
        throws(VCardImportFailure)
    {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return }
        try add(LDAPValue(trimmed), to: try field(fieldName, for: property), from: property)
    }

    /// Adds a value to `field` once, after checking it.
    private mutating func add(_ value: LDAPValue, to field: Field, from property: VCardProperty)
        throws(VCardImportFailure)
    {
        guard !value.isEmpty else { return }
        do {
            try field.validate([value])
        } catch {
            throw failure(property, error)
        }
        guard let index = collected.firstIndex(where: { $0.field == field }) else {
            collected.append((field, [value], [property.line]))
            return
        }
        guard !collected[index].values.contains(value) else { return }
        if field.isSingleValued {
            let earlier = collected[index].lines.first.flatMap { $0 }.map { " (line \($0))" } ?? ""
            throw failure(property, AddressBookError(.tooManyValues,
                "\(field.name) holds a single value and the card gave one already\(earlier)"))
        }
        collected[index].values.append(value)
        collected[index].lines.append(property.line)
    }
}
