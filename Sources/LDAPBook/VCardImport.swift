import LDAPKit

/// Reads one card into an ``ImportRecord``, property by property (see
/// ``VCard/newPerson(registry:)`` for what goes where).
struct VCardImport {
    private let card: VCard
    private let registry: FieldRegistry
    /// The reference attributes the import may write (`manager`), in lower case.
    private let writableReferences: Set<String>
    /// The values found so far, by field in order of first appearance, with
    /// the line each came from.
    private var collected: [(field: Field, values: [LDAPValue], lines: [Int?])] = []
    /// The full names of `X-LDAPBOOK-CN`.
    private var commonNames: [String] = []
    /// What the card holds that is not written.
    private var skipped: [SkippedAttribute] = []
    /// The address fields an `ADR` gave a value, so a vCard 3.0 `LABEL`
    /// does not repeat it.
    private var addressFieldsFromADR: Set<String> = []

    init(card: VCard, registry: FieldRegistry, writableReferences: Set<String> = []) {
        self.card = card
        self.registry = registry
        self.writableReferences = Set(writableReferences.map { $0.lowercased() })
    }

    mutating func newPerson() throws(VCardImportFailure) -> NewPerson {
        try record().person
    }

    /// The card as a record: its names, its values checked as a directory holds them
    /// (``FieldKind/Rules/stored``), its `UID`, and what it holds that is not written.
    mutating func record() throws(VCardImportFailure) -> ImportRecord {
        // A card for an organisation, a group or a place is no person: said, not made one.
        if let kind = card.preferredProperties(named: "KIND").first ?? card.preferredProperties(named: "X-ADDRESSBOOKSERVER-KIND").first,
           !["individual", ""].contains(kind.textValue.trimmingWhitespace().lowercased()) {
            let what = kind.textValue.trimmingWhitespace().lowercased()
            let named = card.preferredProperties(named: "FN").first.map { " (\($0.textValue.prefix(60)))" } ?? ""
            throw VCardImportFailure(line: kind.line ?? card.line, error: AddressBookError(.invalidName,
                "\(kind.name):\(what.prefix(20)): the card is \(what == "org" ? "an organisation" : "a \(what.prefix(20))")\(named), "
                    + "not a person; ldapbook imports people"))
        }
        let (given, surname) = try names()
        var person = NewPerson(givenName: given, surname: surname)
        person.rules = .stored
        for property in VCard.preferredFirst(card.properties) where !property.isBlank {
            try read(property)
        }
        for label in card.properties(named: "LABEL") where !label.isBlank {
            let fieldName = Self.isHome(label) ? "home-address" : "address"
            guard !addressFieldsFromADR.contains(fieldName) else { continue }
            let lines = VCardPostalAddress.splitLines(label.textValue)
            if !lines.isEmpty { try add(LDAPValue(VCardPostalAddress.stored(lines: lines)), toField: fieldName, from: label) }
        }
        // The full name is cn: as ldapbook's X-LDAPBOOK-CN lists it, else the card's FN.
        if !commonNames.isEmpty {
            person.commonNames = commonNames
        } else if let formatted = card.preferredProperties(named: "FN").first,
                  !formatted.textValue.trimmingWhitespace().isEmpty {
            person.commonNames = [formatted.textValue]
        }
        person.values = collected.map { ($0.field, $0.values) }
        let uid = card.preferredProperties(named: "UID").first.map(\.textValue).flatMap { $0.isEmpty ? nil : $0 }
        var record = ImportRecord(person: person, cardUID: uid)
        record.skipped = skipped
        return record
    }

    // MARK: Names

    /// Given name and surname from `N`, else from the words of `FN`.
    private func names() throws(VCardImportFailure) -> (given: String?, surname: String) {
        let structured = card.preferredProperties(named: "N").first
        let formatted = card.preferredProperties(named: "FN").first
        let name = structured.map(VCardName.init(property:))
        // Kept as written: a name's spaces are the directory's, when the card came from one.
        var surname = (name?.familyNames ?? []).joined(separator: " ")
        var given = ((name?.givenNames ?? []) + (name?.additionalNames ?? [])).joined(separator: " ")
        if given.trimmingWhitespace().isEmpty { given = "" }
        var source = structured
        if surname.trimmingWhitespace().isEmpty {
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
            try nameField.validate([LDAPValue(surname)] + (given.isEmpty ? [] : [LDAPValue(given)]), rules: .stored)
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
            try add(address, toField: "email", from: property)
            // The directory keeps addresses, not whether they are home or work ones.
            let types = property.types.filter { !["pref", "internet", "x400"].contains($0) }
            if !types.isEmpty { note(SkippedAttribute("EMAIL;TYPE=\(types.joined(separator: ","))", .noField, property: nil)) }
        case "CATEGORIES":
            // Categories go in the custom field categories, one value each; a directory
            // without custom fields (ldapbook's schema) has nowhere to keep them.
            guard let categories = try? field(VCardFieldMap.categoriesField, for: property), categories.origin == .custom else {
                note(SkippedAttribute("CATEGORIES", .noField, property: nil))
                return
            }
            for category in property.textValues where !category.trimmingWhitespace().isEmpty {
                try add(LDAPValue(category.trimmingWhitespace()), to: categories, from: property)
            }
        case "TEL":
            try add(Self.telephoneNumber(property), toField: VCardFieldMap.telephoneField(types: property.types), from: property)
        case "ADR":
            let lines = VCardPostalAddress.lines(of: property)
            guard !lines.isEmpty else { return }
            let fieldName = Self.isHome(property) ? "home-address" : "address"
            addressFieldsFromADR.insert(fieldName)
            try add(LDAPValue(VCardPostalAddress.stored(lines: lines)), toField: fieldName, from: property)
        case "ORG":
            let components = property.components.map { $0.joined(separator: ",") }
            try add(LDAPValue(components.first ?? ""), toField: "organization", from: property)
            for department in components.dropFirst() {
                try add(LDAPValue(department), toField: "department", from: property)
            }
        case "TITLE":
            try add(LDAPValue(property.textValue), toField: "title", from: property)
        case "NOTE":
            // One note, line breaks and all: LDAP text holds them.
            try add(LDAPValue(property.textValue), toField: "note", from: property)
        case "URL":
            var url = property.textValue.trimmingWhitespace()
            if !url.contains(":") || url.lowercased().hasPrefix("www.") { url = "http://" + url }
            if let label = property.parameterValue(VCardFieldMap.urlLabelParameter), !label.isEmpty {
                url += " " + label
            }
            try add(url, toField: "url", from: property)
        case "NICKNAME":
            for nickname in property.textValues {
                try add(LDAPValue(nickname), toField: "nickname", from: property)
            }
        case "BDAY":
            try add(VCardDate.ldapValue(of: property), toField: "birthday", from: property)
        case _ where VCardFieldMap.anniversaryProperties.contains(name):
            try add(VCardDate.ldapValue(of: property), toField: "anniversary", from: property)
        case "IMPP":
            try add(property.textValue, toField: "im", from: property)
        case "RELATED":
            let relation = property.types.first { $0 != "pref" } ?? "contact"
            try add(LDAPValue(relation + "=" + property.textValue), toField: "related", from: property)
        case "PHOTO":
            guard let bytes = property.binaryValue else {
                // A photo given by reference (a web address) is not fetched.
                note(SkippedAttribute("PHOTO", .noField, property: nil))
                return
            }
            try add(LDAPValue(bytes: bytes), toField: "photo", from: property)
        case VCardFieldMap.customFieldProperty:
            try add(LDAPValue(property.textValue), to: try exactCustomField(for: property), from: property)
        case _ where name.hasPrefix(VCardFieldMap.ldapbookPrefix):
            try readLDAPBookProperty(property)
        case _ where VCardFieldMap.instantMessagingSchemes[name] != nil:
            let scheme = VCardFieldMap.instantMessagingSchemes[name] ?? ""
            var handle = property.textValue.trimmingWhitespace()
            if !handle.lowercased().hasPrefix(scheme + ":") { handle = scheme + ":" + handle }
            try add(handle, toField: "im", from: property)
        case _ where VCardFieldMap.relatedProperties[name] != nil:
            let relation = VCardFieldMap.relatedProperties[name] ?? "contact"
            try add(relation + "=" + property.textValue.trimmingWhitespace(), toField: "related", from: property)
        case VCardFieldMap.appleRelatedNames:
            try add(Self.appleRelation(of: property, in: card) + "=" + property.textValue.trimmingWhitespace(),
                    toField: "related", from: property)
        case _ where name.hasPrefix("X-") && !VCardFieldMap.bookkeepingProperties.contains(name)
            && property.parameterValue(VCardFieldMap.keyParameter) != nil:
            // ldapbook's own X-SHOE-SIZE;KEY=shoe-size: the custom field KEY names, exactly.
            try add(LDAPValue(property.textValue), to: try exactCustomField(for: property), from: property)
        case _ where name.hasPrefix("X-") && !VCardFieldMap.bookkeepingProperties.contains(name):
            try add(LDAPValue(property.textValue.trimmingWhitespace()), to: try customField(for: property),
                    from: property)
        case _ where VCardFieldMap.cardBookkeeping.contains(name) || name.hasPrefix("X-"):
            return
        default:
            // A standard property no field holds (ROLE, CATEGORIES, GEO...): said, not dropped in silence.
            note(SkippedAttribute(name, .noField, property: nil))
        }
    }

    /// Notes once that the card's `skip` is not written.
    private mutating func note(_ skip: SkippedAttribute) {
        if !skipped.contains(skip) { skipped.append(skip) }
    }

    /// `X-LDAPBOOK-<NAME>`: the value of the field `<name>`, exactly as written, unless
    /// ldapbook does not write that field from a file (a secret, `objectClass`, `uid`, an
    /// operational attribute, a reference, another class's attribute): that is skipped and
    /// reported, not refused. `X-LDAPBOOK-CN` is a full name.
    private mutating func readLDAPBookProperty(_ property: VCardProperty) throws(VCardImportFailure) {
        let fieldName = String(property.name.dropFirst(VCardFieldMap.ldapbookPrefix.count)).lowercased()
        if ["cn", "commonname"].contains(fieldName) {
            let text = property.textValue
            guard !text.isEmpty else { return }
            do {
                try Field(name: "name", attribute: "cn", kind: .text, isSingleValued: false, origin: .builtIn)
                    .validate([LDAPValue(text)], rules: .stored)
            } catch {
                throw failure(property, error)
            }
            if !commonNames.contains(text) { commonNames.append(text) }
            return
        }
        if let attribute = registry.schema?.attributeType(named: fieldName), attribute.isOperational || !attribute.isUserModifiable {
            skipped.append(SkippedAttribute(attribute.name, .operational, property: property.name))
            return
        }
        let field: Field
        do {
            field = try registry.field(named: fieldName)
        } catch where error.code == .notWritable {
            let name = registry.schema?.attributeType(named: fieldName)?.name ?? fieldName
            skipped.append(SkippedAttribute(name, registry.isSecret(fieldName)
                ? .secret : .objectClass, property: property.name))
            return
        } catch {
            throw failure(property, error)
        }
        try add(LDAPValue(property.textValue), to: field, from: property)
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

    /// Adds a value written in a structured form (an address, a number, a date, a URI),
    /// trimmed, to the field named `fieldName`; nothing when it is empty.
    private mutating func add(_ text: String, toField fieldName: String, from property: VCardProperty)
        throws(VCardImportFailure)
    {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return }
        try add(LDAPValue(trimmed), toField: fieldName, from: property)
    }

    /// Adds a value, exactly as written, to the field named `fieldName`; nothing when it is
    /// empty or only white space.
    private mutating func add(_ value: LDAPValue, toField fieldName: String, from property: VCardProperty)
        throws(VCardImportFailure)
    {
        guard value.string.map({ !$0.trimmingWhitespace().isEmpty }) ?? !value.isEmpty else { return }
        try add(value, to: try field(fieldName, for: property), from: property)
    }

    /// Adds a value to `field` once, after checking it as a directory holds it; a field
    /// ldapbook does not write from a file is skipped and reported instead.
    private mutating func add(_ value: LDAPValue, to field: Field, from property: VCardProperty)
        throws(VCardImportFailure)
    {
        guard !value.isEmpty else { return }
        if let restriction = field.restriction,
           !(restriction == .reference && (writableReferences.contains(field.attribute.lowercased())
                                           || writableReferences.contains(field.name.lowercased()))) {
            let skip = SkippedAttribute(field.name, .restricted(restriction), property: property.name)
            if !skipped.contains(skip) { skipped.append(skip) }
            return
        }
        do {
            try field.validate([value], rules: .stored)
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
