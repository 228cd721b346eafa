/// Names from ldapbook's own directory schema (`schema/ldapbook.schema`).
public enum LDAPBookSchemaName {
    /// The auxiliary object class that allows the attributes below.
    public static let objectClass = "ldapbookPerson"
    /// The generic multi-valued attribute holding ad-hoc custom fields as `<name>=<value>`.
    public static let customField = "ldapbookCustomField"
    /// Nicknames.
    public static let nickname = "ldapbookNickname"
    /// Birthday, `YYYY-MM-DD` or `--MM-DD`.
    public static let birthday = "ldapbookBirthday"
    /// Anniversary, `YYYY-MM-DD` or `--MM-DD`.
    public static let anniversary = "ldapbookAnniversary"
    /// Instant-messaging handles as URIs.
    public static let instantMessaging = "ldapbookIM"
    /// Related people as `<relation>=<name>`.
    public static let relatedName = "ldapbookRelatedName"

    /// Every attribute the auxiliary class allows.
    public static let attributes = [customField, nickname, birthday, anniversary, instantMessaging, relatedName]

    /// How to install the schema, for error messages.
    public static let installHint = """
        install ldapbook's schema (schema/ldapbook.ldif) on the server: \
        ldapadd -Y EXTERNAL -H ldapi:/// -f schema/ldapbook.ldif (see schema/README.md)
        """
}
