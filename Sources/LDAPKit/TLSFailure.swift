/// Plain words for what libldap and the TLS library report when TLS fails.
enum TLSFailure {
    /// The message for a failed TLS connection whose libldap diagnostic is `diagnostic`.
    static func explain(_ diagnostic: String, code: LDAPResultCode) -> String {
        diagnostic
    }
}
