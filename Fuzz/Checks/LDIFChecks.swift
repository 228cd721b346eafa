import LDAPKit

/// The properties of the LDIF reader and writer checked on one input.
///
/// - Reading the input never crashes and always ends: each call to
///   ``LDIFStream/next()`` gives a record, throws for a bad record, or ends.
/// - When ``LDIFReader/records()`` succeeds, it gives the records the stream gives.
/// - The records the input gives, written by ``LDIFWriter``, are printable
///   ASCII in lines of at most 76 bytes, and read back as equal records
///   (``LDIFRecord`` compares the parsed model: DNs, attribute names and
///   values byte for byte, modifications, controls) with the same hashes,
///   which write the same bytes again.
///
/// File URLs are never followed.
enum LDIFChecks {
    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        let reader = LDIFReader(bytes: input)
        var stream = reader.stream()
        var accepted: [LDIFRecord] = []
        var failures = 0
        var calls = 0
        while true {
            calls += 1
            try PropertyViolation.require(
                calls <= input.count + 2,
                "the stream over \(shown(input)) neither ends nor consumes input: \(calls) calls"
            )
            do {
                guard let record = try stream.next() else { break }
                accepted.append(record)
            } catch {
                try PropertyViolation.require(
                    error.line >= 1 && error.line <= input.count + 1,
                    "reading \(shown(input)) threw \(error), whose line is outside the input"
                )
                failures += 1
            }
        }
        if failures == 0 {
            do {
                let records = try reader.records()
                try PropertyViolation.require(
                    records == accepted,
                    "records() and the stream read \(shown(input)) differently"
                )
            } catch {
                throw PropertyViolation("records() throws \(error) for \(shown(input)), which the stream reads without error")
            }
        }
        try checkRoundTrip(accepted, from: input)
    }

    /// `records` written and read back are equal, and written the same again.
    private static func checkRoundTrip(_ records: [LDIFRecord], from input: [UInt8]) throws(PropertyViolation) {
        let written = records.reduce(LDIFWriter.versionLine) { $0 + LDIFWriter.write($1) }
        for line in written.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            try PropertyViolation.require(
                line.count <= 76 && line.allSatisfy { (0x20...0x7E).contains($0) },
                "the records of \(shown(input)) are written with the line \(shown(line)), "
                    + "which is longer than 76 bytes or not printable ASCII"
            )
        }
        let reread: [LDIFRecord]
        do {
            reread = try LDIFReader(bytes: written).records()
        } catch {
            throw PropertyViolation("the records of \(shown(input)) are written as \(shown(written)), which reads as an error: \(error)")
        }
        try PropertyViolation.require(
            reread == records && reread.map(\.hashValue) == records.map(\.hashValue),
            "the records of \(shown(input)) are written as \(shown(written)), which reads back as different records "
                + "(or equal ones with other hashes)"
        )
        let rewritten = reread.reduce(LDIFWriter.versionLine) { $0 + LDIFWriter.write($1) }
        try PropertyViolation.require(
            rewritten == written,
            "the records of \(shown(input)) are written as \(shown(written)), and after reading back as \(shown(rewritten))"
        )
    }
}
