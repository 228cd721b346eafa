import Foundation

extension SlapdConfiguration {
    /// The certificate and key slapd presents for StartTLS.
    public struct TLS: Sendable, Hashable {
        /// The PEM server certificate (`olcTLSCertificateFile`).
        public var certificateFile: URL

        /// The PEM private key of the certificate (`olcTLSCertificateKeyFile`).
        public var keyFile: URL

        /// The PEM certificates of trusted authorities (`olcTLSCACertificateFile`), if any.
        public var caCertificateFile: URL?

        /// Creates TLS settings from PEM files.
        public init(certificateFile: URL, keyFile: URL, caCertificateFile: URL? = nil) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.caCertificateFile = caCertificateFile
        }
    }
}
