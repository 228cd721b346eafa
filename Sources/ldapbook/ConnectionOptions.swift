import CommandLineKit
import Foundation
import LDAPKit

/// The connection options every command takes, spelled as ldapsearch spells
/// them where they overlap. Anything left unset comes from libldap's own
/// configuration (`ldap.conf`, `~/.ldaprc`, `LDAPURI`, `LDAPBASE`).
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
        OptionSpec(["-x", "--simple"], help: "simple authentication (the default; accepted for ldapsearch compatibility)"),
    ]

    /// The connection configuration the options describe.
    ///
    /// - Throws: ``UsageError``-like ``CommandFailure``s for inconsistent
    ///   options, and for a password file that cannot be read.
    static func configuration(_ parsed: ParsedCommandLine) throws -> LDAPConnection.Configuration {
        var configuration = LDAPConnection.Configuration()
        if let uri = parsed.value("--uri") {
            configuration.servers = uri.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        }
        if let base = parsed.value("--base") {
            do {
                configuration.base = try DistinguishedName(parsing: base)
            } catch {
                throw CommandFailure(.usage, "-b: \(error.message)")
            }
        }
        configuration.tls.startTLS = parsed.flag("--starttls")

        let bindDN = parsed.value("--bind-dn")
        let passwordFile = parsed.value("--password-file")
        let prompt = parsed.flag("--prompt-password")
        if let mechanism = parsed.value("--sasl-mech") {
            guard mechanism.uppercased() == "EXTERNAL" else {
                throw CommandFailure(.usage, "-Y: only the EXTERNAL mechanism is supported, not \(mechanism)")
            }
            guard bindDN == nil, passwordFile == nil, !prompt else {
                throw CommandFailure(.usage, "-Y EXTERNAL takes no bind DN or password")
            }
            configuration.authentication = .saslExternal()
        } else if let bindDN {
            let dn: DistinguishedName
            do {
                dn = try DistinguishedName(parsing: bindDN)
            } catch {
                throw CommandFailure(.usage, "-D: \(error.message)")
            }
            let password: LDAPConnection.Password
            if let passwordFile {
                password = try readPasswordFile(passwordFile)
            } else if prompt {
                password = try PasswordPrompt.read("Password for \(bindDN): ")
            } else {
                throw CommandFailure(.usage, "-D needs a password: -W to be asked, or -y FILE")
            }
            configuration.authentication = .simple(dn: dn, password: password)
        } else if passwordFile != nil || prompt {
            throw CommandFailure(.usage, "a password (-W or -y) needs a bind DN (-D)")
        }
        return configuration
    }

    /// Reads a password file: its whole content, less one trailing newline.
    static func readPasswordFile(_ path: String) throws -> LDAPConnection.Password {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(.usage, "-y: cannot read the password file \(path)")
        }
        var bytes = [UInt8](data)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return LDAPConnection.Password(bytes: bytes)
    }
}
