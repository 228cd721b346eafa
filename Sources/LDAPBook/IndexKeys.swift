import LDAPKit

/// What the local index files a person under, worked out from what it keeps of them
/// (``PersonRecord``), the same way every time, so that the keys of a person who changes
/// can be taken out again.
///
/// - **Name keys**: for every value of a name attribute, in each of its forms (as folded,
///   with letters spelt out, in Latin letters: ``NameMatcher/otherForms(of:folded:folding:)``),
///   from the start of each of its words, the folded letters to the value's end, at most
///   ``maximumKeyLength`` bytes: `vanderberg`, `derberg`, `berg` for van der Berg, so that a
///   query word is looked up as a prefix of a key (`vande`, `dejong`, `berg`). A full or
///   display name that is the first and last name joined by a space adds none of its own.
///   An address's keys are its local part's, from each word that is no number (`adalovelace`,
///   `lovelace` for ada.lovelace.1@example.org); a word typed with an `@` is looked up by what
///   comes before it.
/// - **Phone keys**: each number's digits reversed (``PhoneDigits``), so that its last
///   digits are a prefix.
/// - **Words**: every word of a name, in each form, of four letters or more: the words a
///   typed word with typos is compared with (``Typos``).
///
/// Keys are bytes, led by their ``Postings/Kind``.
struct IndexKeys: Sendable {
    /// The name and phone keys, each once.
    var keys: [[UInt8]] = []
    /// The words of four letters or more, each once.
    var words: [[UInt8]] = []

    /// The longest key, in bytes, besides its kind: a longer query word is looked up by its
    /// first bytes.
    static let maximumKeyLength = 32

    /// The attributes whose values are names, as the matcher searches them.
    static let nameAttributes: [MatchedAttribute] = [.givenName, .surname, .commonName, .displayName, .nickname]

    /// The keys of `entry` (as a ``PersonRecord`` gives it back).
    init(of entry: LDAPEntry, folding: NameFolding) {
        var name = FoldedName()
        // A full or display name that is the first name and the last joined by a space, as
        // most are, adds no word of its own: its keys are theirs (only a query typed across
        // the two, `adalove`, is not looked up by it).
        let joined: LDAPValue? = entry["givenName"].first.flatMap { given in
            entry["sn"].first.map { LDAPValue(bytes: given.byteSlice + [UInt8(ascii: " ")] + $0.byteSlice) }
        }
        for attribute in entry.attributes {
            if Self.nameAttributes.contains(where: { attribute.isNamed($0.attribute) }) {
                let joinsNames = attribute.isNamed("cn") || attribute.isNamed("displayName")
                for value in attribute.values where !value.isEmpty && !(joinsNames && value == joined) {
                    folding.fold(value, into: &name)
                    addNameKeys(of: name)
                    for form in NameMatcher.otherForms(of: value, folded: name, folding: folding) {
                        addNameKeys(of: form.name)
                    }
                }
            } else if attribute.isNamed("mail") {
                // An address by its local part, from each word of it but numbers.
                for value in attribute.values where !value.isEmpty {
                    folding.fold(Self.localPart(of: value), into: &name)
                    for index in name.foldedWords.indices where !name.word(index).allSatisfy({ $0 &- 0x30 < 10 }) {
                        insert(Self.key(.name, name.folded[name.foldedWords[index]...]), into: &keys)
                    }
                }
            } else if MatchedAttribute.phoneAttributes.contains(where: { attribute.isNamed($0) }) {
                for value in attribute.values {
                    guard let number = value.string.flatMap(PhoneDigits.init), number.digits.count >= PhoneDigits.minimumDigits
                    else { continue }
                    for key in number.indexKeys { insert(Postings.key(.phone, key.utf8), into: &keys) }
                }
            }
        }
    }

    /// Adds the keys of `name` from the start of each of its words, and its words.
    private mutating func addNameKeys(of name: FoldedName) {
        for index in name.foldedWords.indices {
            insert(Self.key(.name, name.folded[name.foldedWords[index]...]), into: &keys)
            let word = name.word(index)
            // Four letters or more (a letter beyond ASCII is several bytes: count the first bytes).
            if word.count >= 4 && word.lazy.filter({ $0 & 0xC0 != 0x80 }).count >= 4 { insert(Array(word), into: &words) }
        }
    }

    /// Adds `item` unless it is there: a person has a dozen keys, fewer comparisons than hashing.
    private func insert(_ item: [UInt8], into list: inout [[UInt8]]) {
        if !list.contains(item) { list.append(item) }
    }

    /// The local part of an address: what comes before its last `@` (all of it without one).
    static func localPart(of address: LDAPValue) -> LDAPValue {
        guard let at = address.byteSlice.lastIndex(of: UInt8(ascii: "@")) else { return address }
        return LDAPValue(bytes: address.byteSlice[..<at])
    }

    /// `folded` as a key of `kind`: at most ``maximumKeyLength`` bytes, cut where a character
    /// starts.
    static func key(_ kind: Postings.Kind, _ folded: ArraySlice<UInt8>) -> [UInt8] {
        var end = min(folded.startIndex + maximumKeyLength, folded.endIndex)
        // A UTF-8 continuation byte (10xxxxxx) is no place to cut.
        while end < folded.endIndex && end > folded.startIndex && folded[end] & 0xC0 == 0x80 { end -= 1 }
        return Postings.key(kind, folded[..<end])
    }
}
