// libFuzzer entry point of the `filter` fuzz target (see FuzzTarget.filter);
// built and run by scripts/fuzz.sh.
import FuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.filter.fuzz(data, size)
}
