import CLDAP
import Testing
@testable import LDAPKit

@Suite("LDAP transactions (RFC 5805), without a server")
struct LDAPTransactionTests {
    @Test("The OIDs match libldap's")
    func oids() {
        #expect(LDAPTransaction.startOID == String(cString: cldap_exop_txn_start()))
        #expect(LDAPTransaction.endOID == String(cString: cldap_exop_txn_end()))
        #expect(LDAPKit.LDAPControl.OID.transactionSpecification == String(cString: cldap_control_txn_spec()))
    }

    @Test("The specification control is critical and carries the identifier, even an empty one")
    func control() {
        let empty = LDAPTransaction(identifier: []).control
        #expect(empty.oid == "1.3.6.1.1.21.2")
        #expect(empty.isCritical)
        #expect(empty.value == [], "an empty identifier is a value, not an absent one")
        #expect(LDAPTransaction(identifier: [7, 0, 9]).control.value == [7, 0, 9])
    }

    @Test("An End Transaction request leaves out commit's default, as DER requires")
    func endRequest() {
        // SEQUENCE { OCTET STRING "" }
        #expect(LDAPTransaction.endRequestValue(identifier: [], commit: true) == [0x30, 0x02, 0x04, 0x00])
        // SEQUENCE { BOOLEAN FALSE, OCTET STRING "ab" }
        #expect(LDAPTransaction.endRequestValue(identifier: Array("ab".utf8), commit: false)
            == [0x30, 0x07, 0x01, 0x01, 0x00, 0x04, 0x02, 0x61, 0x62])
    }
}
