@testable import LDAPBook
import Testing

/// A shelf of `words`, as the index makes one.
private func shelf(_ words: [String]) -> [UInt8] {
    var shelf: [UInt8] = []
    for word in words { Vocabulary.append(Array(word.utf8), to: &shelf) }
    return shelf
}

/// The words and masks of `shelf`, in order.
private func contents(of shelf: [UInt8]) -> [(mask: UInt32, word: String)] {
    var found: [(mask: UInt32, word: String)] = []
    shelf.withUnsafeBufferPointer { buffer in
        Vocabulary.forEachWord(in: buffer) { mask, word in found.append((mask, String(decoding: word, as: UTF8.self))) }
    }
    return found
}

/// The words of `words` that `typed` may be with the typos its length allows.
private func near(_ typed: String, in words: [String]) -> [String] {
    let letters = Array(typed.unicodeScalars)
    let allowance = Typos.allowance(forLength: letters.count)
    return shelf(words).withUnsafeBufferPointer { buffer in
        Vocabulary.words(in: buffer, near: letters, mask: Vocabulary.mask(of: letters), allowed: allowance)
    }.map { String(decoding: $0, as: UTF8.self) }
}

@Suite("The vocabulary: the words of names, for the typos of typed words")
struct VocabularyTests {
    @Test("a shelf is keyed by its words' length in letters, up to 255")
    func shelfKeys() {
        #expect(Vocabulary.shelfKey(length: 8) == [Postings.Kind.shelf.rawValue, 8])
        #expect(Vocabulary.shelfKey(length: 255) == [0x76, 255])
        #expect(Vocabulary.shelfKey(length: 1000) == [0x76, 255])
        #expect(Vocabulary.letters(of: Array("sørensen".utf8)).count == 8, "letters, not bytes")
        #expect(Vocabulary.letters(of: Array("王伟".utf8)) == ["王", "伟"])
    }

    @Test("a shelf's rows are keyed by its key and their number; a shelf's words end where their lengths say")
    func shelfRows() {
        #expect(Vocabulary.shelfKey(length: 8, row: 0) == [0x76, 8, 0, 0])
        #expect(Vocabulary.shelfKey(length: 8, row: 258) == [0x76, 8, 1, 2])
        #expect(Vocabulary.shelfKey(length: 8, row: 70_000) == [0x76, 8, 0xFF, 0xFF], "the last row takes the rest")
        #expect(Vocabulary.ends(in: shelf(["ada", "lovelace"])) == [8, 21])
        #expect(Vocabulary.ends(in: []) == [])
    }

    @Test("a word's mask has a bit for each letter it has, a–z their own")
    func masks() {
        #expect(Vocabulary.mask(of: "abc".unicodeScalars) == 0b111)
        #expect(Vocabulary.mask(of: "z".unicodeScalars) == 1 << 25)
        #expect(Vocabulary.mask(of: "".unicodeScalars) == 0)
        #expect(Vocabulary.mask(of: "anna".unicodeScalars) == Vocabulary.mask(of: "nan".unicodeScalars), "a letter once or twice")
        #expect(Vocabulary.mask(of: "lovelace".unicodeScalars) == Vocabulary.mask(of: "lovelcae".unicodeScalars), "a swap keeps it")
        // Letters beyond a–z share the six bits above.
        for letter in ["é", "σ", "王", "0", "ø"] as [Unicode.Scalar] {
            let mask = Vocabulary.mask(of: [letter])
            #expect(mask.nonzeroBitCount == 1 && mask >= 1 << 26, "\(letter)")
        }
        // One edit changes at most two bits: the letter it takes away and the one it adds.
        let word = Vocabulary.mask(of: "lovelace".unicodeScalars)
        for typo in ["lovelac", "lovelacex", "lovelaxe", "ovelace", "loveläce"] {
            #expect((Vocabulary.mask(of: typo.unicodeScalars) ^ word).nonzeroBitCount <= 2, "\(typo)")
        }
    }

    @Test("words appended to a shelf come back in order, each with its mask, byte for byte")
    func shelfRoundTrip() {
        let words = ["lovelace", "sørensen", "παπαδοπουλοσ", "王伟", "a", "", "mueller"]
        let found = contents(of: shelf(words))
        #expect(found.map(\.word) == words)
        for (mask, word) in found {
            #expect(mask == Vocabulary.mask(of: word.unicodeScalars), "\(word)")
        }
        // Four bytes of mask, one of length, then the word.
        #expect(shelf(["ab"]) == [0b11, 0, 0, 0, 2, 0x61, 0x62])
        #expect(contents(of: []).isEmpty)
    }

    @Test("a shelf holds exactly the words appended to it")
    func holds() {
        func holds(_ shelf: [UInt8], _ word: String) -> Bool {
            shelf.withUnsafeBufferPointer { Vocabulary.shelf($0, holds: Array(word.utf8)) }
        }
        let kept = shelf(["lovelace", "babbage", "hopper"])
        for word in ["lovelace", "babbage", "hopper"] {
            #expect(holds(kept, word), "\(word)")
        }
        for word in ["love", "lovelaces", "Lovelace", "", "hoppe"] {
            #expect(!holds(kept, word), "\(word)")
        }
        #expect(!holds([], "ada"))
    }

    @Test("a word longer than 255 bytes is kept by its first 255, and the words after it still read")
    func longWords() {
        let long = String(repeating: "a", count: 300)
        let found = contents(of: shelf([long, "hopper"]))
        #expect(found.map(\.word) == [String(repeating: "a", count: 255), "hopper"])
    }

    @Test("a shelf cut short, or of bytes that are no shelf, ends at the damage without trapping")
    func damagedShelves() {
        let whole = shelf(["lovelace", "babbage"])
        for cut in 0..<whole.count {
            let found = contents(of: Array(whole.prefix(cut)))
            #expect(found.count == (cut >= 13 ? 1 : 0), "cut at \(cut)")
        }
        #expect(contents(of: [0xFF, 0xFF, 0xFF, 0xFF, 200, 0x61]).isEmpty, "a length beyond the shelf")
    }

    @Test("a typed word finds the words its typos allow, and no others", arguments: [
        ("lovelcae", ["lovelace"]), ("lovlace", ["lovelace"]), ("lovelacee", ["lovelace"]), ("lovelaxe", ["lovelace"]),
        ("babage", ["babbage"]), ("hoper", ["hopper"]), ("jhon", ["john"]), ("papadopolous", ["papadopoulos"]),
        ("sorensne", ["sorensen"]), ("lovelace", []), ("zzzzzz", []), ("joan", []), ("ada", []),
    ] as [(String, [String])])
    func typos(_ typed: String, _ expected: [String]) {
        let vocabulary = ["lovelace", "babbage", "hopper", "john", "jean", "papadopoulos", "sorensen", "lovelock", "ada", "adam"]
        #expect(near(typed, in: vocabulary) == expected)
    }

    @Test("four letters forgive only two neighbours swapped; nine and more forgive two edits")
    func allowances() {
        #expect(near("jhon", in: ["john", "joan", "jon", "johnn"]) == ["john"])
        #expect(near("joan", in: ["john", "jean", "joanne"]).isEmpty, "a replaced letter makes another name")
        #expect(near("alexandre", in: ["aleksandr", "alexandra", "alexander"]) == ["alexandra", "alexander"], "aleksandr is three edits away")
        #expect(near("alexandr", in: ["aleksandr", "alexandra"]) == ["alexandra"], "eight letters: one edit")
        #expect(near("bob", in: ["rob", "bobby", "bo"]).isEmpty, "three letters must be typed right")
    }

    @Test("the mask never keeps out a word within the typos: the same words as comparing each")
    func maskIsOnlyAFilter() {
        var generator = SplitMix(state: 1815)
        let alphabet = Array("aeilnorstuøé王".unicodeScalars)
        func word(_ length: Int) -> String {
            String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for _ in 0..<50 {
            let typed = word(Int.random(in: 4...11, using: &generator))
            let letters = Array(typed.unicodeScalars)
            let allowance = Typos.allowance(forLength: letters.count)
            // Words near it (a letter or two changed, added, taken away) and others.
            var words: [String] = (0..<40).map { _ in word(Int.random(in: 2...13, using: &generator)) }
            for _ in 0..<40 {
                var changed = letters
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    let at = Int.random(in: 0..<changed.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: changed[at] = alphabet.randomElement(using: &generator)!
                    case 1: changed.insert(alphabet.randomElement(using: &generator)!, at: at)
                    default: if changed.count > 1 { changed.remove(at: at) }
                    }
                }
                words.append(String(String.UnicodeScalarView(changed)))
            }
            let expected = words.filter { Typos.edits(from: letters, to: Array($0.unicodeScalars), allowed: allowance) != nil }
            #expect(near(typed, in: words) == expected, "\(typed)")
        }
    }
}
