/// "Did you mean" for a mistyped name: a command, an option, or a field.
public enum Suggestion {
    /// The candidate closest to the word, if one is close enough to be what was meant.
    ///
    /// Closeness is the optimal string alignment distance between the lowercased names
    /// without their leading dashes (an insertion, deletion, substitution or swap of two
    /// neighbouring characters each counts one). A candidate is close enough when the distance is
    /// at most a third of the longer name's length, rounded up; the first of equally close
    /// candidates wins.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(undashed(word).lowercased())
        guard !target.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let name = Array(undashed(candidate).lowercased())
            let distance = distance(target, name)
            let allowed = (max(target.count, name.count) + 2) / 3
            if distance <= allowed && distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The optimal string alignment distance between two strings of characters.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // rows[i][j]: the distance between the first i characters of a and the first j of b.
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, rows[i - 2][j - 2] + 1)
                }
                rows[i][j] = value
            }
        }
        return rows[a.count][b.count]
    }

    /// The name without its leading dashes.
    private static func undashed(_ name: String) -> Substring {
        name.drop(while: { $0 == "-" })
    }
}
