internal import CLDAP
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension LDAPHandle {
    /// The value of the control `oid` sent with a search result entry: `nil` when the entry
    /// has no such control, an empty array when the control has no value.
    ///
    /// The corresponding C function is `ldap_get_entry_controls`.
    func entryControlValue(_ oid: String, of message: OpaquePointer, operation: String) throws(LDAPError)
        -> [UInt8]?
    {
        var controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?
        let rc = ldap_get_entry_controls(ld, message, &controls)
        guard rc == LDAP_SUCCESS else { throw error(rc, operation: operation) }
        guard let controls else { return nil }
        defer { ldap_controls_free(controls) }
        var index = 0
        while let control = controls[index] {
            index += 1
            guard let name = control.pointee.ldctl_oid, strcmp(name, oid) == 0 else { continue }
            let value = control.pointee.ldctl_value
            guard let bytes = value.bv_val else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: Int(value.bv_len)))
        }
        return nil
    }

    /// Decodes an intermediate response (RFC 4511 section 4.13): its name and value, either
    /// of which may be absent.
    ///
    /// The corresponding C function is `ldap_parse_intermediate`.
    func intermediateResponse(from message: OpaquePointer, operation: String) throws(LDAPError)
        -> (oid: String?, value: [UInt8]?)
    {
        var oid: UnsafeMutablePointer<CChar>?
        var data: UnsafeMutablePointer<CLDAP.berval>?
        var controls: UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>?
        let rc = ldap_parse_intermediate(ld, message, &oid, &data, &controls, 0)
        defer {
            if let oid { ldap_memfree(oid) }
            if let data { ber_bvfree(data) }
            if let controls { ldap_controls_free(controls) }
        }
        guard rc == LDAP_SUCCESS else { throw error(rc, operation: operation) }
        let value = data.map { bv in
            bv.pointee.bv_val.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(bv.pointee.bv_len))) } ?? []
        }
        return (oid.map { String(cString: $0) }, value)
    }
}
