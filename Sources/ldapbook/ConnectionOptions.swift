import CommandLineKit
import Foundation
import LDAPBook
import LDAPKit
#if canImport(Glibc)
import Glibc
#endif

/// The connection options every command takes, spelled as ldapsearch spells
/// them where they overlap. Anything left unset comes from the configuration
/// file's profile, then from libldap's own configuration (`ldap.conf`,
/// `~/.ldaprc`, the `LDAP*` variables), as ldapsearch reads it.
enum ConnectionOptions {
    /// The option specifications, accepted before or after the command name.
    static let specs: [OptionSpec] = [
        OptionSpec(["-H", "--uri"], .value("URI"), help: "LDAP server URI; several, separated by spaces, are tried in order"),
        OptionSpec(["-b", "--base"], .value("BASE"), help: "search base DN"),
        OptionSpec(["-D", "--bind-dn"], .value("BINDDN"), help: "bind DN for a simple bind"),
        OptionSpec(["-W", "--prompt-password"], help: "prompt for the bind password (never echoed)"),
        OptionSpec(["-y", "--password-file"], .value("FILE"), help: "read the bind password from FILE"),
        OptionSpec(["-Z", "--starttls"], help: "require StartTLS; fail rather than continue in clear"),
        OptionSpec(["-Y", "--sasl-mech"], .value("MECH"), help: "SASL mechanism: EXTERNAL (ldapi peer credentials or a TLS client certificate)"),
        OptionSpec(["-x", "--simple"], help: "simple authentication, even when ldap.conf names a SASL mechanism (SASL_MECH)"),
        OptionSpec(["--timeout"], .value("SECONDS"), help: "give up on a server that does not answer within SECONDS (default 30)"),
        OptionSpec(["-v", "--verbose"], help: "say which server, base and identity are used, and where they come from"),
        OptionSpec(["--profile"], .value("NAME"), help: "use the [NAME] profile of the configuration file"),
        OptionSpec(["--config"], .value("FILE"), help: "the configuration file (default $XDG_CONFIG_HOME/ldapbook/config)"),
        OptionSpec(["--no-cache"], help: "search the server for every lookup, without the local index of people"),
    ]

    /// The configuration file's settings for the chosen profile.
    static func settings(_ parsed: ParsedCommandLine) throws -> [String: String] {
        let path = parsed.value("--config") ?? ConfigFile.defaultPath()
        if parsed.value("--config") != nil && !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure(.usage, "--config: no such file \(path)")
        }
        return try ConfigFile.load(path: path).settings(profile: parsed.value("--profile"))
    }

    /// The connection configuration the options describe.
    ///
    /// - Throws: ``UsageError``-like ``CommandFailure``s for inconsistent
    ///   options, and for a password file that cannot be read.
    static func configuration(_ parsed: ParsedCommandLine) throws -> LDAPConnection.Configuration {
        let settings = try settings(parsed)
        let libldap = LDAPConnection.LibLDAPDefaults.current
        var configuration = LDAPConnection.Configuration()
        if let uri = parsed.value("--uri") ?? settings["uri"] {
            configuration.servers = uri.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        }
        try applyTimeouts(parsed, settings, libldap, to: &configuration)
        if let caFile = settings["ca-file"] {
            let path = expandingTilde(caFile)
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw CommandFailure(.noInput, "ca-file in the configuration: cannot read \(caFile)"
                    + (FileManager.default.fileExists(atPath: path) ? "" : ": no such file"))
            }
            configuration.tls.caCertificateFile = path
        }
        if let base = parsed.value("--base") ?? settings["base"] {
            do {
                configuration.base = try DistinguishedName(parsing: base)
            } catch {
                throw CommandFailure(.usage, "-b: \(error.message)")
            }
        }
        configuration.tls.startTLS = parsed.flag("--starttls") || ["yes", "true", "on"].contains(settings["starttls"]?.lowercased() ?? "")

        let flagBindDN = parsed.value("--bind-dn")
        let bindDN = flagBindDN ?? settings["binddn"] ?? libldap.bindDN
        let passwordFile = parsed.value("--password-file") ?? (flagBindDN == nil ? settings["password-file"].map(expandingTilde) : nil)
        let prompt = parsed.flag("--prompt-password")
        // ldapsearch binds with SASL_MECH unless told -x; a bind DN or password given here
        // means a simple bind.
        let simple = parsed.flag("--simple") || flagBindDN != nil || settings["binddn"] != nil || passwordFile != nil || prompt
        let mechanism = parsed.value("--sasl-mech").map { ($0, "-Y") }
            ?? (flagBindDN == nil && settings["binddn"] == nil ? settings["sasl-mech"].map { ($0, "sasl-mech in the configuration") } : nil)
            ?? (simple ? nil : libldap.saslMechanism.map { ($0, "SASL_MECH of ldap.conf") })
        if let (mechanism, source) = mechanism {
            guard mechanism.uppercased() == "EXTERNAL" else {
                throw CommandFailure(.usage, "\(source): only the EXTERNAL mechanism is supported, not \(mechanism)"
                    + (source == "-Y" ? "" : "; -x binds simply instead"))
            }
            guard flagBindDN == nil, settings["binddn"] == nil, passwordFile == nil, !prompt else {
                throw CommandFailure(.usage, "-Y EXTERNAL takes no bind DN or password")
            }
            configuration.authentication = .saslExternal()
        } else if let bindDN, passwordFile != nil || prompt || flagBindDN != nil || settings["binddn"] != nil {
            let dn: DistinguishedName
            do {
                dn = try DistinguishedName(parsing: bindDN)
            } catch {
                throw CommandFailure(.usage, "\(flagBindDN != nil ? "-D" : settings["binddn"] != nil ? "binddn in the configuration" : "BINDDN of .ldaprc"): \(error.message)")
            }
            let password: LDAPConnection.Password
            if let passwordFile {
                password = LDAPConnection.Password(bytes: try passwordFileBytes(
                    passwordFile, option: parsed.value("--password-file") != nil ? "-y" : "password-file in the configuration"))
            } else if prompt {
                password = try PasswordPrompt.read("Password for \(bindDN): ")
            } else {
                throw CommandFailure(.usage, "-D needs a password: -W to be asked, or -y FILE")
            }
            configuration.authentication = .simple(dn: dn, password: password)
        } else if passwordFile != nil || prompt {
            throw CommandFailure(.usage, "a password (-W or -y) needs a bind DN: -D, binddn in the configuration, or BINDDN in ~/.ldaprc")
        }
        return configuration
    }

    /// The operation and connection timeouts: `--timeout`, else the configuration's
    /// `timeout`, each setting both; else ldap.conf's TIMEOUT and NETWORK_TIMEOUT; else 30
    /// seconds for an operation and 10 (at most the operation's) to connect.
    private static func applyTimeouts(_ parsed: ParsedCommandLine, _ settings: [String: String],
                                      _ libldap: LDAPConnection.LibLDAPDefaults,
                                      to configuration: inout LDAPConnection.Configuration) throws {
        let given = parsed.value("--timeout").map { ($0, "--timeout") } ?? settings["timeout"].map { ($0, "timeout in the configuration") }
        if let (text, source) = given {
            guard let seconds = Int(text), seconds > 0 else {
                throw CommandFailure(.usage, "\(source) must be a whole number of seconds, not \(text)")
            }
            configuration.operationTimeout = .seconds(seconds)
            configuration.networkTimeout = .seconds(seconds)
            return
        }
        let operation = libldap.operationTimeout ?? .seconds(30)
        configuration.operationTimeout = operation
        configuration.networkTimeout = libldap.networkTimeout ?? min(.seconds(10), operation)
    }

    /// `~/x` as a path in the home directory.
    static func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~/") else { return path }
        return (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }

    /// The bytes of the password file `path`, named by `option` in the error, less one
    /// trailing line break (LF, CR or CRLF).
    ///
    /// Like ssh with a private key, a password file that its group or others may open is
    /// refused, with the command that fixes it: the password in it is no secret any more.
    /// (A pipe, such as `-y <(pass show ldap)`, is no file others can open.)
    static func passwordFileBytes(_ path: String, option: String) throws -> [UInt8] {
        let expanded = expandingTilde(path)
        var information = stat()
        if stat(expanded, &information) == 0, information.st_mode & S_IFMT == S_IFREG,
           information.st_mode & 0o077 != 0 {
            let mode = String(information.st_mode & 0o777, radix: 8)
            throw CommandFailure(.usage, "\(option): the password file \(path) may be read by others (mode 0\(mode)); "
                + "a password file must be private to you: chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: expanded) else {
            throw CommandFailure(.usage, "\(option): cannot read \(path) (a password file)")
        }
        var bytes = [UInt8](data)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return bytes
    }
}
