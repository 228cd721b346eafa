// libFuzzer entry point of the `dn` fuzz target (see FuzzTarget.dn);
// built and run by scripts/fuzz.sh.
import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.dn.fuzz(data, size)
}
