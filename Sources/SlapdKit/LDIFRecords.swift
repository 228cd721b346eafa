import Foundation

/// A minimal LDIF reader that splits text into entries of logical (unfolded) lines,
/// enough to rename schema entries without disturbing their content.
enum LDIFRecords {
    /// One attribute line of an entry, possibly folded over several physical lines.
    struct Line {
        /// The physical lines exactly as they appear in the text.
        var physicalLines: [String]

        /// The attribute description before the colon, lowercased.
        var key: String {
            let unfolded = self.unfolded
            guard let colon = unfolded.firstIndex(of: ":") else { return unfolded.lowercased() }
            return unfolded[..<colon].lowercased()
        }

        /// The value after the colon, Base64-decoded when written with `::`.
        var value: String {
            let unfolded = self.unfolded
            guard let colon = unfolded.firstIndex(of: ":") else { return "" }
            let rest = unfolded[unfolded.index(after: colon)...]
            if rest.hasPrefix(":") {
                let encoded = rest.dropFirst().trimmingCharacters(in: .whitespaces)
                guard let data = Data(base64Encoded: encoded) else { return "" }
                return String(decoding: data, as: UTF8.self)
            }
            return String(rest.drop { $0 == " " })
        }

        /// The line with folding undone.
        private var unfolded: String {
            guard let first = physicalLines.first else { return "" }
            return physicalLines.dropFirst().reduce(first) { $0 + $1.dropFirst() }
        }
    }

    /// The entries of `text`, each a list of lines, with comments and a leading
    /// `version:` line removed.
    static func entries(in text: String) -> [[Line]] {
        var entries: [[Line]] = []
        var current: [Line] = []
        var inComment = false
        let physicalLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }

        for physicalLine in physicalLines {
            if physicalLine.isEmpty {
                if !current.isEmpty {
                    entries.append(current)
                    current = []
                }
                inComment = false
            } else if physicalLine.hasPrefix(" ") {
                if !inComment, !current.isEmpty {
                    current[current.count - 1].physicalLines.append(physicalLine)
                }
            } else if physicalLine.hasPrefix("#") {
                inComment = true
            } else {
                inComment = false
                current.append(Line(physicalLines: [physicalLine]))
            }
        }
        if !current.isEmpty {
            entries.append(current)
        }
        if let firstLine = entries.first?.first, firstLine.key == "version" {
            entries[0].removeFirst()
            if entries[0].isEmpty {
                entries.removeFirst()
            }
        }
        return entries
    }
}
