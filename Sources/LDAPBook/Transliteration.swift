import Foundation
import Synchronization

/// Names in another script, written in Latin letters, as colleagues type them: `王伟` is
/// `wang wei` (pinyin), `Ольга` is `olga`, `Παπαδόπουλος` is `papadopoulos`, `やまだ` is
/// `yamada`. ICU's `Any-Latin` transform does it (through Foundation's `applyingTransform`);
/// the result is folded like any name (``NameFolding``), with ICU's modifier letters (the
/// soft sign's `ʹ`) dropped. A Japanese name in kanji comes out in its Chinese reading: its
/// Japanese reading is found where the directory stores it (a kana or Latin value).
///
/// Each transform costs ICU some ten microseconds, so every text is transliterated once per
/// process and remembered; the local index stores what it worked out (``remember(_:latin:)``),
/// so that a lookup over it asks ICU nothing.
///
/// Chinese characters are the exception in cost: the first text with one makes ICU build its
/// Han-Latin transform, some 60 ms of a process (every other script's takes a millisecond at
/// most). A lookup's ranking asks for them only where they are known (`buildingHan: false`):
/// over the index they always are; through the server, people found by their other names are
/// ranked by those, unless the query itself was typed in Chinese characters.
enum Transliteration {
    private static let known = Mutex<[String: String?]>([:])
    /// Whether ICU's Han-Latin transform is built in this process: then it costs no more than
    /// any other.
    private static let hanBuilt = Atomic<Bool>(false)

    /// The most texts remembered.
    private static let capacity = 100_000

    /// `text` in Latin letters, or `nil` when it has no letter of another script (it is Latin
    /// already, or has no letters).
    /// Without `buildingHan`, text with a Chinese character has none unless it was worked out
    /// already, or the transform is built.
    static func latin(of text: String, buildingHan: Bool = true) -> String? {
        guard text.unicodeScalars.contains(where: NameFolding.isOtherScriptLetter) else { return nil }
        if let remembered = known.withLock({ $0[text] }) { return remembered }
        let han = text.unicodeScalars.contains(where: isHan)
        if han && !buildingHan && !hanBuilt.load(ordering: .relaxed) { return nil }
        let latin = transform(text)
        if han { hanBuilt.store(true, ordering: .relaxed) }
        remember(text, latin: latin)
        return latin
    }

    /// Whether `scalar` is a Chinese character (Han: the unified ideographs, their extensions
    /// and the compatibility ones), which ICU's Any-Latin hands to its Han-Latin transform.
    static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x323AF: true
        default: false
        }
    }

    /// Remembers that `text` is `latin` in Latin letters (or has no such form).
    static func remember(_ text: String, latin: String?) {
        known.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known[text] = latin
        }
    }

    /// ICU's transform, with the spacing modifier letters it writes for soft and hard signs
    /// and apostrophes (U+02B0…U+02FF) left out.
    private static func transform(_ text: String) -> String? {
        guard let latin = text.applyingTransform(.toLatin, reverse: false) else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in latin.unicodeScalars where !(0x02B0...0x02FF).contains(scalar.value) {
            scalars.append(scalar)
        }
        let result = String(scalars)
        return result == text ? nil : result
    }
}
