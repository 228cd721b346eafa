/// Typing mistakes a name still matches through: one edit in a word of five letters or
/// more, two from nine (an edit is a letter missing, added, replaced, or two neighbours
/// swapped: `lovelcae` is Lovelace), and in a word of four letters only two neighbours swapped
/// (`jhon` is John, where one replaced letter would make `joan` or `jean` of it). Shorter
/// words must be typed right: there, one edit makes another name.
///
/// Whole words only, folded (``FoldedName``): a typo is matched against a word of the name,
/// never a prefix of one. Such matches rank after every exact and prefix match.
enum Typos {
    /// How far a typed word of `length` letters may be from a name's word.
    struct Allowance: Sendable, Hashable {
        /// The most edits.
        var edits: Int
        /// Whether the only edit allowed is two neighbours swapped.
        var transpositionOnly: Bool

        /// No mistake allowed.
        static let none = Allowance(edits: 0, transpositionOnly: false)
    }

    /// What a typed word of `length` letters is allowed.
    static func allowance(forLength length: Int) -> Allowance {
        switch length {
        case 9...: Allowance(edits: 2, transpositionOnly: false)
        case 5...: Allowance(edits: 1, transpositionOnly: false)
        case 4: Allowance(edits: 1, transpositionOnly: true)
        default: .none
        }
    }

    /// How many edits `typed` is from `word` (neither empty) within what `allowance` allows,
    /// or `nil` when it is further (or the same word: that is no typo).
    static func edits<Letter: Equatable>(from typed: [Letter], to word: [Letter], allowed allowance: Allowance) -> Int? {
        guard allowance.edits > 0, abs(typed.count - word.count) <= allowance.edits, typed != word else { return nil }
        if allowance.transpositionOnly {
            return isTransposition(typed, word) ? 1 : nil
        }
        let distance = restrictedDistance(typed, word, limit: allowance.edits)
        return distance.map { $0 <= allowance.edits ? $0 : nil } ?? nil
    }

    /// Whether `a` is `b` with two neighbouring letters swapped.
    static func isTransposition<Letter: Equatable>(_ a: [Letter], _ b: [Letter]) -> Bool {
        guard a.count == b.count, a.count >= 2 else { return false }
        var first = 0
        while first < a.count && a[first] == b[first] { first += 1 }
        guard first + 1 < a.count, a[first] == b[first + 1], a[first + 1] == b[first] else { return false }
        return a[(first + 2)...] == b[(first + 2)...]
    }

    /// The optimal string alignment distance of `a` and `b` (Levenshtein's, with a swap of two
    /// neighbours as one edit), or `nil` once it must exceed `limit`: a row of the table whose
    /// every cell is over the limit ends the work.
    static func restrictedDistance<Letter: Equatable>(_ a: [Letter], _ b: [Letter], limit: Int) -> Int? {
        if a.isEmpty { return b.count <= limit ? b.count : nil }
        if b.isEmpty { return a.count <= limit ? a.count : nil }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var smallest = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
                smallest = min(smallest, value)
            }
            if smallest > limit { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The words `word` becomes with up to `count` letters deleted, itself included: what the
    /// local index files a name's word under, so that a typed word is found from its own
    /// deletions (a word one edit away shares one with it; SymSpell's symmetric deletion).
    static func deletions(of word: [Unicode.Scalar], upTo count: Int) -> Set<String> {
        var found = Set<String>()
        forEachDeletion(of: word.map { Array(String($0).utf8) }, upTo: count) {
            found.insert(String(decoding: $0, as: UTF8.self))
        }
        return found
    }

    /// Calls `body` with the UTF-8 of each word ``deletions(of:upTo:)`` makes of `letters`
    /// (each letter's UTF-8), itself first; a word may come more than once (letters that
    /// repeat). Positions are deleted in increasing order, so each set of positions once. The
    /// index does this for every word of its vocabulary, so the words are made in one buffer
    /// and never become strings.
    static func forEachDeletion(of letters: [[UInt8]], upTo count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(letters.reduce(0) { $0 + $1.count })
        func emit(skipping first: Int, _ second: Int) {
            bytes.removeAll(keepingCapacity: true)
            for index in letters.indices where index != first && index != second { bytes += letters[index] }
            if !bytes.isEmpty { bytes.withUnsafeBufferPointer(body) }
        }
        emit(skipping: -1, -1)
        guard count >= 1 else { return }
        for first in letters.indices {
            emit(skipping: first, -1)
            if count >= 2 {
                for second in (first + 1)..<letters.count { emit(skipping: first, second) }
            }
        }
    }

    /// Each letter's UTF-8, from a word's.
    static func letters(ofUTF8 word: some Collection<UInt8>) -> [[UInt8]] {
        var letters: [[UInt8]] = []
        for byte in word {
            if byte & 0xC0 == 0x80, !letters.isEmpty { letters[letters.count - 1].append(byte) } else { letters.append([byte]) }
        }
        return letters
    }

    /// How many deletions the index files a name's word of `length` letters under: enough that
    /// every typed word ``allowance(forLength:)`` lets through shares one with it.
    static func indexedDeletions(forLength length: Int) -> Int {
        length >= 9 ? 2 : length >= 4 ? 1 : 0
    }
}
