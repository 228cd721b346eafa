import Foundation
import LDAPKit
import Synchronization

/// A name as it is matched: its words, folded and lowered.
///
/// The **folded** form drops what people leave out when they type a name: case, diacritics
/// (the compatibility decomposition of each character with its marks dropped: `Zoë` is
/// `zoe`, `ﬁ` is `fi`), and the letters that do not decompose (`ø` is `o`, `æ` is `ae`, `ß` is
/// `ss`, `ł` is `l`, ``NameFolding/letters``). The **lowered** form keeps the accents and drops
/// only case, so that a match with the accents as typed can rank first.
///
/// Both forms keep letters and digits only: white space and punctuation end words and are not
/// kept, so `O'Brien` is the words `o` and `brien`, matched as `obrien` (from its first word)
/// or `brien` (from its second). Each form is its words one after the other, in UTF-8, with
/// the offsets at which they start.
struct FoldedName: Sendable, Hashable {
    /// The folded letters and digits.
    var folded: [UInt8] = []
    /// Where each word starts in ``folded``.
    var foldedWords: [Int] = []
    /// The lower-case letters and digits, accents kept.
    var lowered: [UInt8] { hasOwnLowered ? ownLowered : folded }
    /// Where each word starts in ``lowered``.
    var loweredWords: [Int] { hasOwnLowered ? ownLoweredWords : foldedWords }

    // The lowered form is the folded one while the name is ASCII, as most names are: it is
    // kept apart only from the first character beyond ASCII on, which halves the work of
    // folding a directory's names.
    private(set) var hasOwnLowered = false
    private var ownLowered: [UInt8] = []
    private var ownLoweredWords: [Int] = []

    /// Whether the name has no letter or digit.
    var isEmpty: Bool { folded.isEmpty }

    /// Whether the name has a letter that people also spell out in two (`ü` as `ue`, `ø` as
    /// `oe`, `å` as `aa`: ``NameFolding/spelledOut(_:)``), so that its spelt-out form is worth
    /// matching too.
    private(set) var hasSpelledOutLetters = false
    /// Whether the name has letters of a script other than Latin (Greek, Cyrillic, Han, kana,
    /// Hangul, Arabic…), so that its Latin transliteration is worth matching too.
    private(set) var hasOtherScripts = false

    /// The folded word at `index`: its bytes in ``folded``.
    func word(_ index: Int) -> ArraySlice<UInt8> {
        let end = index + 1 < foldedWords.count ? foldedWords[index + 1] : folded.count
        return folded[foldedWords[index]..<end]
    }

    /// Notes what a character beyond ASCII tells about the name.
    mutating func note(spelledOut: Bool, otherScript: Bool) {
        if spelledOut { hasSpelledOutLetters = true }
        if otherScript { hasOtherScripts = true }
    }

    /// Appends a letter or digit whose forms are both `byte`, starting a word if `startsWord`.
    mutating func append(_ byte: UInt8, startsWord: Bool) {
        if startsWord { foldedWords.append(folded.count) }
        folded.append(byte)
        if hasOwnLowered {
            if startsWord { ownLoweredWords.append(ownLowered.count) }
            ownLowered.append(byte)
        }
    }

    /// Appends a character's forms, starting a word if `startsWord`.
    mutating func append(folded foldedBytes: ArraySlice<UInt8>, lowered loweredBytes: ArraySlice<UInt8>, startsWord: Bool) {
        if !hasOwnLowered {
            ownLowered = folded
            ownLoweredWords = foldedWords
            hasOwnLowered = true
        }
        if startsWord {
            foldedWords.append(folded.count)
            ownLoweredWords.append(ownLowered.count)
        }
        folded += foldedBytes
        ownLowered += loweredBytes
    }

    /// Empties the forms, keeping their storage for the next name.
    mutating func removeAll() {
        // Only what holds something: emptying an empty array still costs a call, four of them
        // a fifth of folding a short ASCII name.
        if !folded.isEmpty { folded.removeAll(keepingCapacity: true) }
        if !foldedWords.isEmpty { foldedWords.removeAll(keepingCapacity: true) }
        if hasOwnLowered {
            ownLowered.removeAll(keepingCapacity: true)
            ownLoweredWords.removeAll(keepingCapacity: true)
            hasOwnLowered = false
        }
        hasSpelledOutLetters = false
        hasOtherScripts = false
    }
}

/// Folds names (see ``FoldedName``). ASCII is folded byte by byte; every other character
/// is asked of Unicode once per process and remembered, so that folding a directory's names
/// costs a dictionary look-up per character beyond ASCII. One instance serves one search's
/// names on one thread; what it learns it shares with the process's other instances.
final class NameFolding {
    /// Letters that do not decompose to a letter and a mark, and how they are typed.
    static let letters: [Unicode.Scalar: String] = [
        "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ẞ": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
        "ħ": "h", "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n", "ſ": "s", "ƒ": "f", "ǥ": "g", "ɨ": "i", "ʉ": "u",
        // Greek's final sigma is a sigma: ΠΑΠΑΔΟΠΟΥΛΟΣ, lowered letter by letter, ends in σ.
        "ς": "σ",
    ]

    /// Letters people also write as two (German, Scandinavian and Dutch habit, and what a
    /// keyboard without them leaves): `Müller` is typed `mueller`, `Sørensen` `soerensen`,
    /// `Ødegaard` `oedegaard`, `Åse` `aase`. Lower case; the upper case letters lower to these.
    static let spelledOutLetters: [Unicode.Scalar: String] = [
        "ä": "ae", "ö": "oe", "ü": "ue", "ø": "oe", "å": "aa",
    ]

    /// `text` with the letters of ``spelledOutLetters`` spelt out (`Müller` is `Mueller`),
    /// or `nil` when it has none.
    static func spelledOut(_ text: String) -> String? {
        // The letters spelt out are none of them ASCII; most names are, and composing them
        // (Foundation's normalisation) was 8% of a lookup's time, parsing the nicknames.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        var result = String.UnicodeScalarView()
        var changed = false
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            if lower.count == 1, let first = lower.first, let spelled = spelledOutLetters[first] {
                result.append(contentsOf: spelled.unicodeScalars)
                changed = true
            } else {
                result.append(scalar)
            }
        }
        return changed ? String(result) : nil
    }

    /// Whether `scalar` is a letter of a script other than Latin: what makes a name worth
    /// transliterating. Latin's blocks are Basic Latin to Latin Extended-B, IPA and the
    /// spacing modifiers, Latin Extended Additional (Vietnamese), Extended-C to -E and the
    /// fullwidth forms; combining marks belong to every script.
    static func isOtherScriptLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x0370, 0x1AB0..<0x1B00, 0x1D00..<0x1F00, 0x2C60..<0x2C80, 0xA720..<0xA800, 0xAB30..<0xAB70,
             0xFB00..<0xFB07, 0xFF00..<0xFF60:
            return false
        default:
            return scalar.properties.isAlphabetic
        }
    }

    /// What one character beyond ASCII becomes: its folded and lowered UTF-8, and whether
    /// it belongs to a word (a letter, digit or mark) or ends one. Both forms share one array,
    /// so that handing them out retains one buffer.
    private struct Forms: Sendable {
        /// The folded UTF-8, then the lowered UTF-8.
        var bytes: [UInt8]
        var foldedCount: Int
        var isWordCharacter: Bool
        /// Whether it is one of ``NameFolding/spelledOutLetters`` (in either case).
        var isSpelledOut = false
        /// Whether it is a letter of a script other than Latin.
        var isOtherScript = false

        var folded: ArraySlice<UInt8> { bytes[..<foldedCount] }
        var lowered: ArraySlice<UInt8> { bytes[foldedCount...] }
    }

    /// The forms this instance has used, looked up without a lock.
    private var known: [Unicode.Scalar: Forms] = [:]

    /// The forms every instance has worked out: Foundation's decomposition costs some ten
    /// microseconds a character, so each character is decomposed once per process, not once
    /// per name (ranking a thousand names of a few dozen distinct accented letters asks
    /// Foundation a few dozen times).
    private static let learned = Mutex<[Unicode.Scalar: Forms]>([:])

    /// The spelt-out forms this instance has folded, by the text they are of (a `nil` form:
    /// the text has no letter to spell out).
    private var spelledOutForms: [String: FoldedName?] = [:]

    /// The folded form of `text` with its letters spelt out (``spelledOut(_:)``), or `nil` when
    /// it has none. Remembered, as a directory's names come again and again (Müller, Sørensen):
    /// Foundation's composition of each took a twentieth of making the local index.
    func spelledOutForm(of text: String) -> FoldedName? {
        if let known = spelledOutForms[text] { return known }
        let form = Self.spelledOut(text).map { fold($0) }
        if spelledOutForms.count >= 10_000 { spelledOutForms.removeAll(keepingCapacity: true) }
        spelledOutForms[text] = .some(form)
        return form
    }

    /// Storage for the folded forms of the values being matched, handed from one person to
    /// the next so that matching a directory's names does not allocate for every value.
    var scratch = FoldedName()
    /// More of it, for a second name folded while the first is still needed.
    var secondScratch = FoldedName()
    /// What the person scored last sorts by (``NameMatcher/score(_:using:)``): their first
    /// last name and first given name, kept as the scoring folded them, so that a
    /// ``Candidate`` of that person is ordered without folding them again.
    var sortNames = SortNames()

    /// A person's first last name and first given name, folded and lowered.
    struct SortNames {
        var surname: (folded: [UInt8], lowered: [UInt8]) = ([], [])
        var givenName: (folded: [UInt8], lowered: [UInt8]) = ([], [])

        /// Empties them, keeping their storage.
        mutating func removeAll() {
            Self.empty(&surname.folded)
            Self.empty(&surname.lowered)
            Self.empty(&givenName.folded)
            Self.empty(&givenName.lowered)
        }

        private static func empty(_ bytes: inout [UInt8]) {
            if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        }

        /// Keeps `name` as the surname or given name.
        static func keep(_ name: FoldedName, in kept: inout (folded: [UInt8], lowered: [UInt8])) {
            kept.folded += name.folded
            kept.lowered += name.lowered
        }
    }

    /// The folded and lowered forms of `text`.
    func fold(_ text: String) -> FoldedName {
        var name = FoldedName()
        fold(Array(text.utf8)[...], into: &name)
        return name
    }

    /// Puts the folded and lowered forms of UTF-8 text (invalid bytes end words) into `name`,
    /// which is emptied first: ranking many people folds every name into the same storage.
    func fold(_ bytes: ArraySlice<UInt8>, into name: inout FoldedName) {
        bytes.withUnsafeBufferPointer { fold($0, into: &name) }
    }

    /// ``fold(_:into:)-(ArraySlice<UInt8>,_)`` of a value's bytes, read where they are.
    func fold(_ value: LDAPValue, into name: inout FoldedName) {
        value.withUnsafeBufferPointer { fold($0, into: &name) }
    }

    /// ``fold(_:into:)-(ArraySlice<UInt8>,_)`` of bytes where they are: every name of every
    /// person a search returns comes through here, read without a slice's bounds and
    /// reference counting (folding was a sixth of `find`'s instructions; callgrind,
    /// BENCHMARKS.md workload 1).
    func fold(_ bytes: UnsafeBufferPointer<UInt8>, into name: inout FoldedName) {
        name.removeAll()
        var inWord = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
                guard (lower &- 0x61 < 26) || (byte &- 0x30 < 10) else {
                    inWord = false
                    continue
                }
                name.append(lower, startsWord: !inWord)
                inWord = true
                continue
            }
            guard let (scalar, length) = Self.decode(UnsafeBufferPointer(rebasing: bytes[index...])) else {
                index += 1
                inWord = false
                continue
            }
            index += length
            let forms = self.forms(of: scalar)
            if forms.isSpelledOut || forms.isOtherScript {
                name.note(spelledOut: forms.isSpelledOut, otherScript: forms.isOtherScript)
            }
            guard forms.isWordCharacter else {
                inWord = false
                continue
            }
            // A mark alone (decomposed text) adds nothing to the fold, but is part of its word.
            let startsWord = !inWord && !forms.bytes.isEmpty
            name.append(folded: forms.folded, lowered: forms.lowered, startsWord: startsWord)
            if startsWord { inWord = true }
        }
    }

    /// The forms of one scalar beyond ASCII, worked out once per process.
    private func forms(of scalar: Unicode.Scalar) -> Forms {
        if let forms = known[scalar] { return forms }
        let forms = Self.learned.withLock { learned in
            if let forms = learned[scalar] { return forms }
            let forms = Self.workOutForms(of: scalar)
            learned[scalar] = forms
            return forms
        }
        known[scalar] = forms
        return forms
    }

    /// The forms of one scalar beyond ASCII, as Unicode gives them.
    private static func workOutForms(of scalar: Unicode.Scalar) -> Forms {
        let isWord: Bool
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            isWord = true
        default:
            isWord = false
        }
        let lowered = String(scalar).lowercased()
        var folded = ""
        for part in lowered.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch part.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                folded += Self.letters[part].map { $0 } ?? String(part)
            }
        }
        let precomposed = lowered.precomposedStringWithCanonicalMapping.unicodeScalars
        return Forms(bytes: Array(folded.utf8) + Array(lowered.utf8), foldedCount: folded.utf8.count, isWordCharacter: isWord,
                     // A diaeresis or ring of decomposed text (u and U+0308) may make such a letter too.
                     isSpelledOut: scalar.value == 0x0308 || scalar.value == 0x030A
                        || (precomposed.count == 1 && precomposed.first.map { spelledOutLetters[$0] != nil } == true),
                     isOtherScript: isOtherScriptLetter(scalar))
    }

    /// The scalar whose UTF-8 starts `bytes`, and its length; `nil` for invalid UTF-8.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int)? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return (scalar, UTF8.width(scalar))
    }
}
