/// The fuzz targets, each a set of properties checked on one input.
///
/// `Fuzz/Targets/<name>.swift` hands libFuzzer's inputs to ``fuzz(_:_:)``;
/// the `FuzzRegressionTests` replay the seed corpora and every crash input
/// kept in `Fuzz/regressions/<name>/` through ``check(_:)``.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// RFC 4515 filters: escaping values and parsing filter text.
    case filter
    /// RFC 4514 distinguished names: escaping values and parsing DN text.
    case dn
    /// The LDIF reader and writer (RFC 2849).
    case ldif
    /// The vCard parser and writer (vCard 3.0 and 4.0).
    case vcard

    /// Checks every property of this target on `input`.
    ///
    /// - Throws: ``PropertyViolation`` naming the first property that does not hold.
    public func check(_ input: [UInt8]) throws(PropertyViolation) {
        switch self {
        case .filter: try FilterChecks.check(input)
        case .dn: try DistinguishedNameChecks.check(input)
        case .ldif: try LDIFChecks.check(input)
        case .vcard: try VCardChecks.check(input)
        }
    }

    /// The body of `LLVMFuzzerTestOneInput`: checks the input and stops the
    /// process, so that libFuzzer keeps the input, when a property does not hold.
    public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try check(input)
        } catch {
            fatalError("\(rawValue): \(error)")
        }
        return 0
    }
}
