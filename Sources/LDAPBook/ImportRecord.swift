import LDAPKit

/// One person to import, as a file describes them: who they are, their names and values,
/// and what the file held that ldapbook does not write.
///
/// Who a person is comes from identifiers, never from the name alone: an LDIF record's DN,
/// a vCard's `UID` (see ``VCardIdentity``), else a shared email address (see
/// ``AddressBook/importPeople(_:options:progress:)``).
public struct ImportRecord: Sendable {
    /// The names and the field values to write. Its values are already limited to what
    /// ldapbook writes; ``skipped`` says what was left out.
    public var person: NewPerson
    /// The DN an LDIF record gives: the person's identity. The entry is created there, or,
    /// when it exists, given what it lacks.
    public var distinguishedName: DistinguishedName?
    /// The `uid` values of an LDIF record, kept when the entry is created (the `uid` of the
    /// DN among them), never written onto an entry that exists.
    public var uids: [LDAPValue] = []
    /// The card UID (a vCard's `UID`, or the `vcard-uid` an LDIF entry holds).
    public var cardUID: String?
    /// What the file held for this person that is not written, and why.
    public var skipped: [SkippedAttribute] = []

    /// A record of `person`, identified by `distinguishedName` or `cardUID` when given.
    public init(person: NewPerson, distinguishedName: DistinguishedName? = nil, cardUID: String? = nil) {
        self.person = person
        self.distinguishedName = distinguishedName
        self.cardUID = cardUID
    }

    /// The email addresses of the record.
    var emails: [LDAPValue] { person.values(ofAttribute: "mail") }
    /// The employee numbers of the record.
    var employeeNumbers: [LDAPValue] { person.values(ofAttribute: "employeeNumber") }
}

/// An attribute (or vCard property) a file held that an import does not write.
public struct SkippedAttribute: Sendable, Hashable, CustomStringConvertible {
    /// Why it is not written.
    public enum Reason: Sendable, Hashable {
        /// A password or key (``SecretAttributes``).
        case secret
        /// An object class that is not a person's (ldapbook adds only its own).
        case objectClass
        /// Kept by the server itself (`entryUUID`, `createTimestamp`...).
        case operational
        /// The attribute is not in the directory's schema.
        case unknownAttribute
        /// ldapbook does not write it from a file (``WriteRestriction``).
        case restricted(WriteRestriction)
        /// The person exists, and keeps the value they hold (a name, a single-valued
        /// field, a photo) rather than taking the file's.
        case keptStoredValue
        /// No address-book field holds it (a vCard's `ROLE` or `CATEGORIES`, a photo given
        /// by a web address).
        case noField
    }

    /// The attribute or field, or for ``Reason/objectClass`` the class (`objectClass: posixAccount`).
    public var attribute: String
    /// The vCard property that held it (`X-LDAPBOOK-SEEALSO`), for a card.
    public var property: String?
    /// Why it is not written.
    public var reason: Reason

    /// Creates a description.
    public init(_ attribute: String, _ reason: Reason, property: String? = nil) {
        self.attribute = attribute
        self.reason = reason
        self.property = property
    }

    /// `userPassword (a secret: ...)`, or for a card `X-LDAPBOOK-SEEALSO (seeAlso: ...)`.
    public var description: String {
        let why: String
        switch reason {
        case .secret: why = "a secret: ldapbook never writes passwords or keys"
        case .objectClass: why = "not a class of a person"
        case .operational: why = "kept by the server"
        case .unknownAttribute: why = "not in the directory's schema"
        case .restricted(.reference): why = "a reference to another entry; --write-reference \(attribute) writes it"
        case .restricted(let restriction): why = "\(restriction)"
        case .keptStoredValue: why = "the person keeps the value they have"
        case .noField: why = "no address-book field holds it"
        }
        guard let property, property.lowercased() != attribute.lowercased() else { return "\(attribute) (\(why))" }
        return "\(property) (\(attribute): \(why))"
    }
}

extension ImportRecord {
    /// The attributes that the server keeps, never written from a file, named here for
    /// schemas that do not say (`slapcat` writes them all).
    static let operationalAttributes: Set<String> = [
        "entryuuid", "entrycsn", "entrydn", "createtimestamp", "modifytimestamp", "creatorsname", "modifiersname",
        "structuralobjectclass", "subschemasubentry", "hassubordinates", "contextcsn", "nsuniqueid", "objectguid",
        "whencreated", "whenchanged", "usncreated", "usnchanged", "pwdchangedtime", "pwdaccountlockedtime",
        "pwdfailuretime", "pwdgraceusetime", "pwdreset", "pwdpolicysubentry", "memberof",
    ]

    /// The person an LDIF entry describes: identified by its DN, with its names, its `uid`s
    /// and every address-book attribute it holds; secrets, operational attributes, other
    /// classes and their attributes, references (unless `writableReferences` names them)
    /// and attributes the schema lacks are left out and listed in ``skipped``. Values are
    /// checked as a directory holds them (``FieldKind/Rules/stored``).
    ///
    /// - Throws: ``AddressBookError`` when the entry has no usable surname, a value breaks
    ///   its attribute's syntax, or an attribute name cannot be one.
    public init(ldif entry: LDAPEntry, registry: FieldRegistry, writableReferences: Set<String> = []) throws(AddressBookError) {
        let schema = registry.schema
        // Names are text: one that is not UTF-8 is refused, never dropped or repaired.
        for name in ["sn", "givenName", "cn"] where entry[name].contains(where: { $0.string == nil }) {
            throw AddressBookError(.invalidValue, "\(name) is not valid UTF-8")
        }
        let surnames = entry.strings("sn").filter { !$0.trimmingWhitespace().isEmpty }
        guard let surname = surnames.first else {
            throw AddressBookError(.invalidName, "no surname (sn)")
        }
        let givenNames = entry.strings("givenName").filter { !$0.trimmingWhitespace().isEmpty }
        var person = NewPerson(givenName: givenNames.first, surname: surname)
        person.rules = .stored
        let commonNames = entry.strings("cn").filter { !$0.isEmpty }
        if !commonNames.isEmpty { person.commonNames = commonNames }
        self.init(person: person, distinguishedName: entry.dn)
        let references = Set(writableReferences.map { $0.lowercased() })

        var values: [(field: Field, values: [LDAPValue])] = []
        func append(_ field: Field, _ more: [LDAPValue]) {
            guard !more.isEmpty else { return }
            if let index = values.firstIndex(where: { $0.field == field }) {
                values[index].values += more.filter { !values[index].values.contains($0) }
            } else {
                values.append((field, more))
            }
        }
        for attribute in entry.attributes {
            let name = attribute.name
            let type = String(name.split(separator: ";", maxSplits: 1).first ?? "").lowercased()
            switch type {
            case "objectclass":
                var classes: [String] = []
                for value in attribute.values {
                    let text = value.lossyString
                    if PersonClasses.names.contains(text.lowercased()) {
                        classes.append(text)
                    } else {
                        skipped.append(SkippedAttribute("objectClass: \(text)", .objectClass))
                    }
                }
                if !classes.isEmpty { self.person.objectClasses = classes }
                continue
            case "cn", "commonname", "2.5.4.3":
                continue
            case "uid", "userid", "0.9.2342.19200300.100.1.1":
                uids = attribute.values
                continue
            default:
                break
            }
            if registry.isSecret(name) {
                skipped.append(SkippedAttribute(name, .secret))
                continue
            }
            if Self.operationalAttributes.contains(type) || schema?.attributeType(named: type)?.isOperational == true {
                skipped.append(SkippedAttribute(name, .operational))
                continue
            }
            if name.equalsIgnoringCase(LDAPBookSchemaName.customField) {
                for (field, fieldValues) in try Self.customFields(in: attribute.values, registry: registry) {
                    if field.name == VCardIdentity.fieldName {
                        cardUID = fieldValues.first?.string
                    } else {
                        append(field, fieldValues)
                    }
                }
                continue
            }
            if schema != nil && schema?.attributeType(named: type) == nil && registry.builtInField(forAttribute: type) == nil {
                skipped.append(SkippedAttribute(name, .unknownAttribute))
                continue
            }
            let field = try registry.field(forAttribute: name)
            if let restriction = field.restriction {
                let allowed = restriction == .reference && (references.contains(type) || references.contains(field.name.lowercased()))
                if !allowed {
                    skipped.append(SkippedAttribute(name, .restricted(restriction)))
                    continue
                }
            }
            do {
                try field.validate(attribute.values, rules: .stored)
            } catch {
                throw AddressBookError(error.code, "\(name): \(error.message)")
            }
            // The first surname and given name are the person's name; the others are values.
            let more: [LDAPValue]
            switch field.attribute.lowercased() {
            case "sn": more = attribute.values.filter { $0.string != surname }
            case "givenname": more = givenNames.isEmpty ? [] : Array(attribute.values.filter { $0.string != givenNames[0] })
            default: more = attribute.values
            }
            append(field, more)
        }
        self.person.values = values
        if let rdn = entry.dn.rdn, rdn.attributes.contains(where: { $0.type.equalsIgnoringCase("uid") }) {
            for part in rdn.attributes where part.type.equalsIgnoringCase("uid") && !uids.contains(part.value) {
                uids.insert(part.value, at: 0)
            }
        }
    }

    /// The custom fields of `ldapbookCustomField` values (`key=value`).
    static func customFields(in values: [LDAPValue], registry: FieldRegistry) throws(AddressBookError)
        -> [(field: Field, values: [LDAPValue])]
    {
        var fields: [(field: Field, values: [LDAPValue])] = []
        for value in values {
            guard let text = value.string, let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw AddressBookError(.invalidValue, "\(LDAPBookSchemaName.customField): \"\(value.lossyString.prefix(60))\" "
                    + "is not name=value")
            }
            let key = String(text[..<equals])
            let field = try registry.customField(exactKey: key)
            let fieldValue = LDAPValue(String(text[text.index(after: equals)...]))
            if let index = fields.firstIndex(where: { $0.field == field }) {
                fields[index].values.append(fieldValue)
            } else {
                fields.append((field, [fieldValue]))
            }
        }
        return fields
    }
}
