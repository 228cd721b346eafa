internal import CLDAP
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Memory for one libldap call's arguments: C strings, `berval`s, control and
/// modification arrays. libldap encodes a request before its call returns,
/// so everything is freed together when the arena goes away.
final class CArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    deinit {
        for pointer in allocations {
            free(pointer)
        }
    }

    /// Allocates `count` zeroed elements of `T`.
    func allocate<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let raw = calloc(max(count, 1), MemoryLayout<T>.stride)!
        allocations.append(raw)
        return raw.bindMemory(to: T.self, capacity: max(count, 1))
    }

    /// A NUL-terminated copy of `string`.
    func cString(_ string: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(string.utf8)
        let pointer = allocate(CChar.self, count: utf8.count + 1)
        utf8.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(pointer).copyMemory(from: source.baseAddress!, byteCount: utf8.count)
        }
        return pointer
    }

    /// An optional C string: `nil` stays `NULL`.
    func cString(_ string: String?) -> UnsafeMutablePointer<CChar>? {
        string.map { cString($0) }
    }

    /// A `berval` holding a copy of `bytes` (not NUL-terminated; libldap uses the length).
    func berval(_ bytes: [UInt8]) -> CLDAP.berval {
        let pointer = allocate(CChar.self, count: bytes.count + 1)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress {
                UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: bytes.count)
            }
        }
        return CLDAP.berval(bv_len: ber_len_t(bytes.count), bv_val: pointer)
    }

    /// A pointer to a `berval` holding a copy of `bytes`.
    func bervalPointer(_ bytes: [UInt8]) -> UnsafeMutablePointer<CLDAP.berval> {
        let pointer = allocate(CLDAP.berval.self, count: 1)
        pointer.pointee = berval(bytes)
        return pointer
    }

    /// A NULL-terminated array of C strings, or `NULL` for an empty list.
    func cStringArray(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard !strings.isEmpty else { return nil }
        let array = allocate(UnsafeMutablePointer<CChar>?.self, count: strings.count + 1)
        for (index, string) in strings.enumerated() {
            array[index] = cString(string)
        }
        return array
    }

    /// A NULL-terminated array of controls, or `NULL` when there are none.
    func controls(_ controls: [LDAPControl]) -> UnsafeMutablePointer<UnsafeMutablePointer<CLDAP.LDAPControl>?>? {
        guard !controls.isEmpty else { return nil }
        let array = allocate(UnsafeMutablePointer<CLDAP.LDAPControl>?.self, count: controls.count + 1)
        for (index, control) in controls.enumerated() {
            let c = allocate(CLDAP.LDAPControl.self, count: 1)
            c.pointee.ldctl_oid = cString(control.oid)
            if let value = control.value {
                c.pointee.ldctl_value = berval(value)
            } else {
                c.pointee.ldctl_value = CLDAP.berval(bv_len: 0, bv_val: nil)
            }
            c.pointee.ldctl_iscritical = control.isCritical ? 1 : 0
            array[index] = c
        }
        return array
    }

    /// A NULL-terminated array of `LDAPMod`s with binary values.
    func modifications(_ changes: [LDAPModification]) -> UnsafeMutablePointer<UnsafeMutablePointer<LDAPMod>?> {
        let array = allocate(UnsafeMutablePointer<LDAPMod>?.self, count: changes.count + 1)
        for (index, change) in changes.enumerated() {
            let mod = allocate(LDAPMod.self, count: 1)
            mod.pointee.mod_op = change.operation.cValue | LDAP_MOD_BVALUES
            mod.pointee.mod_type = cString(change.attribute)
            if change.values.isEmpty {
                mod.pointee.mod_vals.modv_bvals = nil
            } else {
                let values = allocate(UnsafeMutablePointer<CLDAP.berval>?.self, count: change.values.count + 1)
                for (valueIndex, value) in change.values.enumerated() {
                    values[valueIndex] = bervalPointer(value.bytes)
                }
                mod.pointee.mod_vals.modv_bvals = values
            }
            array[index] = mod
        }
        return array
    }
}
