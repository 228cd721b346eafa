import Foundation
import LDAPBook
import LDAPKit

/// The benchmark's people: ``SamplePeople``'s fields and rates (about 80% with mail, some
/// with several, half with phones, a share with custom fields and photos), with names
/// drawn from a much larger pool, so that name prefixes select the few dozen or hundred
/// people they would in a real organisation. Deterministic for a seed.
struct BenchPeople: Sequence, IteratorProtocol {
    /// Syllables names are built from, some with letters beyond ASCII.
    private static let syllables = [
        "an", "ber", "car", "da", "el", "fa", "gar", "han", "is", "jo", "ka", "lo", "mar", "ni", "or", "pe",
        "quin", "ro", "sa", "ta", "ul", "ve", "wil", "xa", "yo", "ze", "son", "sen", "ström", "mül", "ler",
        "ré", "no", "vić", "ova", "ska", "ri", "ho", "ø", "ång", "lu", "ti", "dé", "mi", "ko", "ra", "ne",
        "fer", "gon", "li", "brö", "sch", "ti", "ber", "gér", "ard", "ma", "ci", "ez", "qui",
    ]

    let count: Int
    let suffix: String
    let photos: [[UInt8]]
    private let peopleBase: DistinguishedName
    private var samples: SamplePeople.Generator
    private var random: SeededRandomNumberGenerator
    private var index = 0

    /// `count` people under `ou=people,<suffix>`, using `photos` as their photos.
    init(count: Int, suffix: String, photos: [[UInt8]], seed: UInt64 = 20261130) {
        self.count = count
        self.suffix = suffix
        self.photos = photos
        peopleBase = Self.container(suffix: suffix).dn
        samples = SamplePeople.Generator(count: count, seed: seed, photoCount: photos.count)
        random = SeededRandomNumberGenerator(seed: seed ^ 0x5EED)
    }

    /// The next person's entry.
    mutating func next() -> LDAPEntry? {
        guard let sample = samples.next() else { return nil }
        defer { index += 1 }
        var given = sample.givenName
        var surname = sample.surname
        if index >= SamplePeople.wellKnown.count {
            if random.next() % 100 < 70 { surname = syntheticName(syllables: 2 + Int(random.next() % 2)) }
            if random.next() % 100 < 50 { given = syntheticName(syllables: 2) }
        }
        let local = Self.asciiFold(given) + "." + Self.asciiFold(surname) + ".\(index)"
        var attributes: [LDAPAttribute] = []
        var classes = ["inetOrgPerson"]
        if !sample.customFields.isEmpty { classes.append("ldapbookPerson") }
        attributes.append(LDAPAttribute(name: "objectClass", values: classes.map { LDAPValue($0) }))
        attributes.append(LDAPAttribute(name: "uid", values: [LDAPValue(local)]))
        attributes.append(LDAPAttribute(name: "cn", values: [LDAPValue("\(given) \(surname)")]))
        attributes.append(LDAPAttribute(name: "sn", values: [LDAPValue(surname)]))
        attributes.append(LDAPAttribute(name: "givenName", values: [LDAPValue(given)]))
        let domains = sample.emails.map { $0.split(separator: "@").last.map(String.init) ?? "example.com" }
        if !domains.isEmpty {
            let mails = domains.enumerated().map { position, domain in
                LDAPValue(position == 0 ? "\(local)@\(domain)" : "\(local).\(position)@\(domain)")
            }
            attributes.append(LDAPAttribute(name: "mail", values: mails))
        }
        if !sample.phones.isEmpty { attributes.append(LDAPAttribute(name: "telephoneNumber", values: sample.phones.map { LDAPValue($0) })) }
        if !sample.mobiles.isEmpty { attributes.append(LDAPAttribute(name: "mobile", values: sample.mobiles.map { LDAPValue($0) })) }
        if let organization = sample.organization { attributes.append(LDAPAttribute(name: "o", values: [LDAPValue(organization)])) }
        if let title = sample.title { attributes.append(LDAPAttribute(name: "title", values: [LDAPValue(title)])) }
        if !sample.customFields.isEmpty {
            attributes.append(LDAPAttribute(name: "ldapbookCustomField",
                                            values: sample.customFields.map { LDAPValue("\($0.0)=\($0.1)") }))
        }
        if let photo = sample.photoIndex, photo < photos.count {
            attributes.append(LDAPAttribute(name: "jpegPhoto", values: [LDAPValue(bytes: photos[photo])]))
        }
        return LDAPEntry(dn: peopleBase.child("uid", LDAPValue(local)), attributes: attributes)
    }

    /// A capitalised name of `syllables` syllables.
    private mutating func syntheticName(syllables count: Int) -> String {
        var name = ""
        for _ in 0..<count {
            name += Self.syllables[Int(random.next() % UInt64(Self.syllables.count))]
        }
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Lower-case ASCII letters of `text`, with accents dropped; `p` when none is left.
    static func asciiFold(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let letters = folded.unicodeScalars.filter { $0.isASCII && CharacterSet.lowercaseLetters.contains($0) }
        return letters.isEmpty ? "p" : String(String.UnicodeScalarView(letters))
    }

    /// `count` different lower-case name prefixes of 2 to 4 letters, taken from the names of
    /// the first people of a data set with the same seed, in a fixed order.
    static func prefixes(count: Int, from people: BenchPeople) -> [String] {
        var random = SeededRandomNumberGenerator(seed: 0xBEEF)
        var seen = Set<String>()
        var result: [String] = []
        for entry in people {
            for name in [entry.strings("givenName").first, entry.strings("sn").first].compactMap({ $0 }) {
                let letters = Array(name.lowercased())
                let length = 2 + Int(random.next() % 3)
                guard letters.count >= length else { continue }
                let prefix = String(letters[0..<length])
                if seen.insert(prefix).inserted { result.append(prefix) }
                if result.count == count { return result }
            }
        }
        return result
    }

    /// The `ou=people` container the people live in.
    static func container(suffix: String) -> LDAPEntry {
        // The suffix is the benchmark's own constant, so it always parses.
        let base = (try? DistinguishedName(parsing: suffix)) ?? DistinguishedName(rdns: [])
        return LDAPEntry(dn: base.child("ou", "people"), ["objectClass": ["organizationalUnit"], "ou": ["people"]])
    }

    /// Writes the container and `count` people as LDIF to `file`, streaming.
    static func writeLDIF(count: Int, suffix: String, photos: [[UInt8]], to file: URL, includingContainer: Bool = true) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw BenchError("cannot create \(file.path)") }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        // No "version: 1" line: slapadd reads plain entries only.
        var buffer: [UInt8] = []
        if includingContainer { buffer += LDIFWriter.write(container(suffix: suffix)) }
        for entry in BenchPeople(count: count, suffix: suffix, photos: photos) {
            buffer += LDIFWriter.write(entry)
            if buffer.count > 1 << 20 {
                handle.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        handle.write(Data(buffer))
    }
}
