// libFuzzer entry point of the `vcard` fuzz target (see FuzzTarget.vcard);
// built and run by scripts/fuzz.sh.
import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.vcard.fuzz(data, size)
}
