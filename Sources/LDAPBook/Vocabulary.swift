/// The words of the index's names, for the typos a typed word may have (``Typos``): kept on
/// shelves by length, each shelf rows of `postings` whose values are its words one after
/// another, each as a 32-bit mask of the letters it has, its length in bytes, and its bytes.
///
/// A row holds at most ``rowBytes`` of words, so that SQLite keeps it in its page and a
/// lookup reads it in place: a shelf in one row (430 KB of six-letter words among a million
/// people) was put on overflow pages, and SQLite copying it out took 2–8 ms of each lookup of
/// a word of five letters or more, against a fraction of a millisecond to compare its words.
///
/// A typed word is compared with the words of the shelves its typos allow (one or two
/// letters longer or shorter), and only with those whose letters differ in as few as the
/// edits allowed can make (an edit adds a letter, takes one away, or both: two bits of the
/// mask): at a million people, a few hundred thousand words are read and a few hundred
/// compared letter by letter, in a millisecond or two. A table of each word's deletions
/// (SymSpell) answers with fewer comparisons but took thirty keys a word to make, a quarter of
/// the time of reading everyone (BENCHMARKS.md, workload 6).
enum Vocabulary {
    /// The key of the shelf of words of `length` letters.
    static func shelfKey(length: Int) -> [UInt8] {
        [Postings.Kind.shelf.rawValue, UInt8(min(length, 255))]
    }

    /// The key of row `row` of the shelf of words of `length` letters: the shelf's key and
    /// the row's number (the last row takes every word past 65,535 rows).
    static func shelfKey(length: Int, row: Int) -> [UInt8] {
        let row = min(row, 0xFFFF)
        return shelfKey(length: length) + [UInt8(row >> 8), UInt8(row & 0xFF)]
    }

    /// The most bytes of words a row of a shelf holds. SQLite keeps a row of a table without
    /// rowids in its page (of 4,096 bytes) when the row is at most 1,002 bytes, its key and
    /// header included.
    static let rowBytes = 960

    /// Where each word of `words` (as ``append(_:to:)`` writes them) ends.
    static func ends(in words: [UInt8]) -> [Int] {
        var ends: [Int] = [], index = 0
        while index + 5 <= words.count {
            index += 5 + Int(words[index + 4])
            ends.append(min(index, words.count))
        }
        return ends
    }

    /// The mask of the letters of a word: a bit for each letter it has (a–z their own; others
    /// by their scalar's value).
    static func mask(of letters: some Sequence<Unicode.Scalar>) -> UInt32 {
        var mask: UInt32 = 0
        for letter in letters {
            let value = letter.value
            let bit = value &- 0x61 < 26 ? value - 0x61 : 26 + value % 6
            mask |= 1 << bit
        }
        return mask
    }

    /// The letters of a word's UTF-8.
    static func letters(of word: some Collection<UInt8>) -> [Unicode.Scalar] {
        Array(String(decoding: word, as: UTF8.self).unicodeScalars)
    }

    /// Appends `word` (folded UTF-8) to `shelf`.
    static func append(_ word: some Collection<UInt8>, to shelf: inout [UInt8]) {
        let mask = mask(of: letters(of: word))
        shelf += [UInt8(mask & 0xFF), UInt8(mask >> 8 & 0xFF), UInt8(mask >> 16 & 0xFF), UInt8(mask >> 24)]
        shelf.append(UInt8(min(word.count, 255)))
        shelf += word.prefix(255)
    }

    /// Calls `body` with each word of a shelf and its letter mask.
    static func forEachWord(in shelf: UnsafeBufferPointer<UInt8>, _ body: (UInt32, UnsafeBufferPointer<UInt8>) -> Void) {
        var index = 0
        while index + 5 <= shelf.count {
            let mask = UInt32(shelf[index]) | UInt32(shelf[index + 1]) << 8 | UInt32(shelf[index + 2]) << 16
                | UInt32(shelf[index + 3]) << 24
            let count = Int(shelf[index + 4])
            let start = index + 5
            guard start + count <= shelf.count else { return }
            body(mask, UnsafeBufferPointer(rebasing: shelf[start..<start + count]))
            index = start + count
        }
    }

    /// Whether `shelf` (a row of one) holds `word`.
    static func shelf(_ shelf: UnsafeBufferPointer<UInt8>, holds word: [UInt8]) -> Bool {
        var found = false
        forEachWord(in: shelf) { _, candidate in
            if !found && candidate.elementsEqual(word) { found = true }
        }
        return found
    }

    /// The words of `shelf` that `typed` (its letters, and their mask) may be with the typos
    /// `allowance` allows.
    static func words(in shelf: UnsafeBufferPointer<UInt8>, near typed: [Unicode.Scalar], mask typedMask: UInt32,
                      allowed allowance: Typos.Allowance) -> [[UInt8]] {
        var found: [[UInt8]] = []
        forEachWord(in: shelf) { mask, word in
            guard (mask ^ typedMask).nonzeroBitCount <= 2 * allowance.edits else { return }
            if Typos.edits(from: typed, to: letters(of: word), allowed: allowance) != nil { found.append(Array(word)) }
        }
        return found
    }
}
