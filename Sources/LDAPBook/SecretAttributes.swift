import LDAPKit

/// The attributes that hold secrets: passwords, password hashes and histories, and
/// private keys. ldapbook never prints them (no export format, no `show`), never reads
/// them into a field, and never writes them, whatever a file or a command line says.
///
/// An attribute is a secret when
/// - its name (without options, ignoring case) is one of ``names``: `userPassword`,
///   `authPassword`, `userPKCS12`, Samba's, Kerberos's and Active Directory's password and key
///   attributes, slapd's `olcRootPW`;
/// - or its name contains `password`, `passwd` or `privatekey`, or ends with `secret`
///   (`sharedSecret`, not `secretary`);
/// - or, in the server's schema, it derives (`SUP`) from `userPassword` or `authPassword`.
///
/// Changing a password is `ldappasswd`'s work (the Password Modify extended operation,
/// which hashes it on the server), never an address book's.
public enum SecretAttributes {
    /// The attributes named outright, in lower case.
    public static let names: Set<String> = [
        "userpassword", "authpassword", "userpkcs12", "olcrootpw", "pwdhistory",
        "sambantpassword", "sambalmpassword", "sambapasswordhistory", "sambaclrtextpassword",
        "krbprincipalkey", "krb5key", "krbpwdhistory", "krbmkey",
        "unicodepwd", "dbcspwd", "ntpwdhistory", "lmpwdhistory", "supplementalcredentials",
        "msds-managedpassword", "mssfu30password", "unixuserpassword",
    ]

    /// The parts of a name that make an attribute a secret wherever they appear.
    static let nameParts = ["password", "passwd", "privatekey"]

    /// Whether `attribute` (a name or description such as `userPassword;x-hash`) holds secrets.
    public static func isSecret(_ attribute: String, schema: LDAPSchema? = nil) -> Bool {
        let name = String(attribute.split(separator: ";", maxSplits: 1).first ?? "").lowercased()
        if names.contains(name) || nameParts.contains(where: { name.contains($0) }) || name.hasSuffix("secret") { return true }
        guard let schema, var type = schema.attributeType(named: name) else { return false }
        var seen: Set<String> = []
        while seen.insert(type.oid).inserted {
            if type.names.contains(where: { names.contains($0.lowercased()) }) { return true }
            guard let superior = type.superior, let next = schema.attributeType(named: superior) else { return false }
            type = next
        }
        return false
    }
}

extension LDAPEntry {
    /// The entry without its secret attributes (see ``SecretAttributes``) in the directory
    /// `registry` describes, for printing.
    public func removingSecrets(_ registry: FieldRegistry) -> LDAPEntry {
        guard attributes.contains(where: { registry.isSecret($0.name) }) else { return self }
        var copy = self
        copy.attributes.removeAll { registry.isSecret($0.name) }
        return copy
    }
}
