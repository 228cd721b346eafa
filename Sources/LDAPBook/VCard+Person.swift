import LDAPKit

extension VCard {
    /// The card for a person, with every field the entry holds:
    ///
    /// | property | from |
    /// | --- | --- |
    /// | `FN` | the name ldapbook shows (`displayName`, else `cn`, else given name and surname) |
    /// | `N` | `sn;givenName;;;` |
    /// | `NICKNAME`, `BDAY`, `ANNIVERSARY` (3.0: `X-ANNIVERSARY` for khard and others, and `X-EVOLUTION-ANNIVERSARY` for Evolution) | ldapbook's nickname, birthday and anniversary |
    /// | `ORG` | `o;ou;ou...`, then one `ORG` for each further `o` |
    /// | `TITLE`, `NOTE`, `EMAIL` | `title`, `description`, `mail` |
    /// | `TEL` | `telephoneNumber` (`work,voice`), `mobile` (`cell`), `homePhone` (`home,voice`), `facsimileTelephoneNumber` (`work,fax`), `pager` (`pager`) |
    /// | `ADR` | `postalAddress` (`work`), `homePostalAddress` (`home`): the lines in the street component, and as the label |
    /// | `URL` | the URI of each `labeledURI` (the label is left out) |
    /// | `IMPP` | ldapbook's instant-messaging URIs |
    /// | `RELATED;TYPE=<relation>;VALUE=text` | ldapbook's related names, `relation=name` |
    /// | `X-LDAPBOOK-FIELD;KEY=<key>` | each custom field `key=value` |
    /// | `X-LDAPBOOK-<NAME>` | `manager`, `employee-number`, and the other text attributes of the server's schema the entry holds (`roomNumber`) |
    /// | `PHOTO` | `jpegPhoto`, inline: a `data:image/jpeg;base64,` URI (`VALUE=uri`) in 4.0, `ENCODING=b;TYPE=JPEG` in 3.0 |
    /// | `UID` | `entryUUID` (as `urn:uuid:` in 4.0) when the entry has it, else the DN |
    ///
    /// Values that are not UTF-8 text, and empty ones, are left out; only the
    /// attributes the entry was read with can be written.
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

    /// The non-empty text values of `attribute`.
    func strings(_ attribute: String) -> [String] {
        entry.strings(attribute).filter { !$0.trimmingWhitespace().isEmpty }
    }

    func typeParameter(_ types: [String]) -> VCardParameter {
        VCardParameter("TYPE", types.map(version.typeValue))
    }

    mutating func names(of person: Person) {
        properties.append(VCardProperty(name: "FN", text: person.displayName))
        let name = VCardName(familyNames: Array(strings("sn").prefix(1)), givenNames: Array(strings("givenName").prefix(1)))
        properties.append(name.property)
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

    mutating func urls() {
        for labeled in strings("labeledURI") {
            guard let uri = labeled.trimmingWhitespace().split(separator: " ", maxSplits: 1).first else { continue }
            properties.append(VCardProperty(name: "URL", value: String(uri)))
        }
    }

    mutating func related() {
        for stored in strings(LDAPBookSchemaName.relatedName) {
            var parameters: [VCardParameter] = []
            var name = stored
            if let equals = stored.firstIndex(of: "="), equals != stored.startIndex {
                parameters.append(typeParameter([String(stored[..<equals]).trimmingWhitespace()]))
                name = String(stored[stored.index(after: equals)...])
            }
            parameters.append(VCardParameter("VALUE", "text"))
            properties.append(VCardProperty(name: "RELATED", parameters: parameters, text: name))
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
        for stored in strings(LDAPBookSchemaName.customField) {
            guard let equals = stored.firstIndex(of: "="), equals != stored.startIndex else { continue }
            let value = String(stored[stored.index(after: equals)...])
            guard !value.isEmpty else { continue }
            properties.append(VCardProperty(name: VCardFieldMap.customFieldProperty,
                                            parameters: [VCardParameter(VCardFieldMap.keyParameter, String(stored[..<equals]))],
                                            text: value))
        }
    }

    mutating func photo(_ bytes: [UInt8]?) {
        guard let bytes, !bytes.isEmpty else { return }
        properties.append(VCardProperty(name: "PHOTO", binary: bytes, mediaType: "image/jpeg", version: version))
    }

    mutating func uid() {
        if let uuid = strings("entryUUID").first {
            let value = uuid.lowercased()
            properties.append(VCardProperty(name: "UID", value: version == .v4 ? "urn:uuid:" + value : value))
        } else if !entry.dn.isRoot {
            let parameters = version == .v4 ? [VCardParameter("VALUE", "text")] : []
            properties.append(VCardProperty(name: "UID", parameters: parameters, text: entry.dn.string))
        }
    }
}
