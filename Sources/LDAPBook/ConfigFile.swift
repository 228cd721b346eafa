import Foundation

/// ldapbook's configuration file: `$XDG_CONFIG_HOME/ldapbook/config`
/// (by default `~/.config/ldapbook/config`).
///
/// The format is `key = value` lines; `#` starts a comment; `[name]` starts a
/// named profile, chosen with `--profile name`. Settings before the first
/// profile are the defaults every profile inherits.
///
/// ```
/// uri = ldap://ldap.example.com ldap://ldap2.example.com
/// base = dc=example,dc=com
/// binddn = uid=ada,ou=people,dc=example,dc=com
/// password-file = ~/.config/ldapbook/password
/// starttls = yes
///
/// [local]
/// uri = ldapi://%2Fhome%2Fada%2F.local%2Fshare%2Fldapbook%2Fldapi
/// sasl-mech = EXTERNAL
/// ```
///
/// Keys: `uri`, `base`, `binddn`, `password-file`, `starttls` (yes/no),
/// `sasl-mech` (EXTERNAL), `ca-file`, `people-base`, `timeout` (seconds), `cache` (yes/no: the
/// local index of people), `cache-max-age` (seconds).
/// Passwords themselves never go in this file, only the name of a file
/// (readable by its owner alone) that holds one.
public struct ConfigFile: Sendable, Hashable {
    /// The keys a configuration file may set.
    public static let keys: Set<String> = [
        "uri", "base", "binddn", "password-file", "starttls", "sasl-mech", "ca-file", "people-base", "timeout",
        "cache", "cache-max-age",
    ]

    /// The settings before the first profile.
    public var defaults: [String: String]
    /// Each profile's own settings (without the defaults).
    public var profiles: [String: [String: String]]

    /// Creates an empty configuration.
    public init(defaults: [String: String] = [:], profiles: [String: [String: String]] = [:]) {
        self.defaults = defaults
        self.profiles = profiles
    }

    /// Parses a configuration file's text.
    ///
    /// - Throws: ``AddressBookError`` (`invalidValue`) naming the line of an
    ///   unknown key, a malformed line or a repeated profile.
    public init(parsing text: String, path: String = "config") throws(AddressBookError) {
        var defaults: [String: String] = [:]
        var profiles: [String: [String: String]] = [:]
        var current: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine).trimmingWhitespace()
            let place = "\(path):\(index + 1)"
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw AddressBookError(.invalidValue, "\(place): a profile line looks like [name]")
                }
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
                guard profiles[name] == nil else {
                    throw AddressBookError(.invalidValue, "\(place): profile [\(name)] appears twice")
                }
                profiles[name] = [:]
                current = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw AddressBookError(.invalidValue, "\(place): expected key = value")
            }
            let key = String(line[..<equals]).trimmingWhitespace().lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard Self.keys.contains(key) else {
                let hint = key.contains("password") && key != "password-file"
                    ? "; passwords go in a separate file named by password-file" : ""
                throw AddressBookError(.invalidValue, "\(place): unknown setting \"\(key)\"\(hint)")
            }
            if let current {
                profiles[current]?[key] = value
            } else {
                defaults[key] = value
            }
        }
        self.init(defaults: defaults, profiles: profiles)
    }

    /// The settings of `profile` (its own over the defaults), or the defaults
    /// when `profile` is nil.
    ///
    /// - Throws: ``AddressBookError`` when the profile does not exist.
    public func settings(profile: String?) throws(AddressBookError) -> [String: String] {
        guard let profile else { return defaults }
        guard let own = profiles[profile] else {
            let known = profiles.keys.sorted().joined(separator: ", ")
            throw AddressBookError(.invalidValue, "no profile [\(profile)] in the configuration"
                + (known.isEmpty ? "" : " (profiles: \(known))"))
        }
        return defaults.merging(own) { _, profileValue in profileValue }
    }

    /// The configuration file's path: `$XDG_CONFIG_HOME/ldapbook/config`, or
    /// `~/.config/ldapbook/config`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/ldapbook/config"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/ldapbook/config"
    }

    /// Reads the file at `path`; a missing file is an empty configuration.
    public static func load(path: String) throws -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AddressBookError(.invalidValue, "cannot read the configuration \(path)")
        }
        defer { try? handle.close() }
        let data = handle.readDataToEndOfFile()
        guard let text = String(data: data, encoding: .utf8) else {
            throw AddressBookError(.invalidValue, "the configuration \(path) is not UTF-8 text")
        }
        return try ConfigFile(parsing: text, path: path)
    }
}
