// Generated from schema/ldapbook.schema by scripts/generate-schema-ldif.sh; do not edit.

/// The ldapbook schema: the address-book attributes that `inetOrgPerson` lacks and the
/// auxiliary object class `ldapbookPerson` that allows them.
///
/// Its source is `schema/ldapbook.schema` (slapd.conf syntax); `schema/ldapbook.ldif` and
/// ``ldif`` are its `cn=config` form, generated from it by `scripts/generate-schema-ldif.sh`.
/// Every private slapd loads it unless ``SlapdConfiguration/includesLDAPBookSchema`` is
/// turned off.
public enum LDAPBookSchema {
    /// The object identifier arc of the schema: attribute types are `<arc>.1.N` and object
    /// classes `<arc>.2.N`.
    ///
    /// It is a UUID written as an integer below `2.25` (ITU-T X.667, RFC 4122 section 4),
    /// which needs no registration.
    public static let oidArc = "2.25.119809854302968221014165294092806872539"

    /// The auxiliary object class that allows the ldapbook attributes on a person entry.
    public static let objectClass = "ldapbookPerson"

    /// The attribute types of the schema, in the order they are defined (`<arc>.1.1` first).
    public static let attributeTypes = [
        "ldapbookNickname",
        "ldapbookBirthday",
        "ldapbookAnniversary",
        "ldapbookIM",
        "ldapbookRelatedName",
        "ldapbookCustomField",
    ]

    /// The schema as the `cn=ldapbook,cn=schema,cn=config` entry, exactly the text of
    /// `schema/ldapbook.ldif`: for `ldapadd -Y EXTERNAL -H ldapi:///` into a slapd that has
    /// core, cosine and inetorgperson, or as a schema of a generated `cn=config`.
    public static let ldif = #"""
    # ldapbook: address-book attributes that inetOrgPerson lacks
    #
    # This file was generated from ldapbook.schema by scripts/generate-schema-ldif.sh;
    # edit ldapbook.schema and run that script rather than editing this file.
    #
    # Load it into a slapd configured with cn=config, after core, cosine and
    # inetorgperson:
    #   ldapadd -Y EXTERNAL -H ldapi:/// -f ldapbook.ldif
    #
    dn: cn=ldapbook,cn=schema,cn=config
    objectClass: olcSchemaConfig
    cn: ldapbook
    olcAttributeTypes: ( 2.25.119809854302968221014165294092806872539.1.1
      NAME 'ldapbookNickname'
      DESC 'ldapbook: familiar name of the person, vCard NICKNAME'
      EQUALITY caseIgnoreMatch
      SUBSTR caseIgnoreSubstringsMatch
      SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
    olcAttributeTypes: ( 2.25.119809854302968221014165294092806872539.1.2
      NAME 'ldapbookBirthday'
      DESC 'ldapbook: date of birth as YYYY-MM-DD, or --MM-DD when the year is
      unknown, vCard BDAY'
      EQUALITY caseExactIA5Match
      SUBSTR caseExactIA5SubstringsMatch
      SYNTAX 1.3.6.1.4.1.1466.115.121.1.26
      SINGLE-VALUE )
    olcAttributeTypes: ( 2.25.119809854302968221014165294092806872539.1.3
      NAME 'ldapbookAnniversary'
      DESC 'ldapbook: anniversary as YYYY-MM-DD, or --MM-DD when the year is
      unknown, vCard ANNIVERSARY'
      EQUALITY caseExactIA5Match
      SUBSTR caseExactIA5SubstringsMatch
      SYNTAX 1.3.6.1.4.1.1466.115.121.1.26
      SINGLE-VALUE )
    olcAttributeTypes: ( 2.25.119809854302968221014165294092806872539.1.4
      NAME 'ldapbookIM'
      DESC 'ldapbook: instant-messaging address as a URI such as
      xmpp:ada@example.com, sip:ada@example.com or matrix:u/ada:example.com,
      vCard IMPP'
      EQUALITY caseIgnoreMatch
      SUBSTR caseIgnoreSubstringsMatch
      SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
    olcAttributeTypes: ( 2.25.119809854302968221014165294092806872539.1.5
      NAME 'ldapbookRelatedName'
      DESC 'ldapbook: related person as relation=name, e.g. spouse=Jane Doe,
      vCard RELATED'
      EQUALITY caseIgnoreMatch
      SUBSTR caseIgnoreSubstringsMatch
      SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
    olcAttributeTypes: ( 2.25.119809854302968221014165294092806872539.1.6
      NAME 'ldapbookCustomField'
      DESC 'ldapbook: custom field as name=value with a lowercase name; the
      substring filter on name= finds entries where the field is set'
      EQUALITY caseExactMatch
      SUBSTR caseExactSubstringsMatch
      SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
    olcObjectClasses: ( 2.25.119809854302968221014165294092806872539.2.1
      NAME 'ldapbookPerson'
      DESC 'ldapbook address-book fields that inetOrgPerson lacks'
      SUP top
      AUXILIARY
      MAY ( ldapbookNickname $ ldapbookBirthday $ ldapbookAnniversary $
      ldapbookIM $ ldapbookRelatedName $ ldapbookCustomField ) )

    """#
}
