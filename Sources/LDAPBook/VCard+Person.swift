import LDAPKit

extension VCard {
    /// The card for a person: the one ``VCardExport`` writes (see there for what each
    /// property holds), read back.
    public init(person: Person, registry: FieldRegistry, version: VCardVersion = .v4) {
        var export = VCardExport(registry: registry, version: version)
        var bytes: [UInt8] = []
        export.append(person, to: &bytes)
        guard case .success(let card)? = VCardParser.cards(in: bytes).first else {
            preconditionFailure("the card written for \(person.dn) does not read back")
        }
        self = card
    }
}

/// Writes people as vCards straight into an output, each with every field the entry holds:
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
///
/// What each attribute is to a card is worked out once per attribute name, and each
/// entry's attributes are read once, into the places of the properties they make; the
/// text goes from the entry's bytes to the output, escaped and folded on the way, without
/// a ``VCardProperty`` for the common properties. An export of 100,000 people made that
/// way runs at about the rate of `ldapsearch` printing them (BENCHMARKS.md, workload 5).
public struct VCardExport {
    /// The fields of the directory the people come from.
    public let registry: FieldRegistry
    /// The version written.
    public let version: VCardVersion

    private var line = VCardContentLineWriter()
    /// What each attribute name is to a card, as met.
    private var roles = NameMemo<Role>()
    /// The current entry's values in each place (``Place`` and then ``extraBuiltIns``).
    private var places: [[LDAPValue]]
    /// The current entry's other text attributes of the schema, in the entry's order.
    private var others: [(property: String, values: [LDAPValue])] = []

    /// Where an attribute's values go.
    private enum Role {
        /// To the place of this index.
        case place(Int)
        /// To `X-LDAPBOOK-<NAME>`, this property.
        case other(String)
        /// Nowhere (names the card has otherwise, `uid`, secrets, binary attributes...).
        case ignored
    }

    /// The attributes that have a place of their own, in the order of their places.
    private enum Place: Int, CaseIterable {
        case givenName, surname, commonName, displayName, nickname, birthday, anniversary, organization, department
        case title, email, phone, mobile, homePhone, fax, pager, address, homeAddress, url, im, related, note
        case custom, photo, entryUUID

        var attribute: String {
            switch self {
            case .givenName: "givenName"
            case .surname: "sn"
            case .commonName: "cn"
            case .displayName: "displayName"
            case .nickname: LDAPBookSchemaName.nickname
            case .birthday: LDAPBookSchemaName.birthday
            case .anniversary: LDAPBookSchemaName.anniversary
            case .organization: "o"
            case .department: "ou"
            case .title: "title"
            case .email: "mail"
            case .phone: "telephoneNumber"
            case .mobile: "mobile"
            case .homePhone: "homePhone"
            case .fax: "facsimileTelephoneNumber"
            case .pager: "pager"
            case .address: "postalAddress"
            case .homeAddress: "homePostalAddress"
            case .url: "labeledURI"
            case .im: LDAPBookSchemaName.instantMessaging
            case .related: LDAPBookSchemaName.relatedName
            case .note: "description"
            case .custom: LDAPBookSchemaName.customField
            case .photo: "jpegPhoto"
            case .entryUUID: "entryUUID"
            }
        }
    }

    /// The built-in fields without a standard property (`manager`, `employee-number`),
    /// written as `X-LDAPBOOK-<NAME>`; their places follow ``Place``'s.
    private static let extraBuiltIns = BuiltInField.all.filter { !VCardFieldMap.fieldsWithStandardProperties.contains($0.name) }

    /// The attributes no `X-LDAPBOOK-<NAME>` is written for: the built-in fields' (which
    /// have their places) and those the card covers otherwise or that are not about the person.
    private static let covered = Set(BuiltInField.all.map { $0.attribute.lowercased() }).union(VCardFieldMap.attributesNotExported)

    /// The telephone places and the `TYPE`s of their `TEL` properties.
    private static let telephones: [(place: Place, types: [String])] = VCardFieldMap.telephones.map { telephone in
        (Place.allCases.first { $0.attribute == telephone.attribute }!, telephone.types)
    }

    /// An export of people of the directory `registry` describes, as `version` cards.
    public init(registry: FieldRegistry, version: VCardVersion = .v4) {
        self.registry = registry
        self.version = version
        places = Array(repeating: [], count: Place.allCases.count + Self.extraBuiltIns.count)
    }

    /// Appends `person`'s card to `output`.
    public mutating func append(_ person: Person, to output: inout [UInt8]) {
        sort(person.entry)
        line.beginCard(version: version, to: &output)
        names(of: person, to: &output)
        dates(to: &output)
        organization(to: &output)
        texts(.title, as: "TITLE", to: &output)
        emails(to: &output)
        telephones(to: &output)
        addresses(to: &output)
        urls(to: &output)
        texts(.im, as: "IMPP", to: &output)
        related(to: &output)
        texts(.note, as: "NOTE", to: &output)
        otherFields(to: &output)
        customFields(to: &output)
        photo(to: &output)
        uid(of: person.entry.dn, to: &output)
        line.endCard(to: &output)
    }

    // MARK: Reading the entry

    /// Puts each attribute's values in their place.
    private mutating func sort(_ entry: LDAPEntry) {
        for index in places.indices where !places[index].isEmpty { places[index] = [] }
        others.removeAll(keepingCapacity: true)
        for attribute in entry.attributes where !attribute.values.isEmpty {
            switch role(of: attribute.name) {
            case .place(let index):
                if places[index].isEmpty { places[index] = attribute.values }
            case .other(let property):
                others.append((property, attribute.values))
            case .ignored:
                break
            }
        }
    }

    /// What `name` is to a card, worked out the first time it is met.
    private mutating func role(of name: String) -> Role {
        if let known = roles.answer(for: name) { return known }
        let role = Self.role(of: name, registry: registry)
        roles.remember(role, for: name)
        return role
    }

    private static func role(of name: String, registry: FieldRegistry) -> Role {
        if registry.isSecret(name) { return .ignored }
        if let place = Place.allCases.first(where: { $0.attribute.equalsIgnoringCase(name) }) { return .place(place.rawValue) }
        if let extra = Self.extraBuiltIns.firstIndex(where: { $0.attribute.equalsIgnoringCase(name) }) {
            return .place(Place.allCases.count + extra)
        }
        guard !Self.covered.contains(name.lowercased()), let field = try? registry.field(named: name),
              field.origin == .directorySchema, !field.kind.isBinary, !Self.covered.contains(field.attribute.lowercased())
        else { return .ignored }
        return .other(VCardFieldMap.ldapbookPrefix + field.attribute)
    }

    /// The values in `place` that are text and not only white space.
    private func texts(_ place: Place) -> LazyFilterSequence<[LDAPValue]> {
        texts(places[place.rawValue])
    }

    private func texts(_ values: [LDAPValue]) -> LazyFilterSequence<[LDAPValue]> {
        values.lazy.filter { $0.isUTF8 && !$0.isBlank }
    }

    /// The text values in `place` as strings.
    private func strings(_ place: Place) -> [String] {
        texts(place).map(\.lossyString)
    }

    // MARK: Writing properties

    private mutating func text(_ name: String, _ value: LDAPValue, parameters: [VCardParameter] = [], to output: inout [UInt8]) {
        line.begin(name)
        for parameter in parameters { line.parameter(parameter.name, parameter.values) }
        line.value(text: value)
        line.end(to: &output)
    }

    private mutating func texts(_ place: Place, as name: String, parameters: [VCardParameter] = [], to output: inout [UInt8]) {
        for value in texts(place) { text(name, value, parameters: parameters, to: &output) }
    }

    /// `X-LDAPBOOK-<field>` for each of `values`.
    private mutating func ldapbookProperties(_ field: String, _ values: some Sequence<LDAPValue>, to output: inout [UInt8]) {
        for value in values { text(VCardFieldMap.ldapbookPrefix + field, value, to: &output) }
    }

    private func typeParameter(_ types: [String]) -> VCardParameter {
        VCardParameter("TYPE", types.map(version.typeValue))
    }

    /// The `TYPE` of each telephone place, as this version writes it.
    private lazy var telephoneTypes: [[VCardParameter]] = Self.telephones.map { [typeParameter($0.types)] }
    /// The parameters of `EMAIL`.
    private lazy var emailParameters: [VCardParameter] = version == .v3 ? [typeParameter(["internet"])] : []

    /// The name ldapbook shows (``Person/displayName``), from the places: the first
    /// `displayName`, else the first `cn`, unless empty; else given name and surname.
    private func formattedName(of person: Person) -> LDAPValue? {
        for place in [Place.displayName, .commonName] {
            if let first = places[place.rawValue].first(where: \.isUTF8), !first.isEmpty { return first }
        }
        return nil
    }

    private mutating func names(of person: Person, to output: inout [UInt8]) {
        let formatted = formattedName(of: person) ?? LDAPValue(person.displayName)
        line.begin("FN")
        line.value(text: formatted)
        line.end(to: &output)
        let surnames = texts(.surname), givenNames = texts(.givenName)
        line.begin("N")
        if let surname = surnames.first { line.value(text: surname) }
        line.value(separator: UInt8(ascii: ";"))
        if let given = givenNames.first { line.value(text: given) }
        line.value(ascii: ";;;")
        line.end(to: &output)
        let commonNames = texts(.commonName)
        if !commonNames.elementsEqual([formatted]) { ldapbookProperties("CN", commonNames, to: &output) }
        ldapbookProperties("DISPLAY-NAME", texts(.displayName), to: &output)
        ldapbookProperties("SURNAME", surnames.dropFirst(), to: &output)
        ldapbookProperties("GIVEN-NAME", givenNames.dropFirst(), to: &output)
        texts(.nickname, as: "NICKNAME", to: &output)
    }

    private mutating func dates(to output: inout [UInt8]) {
        if let birthday = strings(.birthday).first {
            line.write(VCardDate.property(named: "BDAY", stored: birthday, version: version), to: &output)
        }
        if let anniversary = strings(.anniversary).first {
            let names = version == .v4 ? ["ANNIVERSARY"] : ["X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY"]
            for name in names {
                line.write(VCardDate.property(named: name, stored: anniversary, version: version), to: &output)
            }
        }
    }

    private mutating func organization(to output: inout [UInt8]) {
        let organizations = texts(.organization), departments = texts(.department)
        guard !organizations.isEmpty || !departments.isEmpty else { return }
        line.begin("ORG")
        if let first = organizations.first { line.value(text: first) }
        for department in departments {
            line.value(separator: UInt8(ascii: ";"))
            line.value(text: department)
        }
        line.end(to: &output)
        for organization in organizations.dropFirst() { text("ORG", organization, to: &output) }
    }

    private mutating func emails(to output: inout [UInt8]) {
        texts(.email, as: "EMAIL", parameters: emailParameters, to: &output)
    }

    private mutating func telephones(to output: inout [UInt8]) {
        for (index, telephone) in Self.telephones.enumerated() {
            texts(telephone.place, as: "TEL", parameters: telephoneTypes[index], to: &output)
        }
    }

    private mutating func addresses(to output: inout [UInt8]) {
        for (place, type) in [(Place.address, "work"), (.homeAddress, "home")] {
            for stored in strings(place) {
                let lines = VCardPostalAddress.lines(ofStored: stored)
                guard !lines.isEmpty else { continue }
                for property in VCardPostalAddress.properties(lines: lines, type: type, version: version) {
                    line.write(property, to: &output)
                }
            }
        }
    }

    /// `URL` with the label in ``VCardFieldMap/urlLabelParameter`` for each `URI label`
    /// (or bare URI) value; any other value, exactly as stored, as `X-LDAPBOOK-URL`.
    private mutating func urls(to output: inout [UInt8]) {
        for value in texts(.url) {
            let labeled = value.lossyString
            let parts = labeled.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let uri = String(parts[0])
            let label = parts.count > 1 ? String(parts[1]) : nil
            let isURI = uri.contains(":") && !uri.lowercased().hasPrefix("www.") && FieldKind.urlViolation(uri) == nil
            guard isURI, label.map({ !$0.isEmpty && !$0.contains(where: \.isNewline) }) ?? true else {
                ldapbookProperties("URL", [value], to: &output)
                continue
            }
            let parameters = label.map { [VCardParameter(VCardFieldMap.urlLabelParameter, $0)] } ?? []
            line.write(VCardProperty(name: "URL", parameters: parameters, value: uri), to: &output)
        }
    }

    /// `RELATED;TYPE=<relation>` for each `relation=name` whose relation a card can carry
    /// as it is (a lower-case word); any other value, exactly as stored, as `X-LDAPBOOK-RELATED`.
    private mutating func related(to output: inout [UInt8]) {
        for value in texts(.related) {
            let stored = value.lossyString
            guard let equals = stored.firstIndex(of: "="), equals != stored.startIndex else {
                ldapbookProperties("RELATED", [value], to: &output)
                continue
            }
            let relation = String(stored[..<equals])
            let name = String(stored[stored.index(after: equals)...])
            guard relation != "pref", !name.isEmpty,
                  relation.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
                ldapbookProperties("RELATED", [value], to: &output)
                continue
            }
            line.write(VCardProperty(name: "RELATED", parameters: [typeParameter([relation]), VCardParameter("VALUE", "text")],
                                     text: name), to: &output)
        }
    }

    /// `X-LDAPBOOK-<NAME>` for the built-in fields without a standard property, then for
    /// the text attributes of the server's schema.
    private mutating func otherFields(to output: inout [UInt8]) {
        for (index, field) in Self.extraBuiltIns.enumerated() {
            ldapbookProperties(field.name, texts(places[Place.allCases.count + index]), to: &output)
        }
        for (property, values) in others {
            for value in texts(values) { text(property, value, to: &output) }
        }
    }

    private mutating func customFields(to output: inout [UInt8]) {
        var categories: [LDAPValue] = []
        for stored in texts(.custom) {
            // key=value: the key, and the value after the first "=".
            guard let equals = stored.withUnsafeBufferPointer({ $0.firstIndex(of: UInt8(ascii: "=")) }), equals > 0 else { continue }
            let value = stored.droppingFirst(equals + 1)
            let key = String(decoding: stored.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[..<equals]) }, as: UTF8.self)
            // The card UID is the card's UID.
            guard !value.isEmpty, key != VCardIdentity.fieldName else { continue }
            if key == VCardFieldMap.categoriesField {
                categories.append(value)
                continue
            }
            // X-SHOE-SIZE;KEY=shoe-size: a name other address books show; KEY keeps its case.
            text(VCardFieldMap.customFieldPropertyName(for: key) ?? VCardFieldMap.customFieldProperty, value,
                 parameters: [VCardParameter(VCardFieldMap.keyParameter, key)], to: &output)
        }
        guard !categories.isEmpty else { return }
        line.begin("CATEGORIES")
        for (index, category) in categories.enumerated() {
            if index > 0 { line.value(separator: UInt8(ascii: ",")) }
            line.value(text: category)
        }
        line.end(to: &output)
    }

    /// `PHOTO` with the bytes inline, the way ``VCardProperty/init(group:name:binary:mediaType:version:)``
    /// writes binary values.
    private mutating func photo(to output: inout [UInt8]) {
        guard let photo = places[Place.photo.rawValue].first, !photo.isEmpty else { return }
        line.begin("PHOTO")
        switch version {
        case .v4:
            line.parameter("VALUE", "uri")
            line.value(ascii: "data:image/jpeg;base64,")
        case .v3:
            line.parameter("ENCODING", "b")
            line.parameter("TYPE", "JPEG")
        }
        line.value(base64: photo)
        line.end(to: &output)
    }

    private mutating func uid(of dn: DistinguishedName, to output: inout [UInt8]) {
        let stored = VCardIdentity.storedUID(in: places[Place.custom.rawValue])
        // Most people: no card UID of their own, and an ASCII entryUUID, written as
        // ``VCardIdentity/exportedUID(of:version:)`` writes it (in lower case, `urn:uuid:` in
        // 4.0), from its bytes.
        if stored?.isEmpty ?? true, let uuid = places[Place.entryUUID.rawValue].first, !uuid.isEmpty,
           uuid.withUnsafeBufferPointer({ $0.allSatisfy { (0x21...0x7E).contains($0) } }) {
            line.begin("UID")
            if version == .v4 { line.value(ascii: "urn:uuid:") }
            line.value(asciiLowercased: uuid)
            line.end(to: &output)
            return
        }
        guard let (value, isText) = VCardIdentity.exportedUID(
            stored: stored,
            entryUUID: places[Place.entryUUID.rawValue].first?.string, dn: dn, version: version) else { return }
        line.begin("UID")
        if isText {
            if version == .v4 { line.parameter("VALUE", "text") }
            line.value(text: value)
        } else {
            line.value(rawWithLineBreaks: Array(value.utf8))
        }
        line.end(to: &output)
    }
}
