/// One content line of a vCard file after unfolding: its bytes and the
/// 1-based number of the physical line it starts on.
struct VCardLogicalLine {
    /// The line's bytes, without line breaks and folds.
    var bytes: [UInt8]
    /// The number of the physical line the content line starts on.
    var number: Int
}

/// Splits a vCard file into content lines (RFC 6350 section 3.2).
enum VCardUnfolding {
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether the content line's parameters (before its first ":") say quoted-printable.
    private static func isQuotedPrintable(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
        return String(decoding: bytes[..<colon], as: UTF8.self).uppercased().contains("QUOTED-PRINTABLE")
    }

    /// The content lines of `bytes`.
    ///
    /// Lines end with CRLF, LF or CR; a line that begins with a space or a
    /// tab continues the one before it, without that first white-space
    /// character. Folds are undone on bytes, so a fold that splits a UTF-8
    /// sequence (which some writers produce) joins it again. A UTF-8 byte
    /// order mark at the start is skipped, and lines of white space only
    /// are left out.
    static func logicalLines(_ bytes: [UInt8]) -> [VCardLogicalLine] {
        var lines: [VCardLogicalLine] = []
        var current: VCardLogicalLine?
        var index = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        var number = 0
        while index < bytes.count {
            number += 1
            var end = index
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "\r") {
                end += 1
            }
            let physical = bytes[index..<end]
            if end < bytes.count && bytes[end] == UInt8(ascii: "\r") && end + 1 < bytes.count
                && bytes[end + 1] == UInt8(ascii: "\n") {
                index = end + 2
            } else {
                index = end + 1
            }

            if let first = physical.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), current != nil {
                current?.bytes.append(contentsOf: physical.dropFirst())
                continue
            }
            // vCard 2.1's quoted-printable values break lines softly: a line ending in "="
            // goes on in the next one, whatever it starts with.
            if let open = current, open.bytes.last == UInt8(ascii: "="), isQuotedPrintable(open.bytes) {
                current?.bytes.removeLast()
                current?.bytes.append(contentsOf: physical)
                continue
            }
            if let finished = current { lines.append(finished) }
            current = VCardLogicalLine(bytes: Array(physical), number: number)
        }
        if let finished = current { lines.append(finished) }
        return lines.filter { line in
            !line.bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        }
    }
}
