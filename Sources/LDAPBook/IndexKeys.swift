import LDAPKit

/// What the local index files a person under, worked out from what it keeps of them
/// (``PersonRecord``), the same way every time, so that the keys of a person who changes
/// can be taken out again.
///
/// - **Name keys**: for every value of a name attribute, in each of its forms (as folded,
///   with letters spelt out, in Latin letters: ``NameMatcher/otherForms(of:folded:folding:transliterating:)``),
///   from the start of each of its words, the folded letters to the value's end, at most
///   ``maximumKeyLength`` bytes: `vanderberg`, `derberg`, `berg` for van der Berg, so that a
///   query word is looked up as a prefix of a key (`vande`, `dejong`, `berg`). A full or
///   display name that is the first and last name joined by a space adds none of its own.
///   An address's keys are its local part's, from each word that is no number (`adalovelace`,
///   `lovelace` for ada.lovelace.1@example.org), of a kind of their own (most are one
///   person's, and a lookup by name reads them last: ``IndexedCandidates``); a word typed
///   with an `@` is looked up by what comes before it.
/// - **Phone keys**: each number's digits reversed (``PhoneDigits``), so that its last
///   digits are a prefix.
/// - **Words**: every word of a name, in each form, of four letters or more: the words a
///   typed word with typos is compared with (``Typos``).
///
/// Keys are bytes, led by their ``Postings/Kind``. A name key's folded letters end with a zero
/// byte (folded names hold none), then its ``NameClass`` (which attribute, from the value's
/// first word or a later one, as typed or in another form) and where the later words of its
/// letters start: so that a lookup knows, before it reads anyone, how well each person under
/// a key can match (``PeopleIndex/Store/rankedCandidates(for:)``). A name filed under several
/// classes is under several keys; a prefix of the letters finds them all.
struct IndexKeys: Sendable {
    /// The name and phone keys, each once.
    var keys = ByteStrings()
    /// The words of four letters or more, each once.
    var words = ByteStrings()
    /// What ties between equal scores are broken on first (``Candidate/order``): the first
    /// surname and given name, as the keys folded them. The index keeps it of each person, to
    /// rank them without reading them (``PeopleIndex``).
    var order: [UInt8] = []

    /// The longest key, in bytes, besides its kind: a longer query word is looked up by its
    /// first bytes.
    static let maximumKeyLength = 32

    /// The attributes whose values are names, as the matcher searches them.
    static let nameAttributes: [MatchedAttribute] = [.givenName, .surname, .commonName, .displayName, .nickname]

    /// The keys of a person whose values are `values`, by attribute, as a ``PersonRecord``
    /// holds them (``PersonRecord/values()``): its attributes start with the
    /// ``nameAttributes``, then `mail` and the ``MatchedAttribute/phoneAttributes``. (Fewer
    /// attributes than that are as many empty ones.)
    init(of values: [[LDAPValue]], folding: NameFolding) {
        var name = FoldedName()
        // A full or display name that is the first name and the last joined by a space, as
        // most are, adds no word of its own: its keys are theirs (only a query typed across
        // the two, `adalove`, is not looked up by it).
        let given = values.first?.first, surname = values.dropFirst().first?.first
        folding.sortNames.removeAll()
        for (offset, held) in values.enumerated() where !held.isEmpty {
            switch offset {
            case 0..<Self.nameAttributes.count:
                let matched = Self.nameAttributes[offset]
                let joinsNames = matched == .commonName || matched == .displayName
                for (position, value) in held.enumerated() where !value.isEmpty {
                    if joinsNames, let given, let surname, PersonRecord.joins(value, given, surname) { continue }
                    folding.fold(value, into: &name)
                    // The first given name and surname, as folded, are what ties are broken on.
                    if position == 0 && matched == .givenName { NameFolding.SortNames.keep(name, in: &folding.sortNames.givenName) }
                    if position == 0 && matched == .surname { NameFolding.SortNames.keep(name, in: &folding.sortNames.surname) }
                    addNameKeys(of: name, attribute: matched, otherForm: false)
                    for form in NameMatcher.otherForms(of: value, folded: name, folding: folding) {
                        addNameKeys(of: form.name, attribute: matched, otherForm: true)
                    }
                }
            case Self.mailOffset:
                // An address by its local part, from each word of it but numbers.
                for value in held where !value.isEmpty {
                    folding.fold(Self.localPart(of: value), into: &name)
                    for index in name.foldedWords.indices where !name.word(index).allSatisfy({ $0 &- 0x30 < 10 }) {
                        keys.append { key in
                            Self.writeNameKey(of: name, from: index, NameClass(attribute: .email, wholeName: index == 0, otherForm: false),
                                              kind: .address, into: &key)
                        }
                    }
                }
            case Self.phoneOffsets:
                for value in held {
                    guard let number = PhoneDigits(utf8: value.byteSlice), number.digits.count >= PhoneDigits.minimumDigits
                    else { continue }
                    for digits in number.indexKeyBytes {
                        keys.append { key in
                            key.append(Postings.Kind.phone.rawValue)
                            key += digits
                        }
                    }
                }
            default:
                break
            }
        }
        order = Candidate.order(surname: folding.sortNames.surname, givenName: folding.sortNames.givenName)
    }

    /// Where `mail` and the phone attributes are among ``PersonRecord/attributes``.
    static let mailOffset = nameAttributes.count
    static let phoneOffsets = (mailOffset + 1)...(mailOffset + MatchedAttribute.phoneAttributes.count)

    /// Adds the keys of `name`, a value of `attribute` (in another form than as typed, when
    /// `otherForm`), from the start of each of its words, and its words.
    private mutating func addNameKeys(of name: FoldedName, attribute: MatchedAttribute, otherForm: Bool) {
        for index in name.foldedWords.indices {
            keys.append { key in
                Self.writeNameKey(of: name, from: index, NameClass(attribute: attribute, wholeName: index == 0, otherForm: otherForm),
                                  into: &key)
            }
            let word = name.word(index)
            // Four letters or more (a letter beyond ASCII is several bytes: count the first bytes).
            if word.count >= 4 && word.lazy.filter({ $0 & 0xC0 != 0x80 }).count >= 4 { words.append(unlessPresent: word) }
        }
    }

    /// The local part of an address: what comes before its last `@` (all of it without one).
    static func localPart(of address: LDAPValue) -> LDAPValue {
        guard let at = address.byteSlice.lastIndex(of: UInt8(ascii: "@")) else { return address }
        return LDAPValue(bytes: address.byteSlice[..<at])
    }

    /// `folded` as a key of `kind`: at most ``maximumKeyLength`` bytes, cut where a character
    /// starts. For a name, what a lookup asks for: a prefix of the name keys of those letters.
    static func key(_ kind: Postings.Kind, _ folded: ArraySlice<UInt8>) -> [UInt8] {
        Postings.key(kind, folded[..<cut(folded)])
    }

    /// Where `folded` is cut to be a key: at most ``maximumKeyLength`` bytes, where a character
    /// starts.
    private static func cut(_ folded: ArraySlice<UInt8>) -> Int {
        var end = min(folded.startIndex + maximumKeyLength, folded.endIndex)
        // A UTF-8 continuation byte (10xxxxxx) is no place to cut.
        while end < folded.endIndex && end > folded.startIndex && folded[end] & 0xC0 == 0x80 { end -= 1 }
        return end
    }

    /// The name key of `name` from the start of its word `index`, of `nameClass`: the letters
    /// (cut as ``key(_:_:)`` cuts them), a zero byte, the class, how many of the letters the
    /// value has as they are, without accents or other letters folded (so that a word typed
    /// without accents matches it with its accents as typed that far: ``WordMatch/hasTypedAccents``),
    /// and where each later word within the letters starts.
    static func nameKey(of name: FoldedName, from index: Int, _ nameClass: NameClass, kind: Postings.Kind = .name) -> [UInt8] {
        var key: [UInt8] = []
        writeNameKey(of: name, from: index, nameClass, kind: kind, into: &key)
        return key
    }

    /// Appends ``nameKey(of:from:_:kind:)`` to `key`.
    static func writeNameKey(of name: FoldedName, from index: Int, _ nameClass: NameClass, kind: Postings.Kind = .name,
                             into key: inout [UInt8]) {
        let start = name.foldedWords[index]
        let end = cut(name.folded[start...])
        key.append(kind.rawValue)
        key += name.folded[start..<end]
        key.append(0)
        key.append(nameClass.withCut(end < name.folded.count).rawValue)
        var unfolded = 0
        if name.hasOwnLowered {
            let lowered = name.lowered[name.loweredWords[index]...]
            for (folded, lower) in zip(name.folded[start..<end], lowered) {
                guard folded == lower else { break }
                unfolded += 1
            }
        } else {
            unfolded = end - start
        }
        key.append(UInt8(unfolded))
        for word in name.foldedWords[(index + 1)...] where word < end { key.append(UInt8(word - start)) }
    }
}

/// What a name key says of how its people match, besides its letters: the attribute, whether
/// the letters are from the value's first word (a whole name) or a later one, whether they
/// are the value in another form (spelt out, transliterated), and whether they were cut to
/// ``IndexKeys/maximumKeyLength``.
struct NameClass: RawRepresentable, Hashable, Sendable {
    let rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(attribute: MatchedAttribute, wholeName: Bool, otherForm: Bool) {
        rawValue = UInt8(attribute.precedence) << 3 | (wholeName ? 2 : 0) | (otherForm ? 1 : 0)
    }

    /// The class, marked as of letters cut short (or not).
    func withCut(_ cut: Bool) -> NameClass { NameClass(rawValue: cut ? rawValue | 4 : rawValue & ~4) }

    /// The attribute; `nil` for a byte no class has.
    var attribute: MatchedAttribute? { MatchedAttribute.allCases.first { $0.precedence == Int(rawValue >> 3) } }
    var isWholeName: Bool { rawValue & 2 != 0 }
    var isOtherForm: Bool { rawValue & 1 != 0 }
    var isCut: Bool { rawValue & 4 != 0 }
}

/// A name key read back: its letters, its class, and where its later words start.
struct ParsedNameKey {
    /// The folded letters (without the key's kind).
    let letters: ArraySlice<UInt8>
    let nameClass: NameClass
    /// How many of the letters, from the first, the value has unfolded (``IndexKeys/nameKey(of:from:_:)``).
    let unfolded: Int
    /// Where each word after the first starts in ``letters``, as offsets from its start.
    let laterWords: ArraySlice<UInt8>

    /// The parts of `key`, a name or address key of ``IndexKeys/nameKey(of:from:_:kind:)``;
    /// `nil` for any other bytes.
    init?(_ key: [UInt8]) {
        guard key.count >= 4, key[0] == Postings.Kind.name.rawValue || key[0] == Postings.Kind.address.rawValue,
              let zero = key[1...].firstIndex(of: 0), zero + 2 < key.count else { return nil }
        letters = key[1..<zero]
        nameClass = NameClass(rawValue: key[zero + 1])
        unfolded = Int(key[zero + 2])
        laterWords = key[(zero + 3)...]
    }

    /// Whether a query word of `length` bytes, which the letters start with, may end where a
    /// word of the value ends (``WordMatch/isExact``): at the letters' end, or where a later
    /// word starts; or it cannot be told, the letters or the word cut short.
    func mayEndAWord(length: Int) -> Bool {
        if nameClass.isCut && length >= letters.count || length >= IndexKeys.maximumKeyLength { return true }
        return length == letters.count || laterWords.contains(UInt8(truncatingIfNeeded: length))
    }

    /// Whether a query word of `length` bytes typed without accents, which the letters start
    /// with, matches the value with its accents as typed: no letter that far was folded. (A
    /// query word is cut at the key's length; beyond it, this cannot be told.)
    func keepsAccents(length: Int) -> Bool {
        unfolded >= length || length > letters.count
    }

    /// The length of the letters' first word, if it ends within them.
    var firstWordLength: Int? {
        if let first = laterWords.first { return Int(first) }
        return nameClass.isCut ? nil : letters.count
    }
}
