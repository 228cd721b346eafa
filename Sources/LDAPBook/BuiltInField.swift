/// A field name ldapbook knows without asking the server, modelled on the
/// address-book properties people know (Apple's AddressBook, Thunderbird's
/// LDAP attribute map).
public struct BuiltInField: Sendable, Hashable {
    /// The name ldapbook uses.
    public let name: String
    /// Other names accepted for it.
    public let aliases: [String]
    /// The LDAP attribute.
    public let attribute: String
    /// What kind of values it holds.
    public let kind: FieldKind
    /// Whether it holds one value when the server's schema does not say.
    public let isSingleValued: Bool

    init(_ name: String, _ attribute: String, _ kind: FieldKind, aliases: [String] = [], single: Bool = false) {
        self.name = name
        self.aliases = aliases
        self.attribute = attribute
        self.kind = kind
        self.isSingleValued = single
    }

    /// Every built-in field, in the order `ldapbook fields` lists them.
    public static let all: [BuiltInField] = [
        BuiltInField("email", "mail", .email, aliases: ["mail", "e-mail"]),
        BuiltInField("phone", "telephoneNumber", .phone, aliases: ["telephone", "tel", "work-phone"]),
        BuiltInField("mobile", "mobile", .phone, aliases: ["cell", "mobile-phone"]),
        BuiltInField("home-phone", "homePhone", .phone),
        BuiltInField("fax", "facsimileTelephoneNumber", .phone),
        BuiltInField("pager", "pager", .phone),
        BuiltInField("organization", "o", .text, aliases: ["org", "company"]),
        BuiltInField("department", "ou", .text, aliases: ["dept"]),
        BuiltInField("title", "title", .text, aliases: ["job-title"]),
        BuiltInField("url", "labeledURI", .url, aliases: ["website", "homepage", "web"]),
        BuiltInField("note", "description", .text, aliases: ["notes"]),
        BuiltInField("address", "postalAddress", .text, aliases: ["work-address", "postal-address"]),
        BuiltInField("home-address", "homePostalAddress", .text),
        BuiltInField("photo", "jpegPhoto", .photo, aliases: ["picture", "jpeg-photo"]),
        BuiltInField("display-name", "displayName", .text, single: true),
        BuiltInField("given-name", "givenName", .text, aliases: ["first-name", "firstname"]),
        BuiltInField("surname", "sn", .text, aliases: ["last-name", "lastname", "family-name"]),
        BuiltInField("nickname", LDAPBookSchemaName.nickname, .text, aliases: ["nick"]),
        BuiltInField("birthday", LDAPBookSchemaName.birthday, .date, aliases: ["bday", "birth-date"], single: true),
        BuiltInField("anniversary", LDAPBookSchemaName.anniversary, .date, single: true),
        BuiltInField("im", LDAPBookSchemaName.instantMessaging, .url, aliases: ["chat", "impp", "xmpp"]),
        BuiltInField("related", LDAPBookSchemaName.relatedName, .text, aliases: ["related-name"]),
        BuiltInField("manager", "manager", .distinguishedName),
        BuiltInField("employee-number", "employeeNumber", .text, aliases: ["employee-id"], single: true),
    ]
}
