/// Which vCard property holds which ldapbook field, both ways.
enum VCardFieldMap {
    /// Built-in fields that a standard vCard property holds. The others
    /// (`manager`, `employee-number`) are written as `X-LDAPBOOK-<NAME>`.
    static let fieldsWithStandardProperties: Set<String> = [
        "email", "phone", "mobile", "home-phone", "fax", "pager", "organization", "department", "title", "url",
        "note", "address", "home-address", "photo", "display-name", "given-name", "surname", "nickname",
        "birthday", "anniversary", "im", "related",
    ]

    /// The telephone fields and the `TYPE`s their `TEL` properties carry.
    static let telephones: [(field: String, attribute: String, types: [String])] = [
        ("phone", "telephoneNumber", ["work", "voice"]),
        ("mobile", "mobile", ["cell"]),
        ("home-phone", "homePhone", ["home", "voice"]),
        ("fax", "facsimileTelephoneNumber", ["work", "fax"]),
        ("pager", "pager", ["pager"]),
    ]

    /// The telephone field for a `TEL` with `types`: fax, pager and mobile
    /// numbers by their type, home numbers that are not also work numbers,
    /// and every other number as `phone`.
    static func telephoneField(types: [String]) -> String {
        if types.contains("fax") { return "fax" }
        if types.contains("pager") { return "pager" }
        if types.contains(where: { ["cell", "mobile", "iphone"].contains($0) }) { return "mobile" }
        if types.contains("home") && !types.contains("work") { return "home-phone" }
        return "phone"
    }

    /// The parameter of a `URL` that holds the label of a `labeledURI`
    /// (`URL;X-LDAPBOOK-LABEL=Home page:https://example.org`).
    static let urlLabelParameter = "X-LDAPBOOK-LABEL"

    /// The property ldapbook writes each custom field as, with the field's
    /// key in ``keyParameter``: `X-LDAPBOOK-FIELD;KEY=shoe-size:44`.
    static let customFieldProperty = "X-LDAPBOOK-FIELD"
    /// The parameter that names a custom field.
    static let keyParameter = "KEY"
    /// The prefix of the properties that hold fields no standard property
    /// holds: `X-LDAPBOOK-MANAGER`, `X-LDAPBOOK-ROOMNUMBER`.
    static let ldapbookPrefix = "X-LDAPBOOK-"

    /// The custom field a card's `CATEGORIES` go in, and come back from.
    static let categoriesField = "categories"

    /// The property a custom field named `key` is written as: `X-SHOE-SIZE` for `shoe-size`,
    /// so that other address books (khard, Evolution) show its name; `nil` when the name is
    /// no property name (letters, digits, `-`) or is one that means something else to them,
    /// and the field is written as `X-LDAPBOOK-FIELD;KEY=<key>`.
    static func customFieldPropertyName(for key: String) -> String? {
        guard !key.isEmpty, key.utf8.allSatisfy({ byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }) else { return nil }
        let name = "X-" + key.uppercased()
        let taken = name.hasPrefix(ldapbookPrefix) || name.hasPrefix("X-EVOLUTION-") || name.hasPrefix("X-APPLE-")
            || name.hasPrefix("X-AB") || anniversaryProperties.contains(name) || instantMessagingSchemes[name] != nil
            || relatedProperties[name] != nil || bookkeepingProperties.contains(name) || cardBookkeeping.contains(name)
        return taken ? nil : name
    }

    /// The properties that hold an anniversary: vCard 4.0's, and those
    /// vCard 3.0 writers use (ldapbook and khard write `X-ANNIVERSARY`).
    static let anniversaryProperties: Set<String> = ["ANNIVERSARY", "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY"]

    /// Instant-messaging properties of vCard 3.0 writers (Evolution, Apple)
    /// and the URI scheme of their handles.
    static let instantMessagingSchemes: [String: String] = [
        "X-JABBER": "xmpp", "X-SKYPE": "skype", "X-SKYPE-USERNAME": "skype", "X-AIM": "aim", "X-ICQ": "icq",
        "X-MSN": "msnim", "X-YAHOO": "ymsgr", "X-SIP": "sip", "X-MATRIX": "matrix",
    ]

    /// Related-person properties of Evolution and the relation each names.
    static let relatedProperties: [String: String] = [
        "X-EVOLUTION-SPOUSE": "spouse", "X-EVOLUTION-MANAGER": "manager", "X-EVOLUTION-ASSISTANT": "assistant",
    ]

    /// Apple's related names, whose relation is the `X-ABLABEL` of their group.
    static let appleRelatedNames = "X-ABRELATEDNAMES"

    /// `X-` properties that are an application's bookkeeping, not something
    /// known about the person, and so are not made custom fields.
    static let bookkeepingProperties: Set<String> = [
        "X-ABLABEL", "X-ABUID", "X-ABSHOWAS", "X-ABADR", "X-EVOLUTION-FILE-AS", "X-EVOLUTION-LIST",
        "X-EVOLUTION-LIST-SHOW-ADDRESSES", "X-EVOLUTION-BOOK-UID", "X-MOZILLA-HTML", "X-MOZILLA-PROPERTY",
    ]

    /// Standard properties about the card rather than the person (its format, its
    /// producer, its revision), or read elsewhere (`FN`, `N`, `UID`, `LABEL`), which an
    /// import never reports as left out.
    static let cardBookkeeping: Set<String> = [
        "BEGIN", "END", "VERSION", "PRODID", "REV", "CLIENTPIDMAP", "SOURCE", "NAME", "PROFILE", "KIND", "SORT-STRING",
        "CLASS", "FN", "N", "UID", "LABEL",
    ]

    /// Entry attributes that the card's name properties and `UID` cover, or
    /// that are not about the person, and are never written as
    /// `X-LDAPBOOK-<NAME>`.
    static let attributesNotExported: Set<String> = [
        "objectclass", "cn", "commonname", "sn", "surname", "givenname", "gn", "uid", "userid", "userpassword",
        "entryuuid", LDAPBookSchemaName.customField.lowercased(),
    ]
}
