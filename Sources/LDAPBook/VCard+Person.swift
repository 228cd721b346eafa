import LDAPKit

extension VCard {
    /// The card for a person, with every field the entry holds:
    ///
    /// | property | from |
    /// | --- | --- |
    /// | `FN` | the name ldapbook shows (`displayName`, else `cn`, else given name and surname) |
    /// | `N` | `sn;givenName;;;`, the first of each |
    /// | `X-LDAPBOOK-CN`, `X-LDAPBOOK-DISPLAY-NAME` | every `cn` (unless `cn` is just `FN`), and `displayName`, so that an import gives back the names as stored |
    /// | `X-LDAPBOOK-SURNAME`, `X-LDAPBOOK-GIVEN-NAME` | further `sn` and `givenName` values |
    /// | `NICKNAME`, `BDAY`, `ANNIVERSARY` (3.0: `X-ANNIVERSARY` for khard and others, and `X-EVOLUTION-ANNIVERSARY` for Evolution) | ldapbook's nickname, birthday and anniversary |
    /// | `ORG` | `o;ou;ou...`, then one `ORG` for each further `o` |
    /// | `TITLE`, `NOTE`, `EMAIL` | `title`, `description`, `mail` |
    /// | `TEL` | `telephoneNumber` (`work,voice`), `mobile` (`cell`), `homePhone` (`home,voice`), `facsimileTelephoneNumber` (`work,fax`), `pager` (`pager`) |
    /// | `ADR` | `postalAddress` (`work`), `homePostalAddress` (`home`): the lines, as stored, in the street component, and as the label |
    /// | `URL;X-LDAPBOOK-LABEL=<label>` | the URI and label of each `labeledURI`; one that is not `URI label` is `X-LDAPBOOK-URL`, as stored |
    /// | `IMPP` | ldapbook's instant-messaging URIs |
    /// | `RELATED;TYPE=<relation>;VALUE=text` | ldapbook's related names, `relation=name`; one of another form is `X-LDAPBOOK-RELATED`, as stored |
    /// | `X-<KEY>;KEY=<key>` (or `X-LDAPBOOK-FIELD;KEY=<key>`) | each custom field `key=value` |
    /// | `X-LDAPBOOK-<NAME>` | `manager`, `employee-number`, and the other text attributes of the server's schema the entry holds (`roomNumber`) |
    /// | `PHOTO` | `jpegPhoto`, inline: a `data:image/jpeg;base64,` URI (`VALUE=uri`) in 4.0, `ENCODING=b;TYPE=JPEG` in 3.0 |
    /// | `UID` | the card UID the person was imported with, else `entryUUID` (as `urn:uuid:` in 4.0) when the entry was read with it, else the DN (``VCardIdentity``) |
    ///
    /// Values that are not UTF-8 text, binary values other than the photo, and empty
    /// ones are left out, and so are secrets (``SecretAttributes``); only the
    /// attributes the entry was read with can be written. A carriage return in a value
    /// becomes a line feed: vCard text has no other line break.
    public init(person: Person, registry: FieldRegistry, version: VCardVersion = .v4) {
        var export = PersonExport(entry: person.entry, version: version)
        export.names(of: person)
        export.dates()
        export.organization()
        export.text("title", as: "TITLE")
        export.emails()
        export.telephones()
        export.addresses()
        export.urls()
        export.text(LDAPBookSchemaName.instantMessaging, as: "IMPP")
        export.related()
        export.text("description", as: "NOTE")
        export.otherFields(registry: registry)
        export.customFields()
        export.photo(person.photo)
        export.uid()
        self.init(version: version, properties: export.properties)
    }
}

/// The properties of one person's card, built field by field.
private struct PersonExport {
    let entry: LDAPEntry
    let version: VCardVersion
    var properties: [VCardProperty] = []

    init(entry: LDAPEntry, version: VCardVersion) {
        self.entry = entry
        self.version = version
    }

    /// The text values of `attribute` that are not only white space.
    func strings(_ attribute: String) -> [String] {
        entry.strings(attribute).filter { !$0.trimmingWhitespace().isEmpty }
    }

    /// `X-LDAPBOOK-<field>` for each of `values`.
    mutating func ldapbookProperties(_ field: String, _ values: [String]) {
        for value in values {
            properties.append(VCardProperty(name: VCardFieldMap.ldapbookPrefix + field, text: value))
        }
    }

    func typeParameter(_ types: [String]) -> VCardParameter {
        VCardParameter("TYPE", types.map(version.typeValue))
    }

    mutating func names(of person: Person) {
        let formatted = person.displayName
        properties.append(VCardProperty(name: "FN", text: formatted))
        let surnames = strings("sn"), givenNames = strings("givenName")
        let name = VCardName(familyNames: Array(surnames.prefix(1)), givenNames: Array(givenNames.prefix(1)))
        properties.append(name.property)
        let commonNames = strings("cn")
        if commonNames != [formatted] { ldapbookProperties("CN", commonNames) }
        ldapbookProperties("DISPLAY-NAME", strings("displayName"))
        ldapbookProperties("SURNAME", Array(surnames.dropFirst()))
        ldapbookProperties("GIVEN-NAME", Array(givenNames.dropFirst()))
        for nickname in strings(LDAPBookSchemaName.nickname) {
            properties.append(VCardProperty(name: "NICKNAME", textList: [nickname]))
        }
    }

    mutating func dates() {
        if let birthday = strings(LDAPBookSchemaName.birthday).first {
            properties.append(VCardDate.property(named: "BDAY", stored: birthday, version: version))
        }
        if let anniversary = strings(LDAPBookSchemaName.anniversary).first {
            let names = version == .v4 ? ["ANNIVERSARY"] : ["X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY"]
            for name in names {
                properties.append(VCardDate.property(named: name, stored: anniversary, version: version))
            }
        }
    }

    mutating func organization() {
        let organizations = strings("o"), departments = strings("ou")
        guard !organizations.isEmpty || !departments.isEmpty else { return }
        let first = [Array(organizations.prefix(1))] + departments.map { [$0] }
        properties.append(VCardProperty(name: "ORG", components: first))
        for organization in organizations.dropFirst() {
            properties.append(VCardProperty(name: "ORG", components: [[organization]]))
        }
    }

    mutating func text(_ attribute: String, as name: String) {
        for value in strings(attribute) {
            properties.append(VCardProperty(name: name, text: value))
        }
    }

    mutating func emails() {
        let parameters = version == .v3 ? [typeParameter(["internet"])] : []
        for address in strings("mail") {
            properties.append(VCardProperty(name: "EMAIL", parameters: parameters, text: address))
        }
    }

    mutating func telephones() {
        for telephone in VCardFieldMap.telephones {
            for number in strings(telephone.attribute) {
                properties.append(VCardProperty(name: "TEL", parameters: [typeParameter(telephone.types)], text: number))
            }
        }
    }

    mutating func addresses() {
        for (attribute, type) in [("postalAddress", "work"), ("homePostalAddress", "home")] {
            for stored in strings(attribute) {
                let lines = VCardPostalAddress.lines(ofStored: stored)
                guard !lines.isEmpty else { continue }
                properties += VCardPostalAddress.properties(lines: lines, type: type, version: version)
            }
        }
    }

    /// `URL` with the label in ``VCardFieldMap/urlLabelParameter`` for each `URI label`
    /// (or bare URI) value; any other value, exactly as stored, as `X-LDAPBOOK-URL`.
    mutating func urls() {
        for labeled in strings("labeledURI") {
            let parts = labeled.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let uri = String(parts[0])
            let label = parts.count > 1 ? String(parts[1]) : nil
            let isURI = uri.contains(":") && !uri.lowercased().hasPrefix("www.") && FieldKind.urlViolation(uri) == nil
            guard isURI, label.map({ !$0.isEmpty && !$0.contains(where: \.isNewline) }) ?? true else {
                ldapbookProperties("URL", [labeled])
                continue
            }
            let parameters = label.map { [VCardParameter(VCardFieldMap.urlLabelParameter, $0)] } ?? []
            properties.append(VCardProperty(name: "URL", parameters: parameters, value: uri))
        }
    }

    /// `RELATED;TYPE=<relation>` for each `relation=name` whose relation a card can carry
    /// as it is (a lower-case word); any other value, exactly as stored, as `X-LDAPBOOK-RELATED`.
    mutating func related() {
        for stored in strings(LDAPBookSchemaName.relatedName) {
            guard let equals = stored.firstIndex(of: "="), equals != stored.startIndex else {
                ldapbookProperties("RELATED", [stored])
                continue
            }
            let relation = String(stored[..<equals])
            let name = String(stored[stored.index(after: equals)...])
            guard relation != "pref", !name.isEmpty,
                  relation.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
                ldapbookProperties("RELATED", [stored])
                continue
            }
            properties.append(VCardProperty(name: "RELATED", parameters: [typeParameter([relation]), VCardParameter("VALUE", "text")],
                                            text: name))
        }
    }

    /// `X-LDAPBOOK-<NAME>` for the built-in fields without a standard
    /// property, then for the text attributes of the server's schema.
    mutating func otherFields(registry: FieldRegistry) {
        for field in BuiltInField.all where !VCardFieldMap.fieldsWithStandardProperties.contains(field.name) {
            text(field.attribute, as: VCardFieldMap.ldapbookPrefix + field.name)
        }
        let covered = Set(BuiltInField.all.map { $0.attribute.lowercased() }).union(VCardFieldMap.attributesNotExported)
        for attribute in entry.attributes where !covered.contains(attribute.name.lowercased()) {
            guard let field = try? registry.field(named: attribute.name), field.origin == .directorySchema,
                  !field.kind.isBinary, !covered.contains(field.attribute.lowercased())
            else { continue }
            text(attribute.name, as: VCardFieldMap.ldapbookPrefix + field.attribute)
        }
    }

    mutating func customFields() {
        var categories: [String] = []
        defer {
            if !categories.isEmpty { properties.append(VCardProperty(name: "CATEGORIES", textList: categories)) }
        }
        for stored in strings(LDAPBookSchemaName.customField) {
            guard let equals = stored.firstIndex(of: "="), equals != stored.startIndex else { continue }
            let value = String(stored[stored.index(after: equals)...])
            // The card UID is the card's UID.
            guard !value.isEmpty, stored[..<equals] != VCardIdentity.fieldName else { continue }
            // X-SHOE-SIZE;KEY=shoe-size: a name other address books show; KEY keeps its case.
            let key = String(stored[..<equals])
            if key == VCardFieldMap.categoriesField {
                categories.append(value)
                continue
            }
            properties.append(VCardProperty(name: VCardFieldMap.customFieldPropertyName(for: key) ?? VCardFieldMap.customFieldProperty,
                                            parameters: [VCardParameter(VCardFieldMap.keyParameter, key)],
                                            text: value))
        }
    }

    mutating func photo(_ bytes: [UInt8]?) {
        guard let bytes, !bytes.isEmpty else { return }
        properties.append(VCardProperty(name: "PHOTO", binary: bytes, mediaType: "image/jpeg", version: version))
    }

    mutating func uid() {
        guard let (value, isText) = VCardIdentity.exportedUID(of: entry, version: version) else { return }
        if isText {
            let parameters = version == .v4 ? [VCardParameter("VALUE", "text")] : []
            properties.append(VCardProperty(name: "UID", parameters: parameters, text: value))
        } else {
            properties.append(VCardProperty(name: "UID", value: value))
        }
    }
}
