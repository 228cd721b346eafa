/// Byte strings one after another in one array, each once: a person's index keys or words
/// (``IndexKeys``), made with an allocation or two rather than one a string.
///
/// A person has a dozen keys and a few words; they were an array each, and making and
/// freeing them was a tenth of making the local index (BENCHMARKS.md, workload 6).
struct ByteStrings: RandomAccessCollection, Equatable, Sendable {
    /// The strings, one after another.
    private var bytes: [UInt8] = []
    /// Where each string ends in ``bytes``.
    private var ends: [Int] = []

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    subscript(position: Int) -> ArraySlice<UInt8> {
        bytes[(position == 0 ? 0 : ends[position - 1])..<ends[position]]
    }

    /// Adds the string `write` appends to the bytes it is given, unless it is there already.
    /// (Comparing with a dozen strings costs less than hashing.)
    mutating func append(unlessPresent write: (inout [UInt8]) -> Void) {
        let start = bytes.count
        write(&bytes)
        let added = bytes[start...]
        if indices.contains(where: { self[$0].elementsEqual(added) }) {
            bytes.removeSubrange(start...)
        } else {
            ends.append(bytes.count)
        }
    }

    /// Adds `string` unless it is there already.
    mutating func append(unlessPresent string: some Collection<UInt8>) {
        append { $0 += string }
    }
}
