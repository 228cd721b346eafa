import Foundation

extension Slapd {
    /// The Debian and Ubuntu packages that provide slapd, slapadd and the client tools.
    public static let debianPackages = ["slapd", "ldap-utils"]

    /// Whether slapd, slapadd, ldapwhoami, ldapmodify and the MDB backend are installed
    /// where the default configuration expects them.
    public static var isInstalled: Bool {
        (try? locateSlapd()) != nil
    }

    /// Returns the slapd program of `configuration` after checking that it and the other
    /// programs and modules a private server needs are present.
    ///
    /// Throws a ``SlapdError`` of kind ``SlapdError/Kind/notInstalled`` that names the
    /// missing files and the packages to install.
    @discardableResult
    public static func locateSlapd(using configuration: SlapdConfiguration = SlapdConfiguration()) throws(SlapdError) -> URL {
        let fileManager = FileManager.default
        let programs = [
            configuration.slapdExecutable,
            configuration.slapaddExecutable,
            configuration.ldapwhoamiExecutable,
            configuration.ldapmodifyExecutable,
        ]
        var missing = programs.filter { !fileManager.isExecutableFile(atPath: $0.path) }.map(\.path)
        let backendFiles = ["back_mdb.la", "back_mdb.so"].map { configuration.modulePath.appendingPathComponent($0).path }
        if !backendFiles.contains(where: fileManager.fileExists(atPath:)) {
            missing.append(backendFiles[0])
        }
        guard missing.isEmpty else {
            throw SlapdError(
                .notInstalled,
                "OpenLDAP is not installed: \(missing.joined(separator: ", ")) not found. On Debian or Ubuntu, install it with `apt-get install \(debianPackages.joined(separator: " "))` (the system slapd service it sets up is not needed)."
            )
        }
        return configuration.slapdExecutable
    }
}
