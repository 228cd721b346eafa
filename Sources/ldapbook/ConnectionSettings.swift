/// Every connection setting and each place it is read, strongest first: the one table
/// behind the manual page's CONNECTION SETTINGS and README's (`ldapbook manpage
/// --settings-table` prints README's; a test compares them).
enum ConnectionSettings {
    struct Setting {
        let what: String
        /// The command line's options.
        let flags: String
        /// The key of ldapbook's configuration file.
        let configKey: String
        /// libldap's keyword in `ldap.conf` and `ldaprc` (user-only ones say so).
        let libldap: String
        /// libldap's environment variables.
        let environment: String
    }

    static let all: [Setting] = [
        Setting(what: "servers, tried in order", flags: "-H URI", configKey: "uri", libldap: "URI", environment: "LDAPURI"),
        Setting(what: "search base", flags: "-b BASE", configKey: "base", libldap: "BASE", environment: "LDAPBASE"),
        Setting(what: "bind DN of a simple bind", flags: "-D BINDDN", configKey: "binddn",
                libldap: "BINDDN (ldaprc only)", environment: "LDAPBINDDN"),
        Setting(what: "bind password", flags: "-W, -y FILE", configKey: "password-file", libldap: "", environment: ""),
        Setting(what: "SASL mechanism (EXTERNAL)", flags: "-Y MECH; -x binds simply", configKey: "sasl-mech",
                libldap: "SASL_MECH", environment: "LDAPSASL_MECH"),
        Setting(what: "StartTLS, required", flags: "-Z", configKey: "starttls", libldap: "", environment: ""),
        Setting(what: "trusted CA certificates", flags: "", configKey: "ca-file",
                libldap: "TLS_CACERT, TLS_CACERTDIR", environment: "LDAPTLS_CACERT, LDAPTLS_CACERTDIR"),
        Setting(what: "server certificate check", flags: "", configKey: "", libldap: "TLS_REQCERT",
                environment: "LDAPTLS_REQCERT"),
        Setting(what: "client certificate and key", flags: "", configKey: "",
                libldap: "TLS_CERT, TLS_KEY (ldaprc only)", environment: "LDAPTLS_CERT, LDAPTLS_KEY"),
        Setting(what: "reply timeout (default 30 s)", flags: "--timeout SECONDS", configKey: "timeout",
                libldap: "TIMEOUT", environment: "LDAPTIMEOUT"),
        Setting(what: "connect timeout (default 10 s)", flags: "--timeout SECONDS", configKey: "timeout",
                libldap: "NETWORK_TIMEOUT", environment: "LDAPNETWORK_TIMEOUT"),
        Setting(what: "where people are added", flags: "", configKey: "people-base", libldap: "", environment: ""),
    ]

    /// Where libldap's settings are read, as `ldapsearch` reads them, the later winning.
    static let libldapFiles = "/etc/ldap/ldap.conf; ~/ldaprc, ~/.ldaprc and ./ldaprc; the file LDAPCONF names; "
        + "the files LDAPRC names (~/NAME, ~/.NAME, ./NAME); then the LDAP* variables. LDAPNOINIT switches them all off."

    /// README's table (Markdown).
    static var markdownTable: String {
        var lines = ["| setting | flag | configuration file | ldap.conf, ldaprc | environment |",
                     "| --- | --- | --- | --- | --- |"]
        func cell(_ text: String) -> String { text.isEmpty ? "" : "`" + text.replacingOccurrences(of: ", ", with: "`, `") + "`" }
        for setting in all {
            let libldap = setting.libldap.replacingOccurrences(of: " (ldaprc only)", with: "")
            let only = setting.libldap.hasSuffix("(ldaprc only)") ? " (ldaprc only)" : ""
            let flags = setting.flags.replacingOccurrences(of: "; -x binds simply", with: "")
            let simple = setting.flags.hasSuffix("-x binds simply") ? " (`-x`: simple)" : ""
            lines.append("| \(setting.what) | \(cell(flags))\(simple) | \(cell(setting.configKey)) | \(cell(libldap))\(only) | "
                + "\(cell(setting.environment)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
