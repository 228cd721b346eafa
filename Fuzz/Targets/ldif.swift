// libFuzzer entry point of the `ldif` fuzz target (see FuzzTarget.ldif);
// built and run by scripts/fuzz.sh.
import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.ldif.fuzz(data, size)
}
