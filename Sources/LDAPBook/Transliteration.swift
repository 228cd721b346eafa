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
/// The first transform of a process costs more: ICU registers its transforms (some 4 ms) and
/// builds the script's (Han-Latin, the pinyin of Chinese characters, some 60 ms; every other a
/// millisecond at most). So a lookup's ranking takes only the transliterations known
/// (`computing: false`): over the index, all of them, read with each person; through the
/// server, none, and the people the server found by their names as stored are ranked by those.
enum Transliteration {
    private static let known = Mutex<[String: String?]>([:])

    /// The most texts remembered.
    private static let capacity = 100_000

    /// `text` in Latin letters, or `nil` when it has no letter of another script (it is Latin
    /// already, or has no letters).
    /// Without `computing`, only one known already (remembered) is given.
    static func latin(of text: String, computing: Bool = true) -> String? {
        guard text.unicodeScalars.contains(where: NameFolding.isOtherScriptLetter) else { return nil }
        if let remembered = known.withLock({ $0[text] }) { return remembered }
        guard computing else { return nil }
        let latin = transform(text)
        remember(text, latin: latin)
        return latin
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
