/// Generated people for demos and benchmarks: deterministic for a seed,
/// with names in several languages, surnames shared within families, first
/// names sharing prefixes, and fields present at realistic rates.
public struct SamplePerson: Sendable, Hashable {
    /// First name.
    public var givenName: String
    /// Last name.
    public var surname: String
    /// Email addresses (none for about one in five; several for some).
    public var emails: [String]
    /// Work phone numbers (about half have one).
    public var phones: [String]
    /// Mobile numbers.
    public var mobiles: [String]
    /// Organisation.
    public var organization: String?
    /// Job title.
    public var title: String?
    /// Custom fields as (name, value).
    public var customFields: [(String, String)]
    /// Which of the sample photos the person has (0-based), if any.
    public var photoIndex: Int?
    /// The name to show, when it is not the first and last name.
    public var displayName: String? = nil

    /// Compares every field.
    public static func == (lhs: SamplePerson, rhs: SamplePerson) -> Bool {
        lhs.givenName == rhs.givenName && lhs.surname == rhs.surname && lhs.emails == rhs.emails
            && lhs.phones == rhs.phones && lhs.mobiles == rhs.mobiles && lhs.organization == rhs.organization
            && lhs.title == rhs.title && lhs.photoIndex == rhs.photoIndex && lhs.displayName == rhs.displayName
            && lhs.customFields.map { "\($0.0)=\($0.1)" } == rhs.customFields.map { "\($0.0)=\($0.1)" }
    }

    /// Hashes the names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(givenName)
        hasher.combine(surname)
    }
}

/// The generator of ``SamplePerson``s.
public enum SamplePeople {
    private static let names: [(given: [String], surnames: [String], domain: String)] = [
        (["Adam", "Alice", "John", "Joan", "Jonathan", "Josephine", "Mary", "Margaret", "Peter"],
         ["Smith", "Johnson", "Brown", "Taylor", "O'Brien", "Walker", "Wilson", "Evans"], "example.com"),
        (["Zoë", "Émile", "Amélie", "François", "Hélène", "Jérôme", "Joséphine"],
         ["Dubois", "Lefèvre", "Moreau", "Girard", "Bonnet"], "exemple.fr"),
        (["Jürgen", "Jörg", "Jonas", "Lena", "Lukas", "Sören", "Ute"],
         ["Müller", "Schröder", "Weiß", "Zimmermann", "Krüger"], "beispiel.de"),
        (["Søren", "Åsa", "Ørjan", "Ingrid", "Jens"], ["Ørsted", "Ångström", "Kierkegaard", "Nielsen"], "eksempel.dk"),
        (["Дмитрий", "Ольга", "Иван", "Анна"], ["Иванов", "Петрова", "Смирнов"], "example.ru"),
        (["太郎", "花子", "健"], ["山田", "佐藤", "鈴木"], "example.jp"),
        (["José", "Joaquín", "María", "Lucía"], ["García", "Fernández", "López"], "ejemplo.es"),
    ]
    private static let organizations = ["Analytical Engines Ltd", "Difference & Co", "Babbage Works", "Jacquard Looms"]
    private static let titles = ["Engineer", "Mathematician", "Programmer", "Analyst", "Director"]

    /// A few well-known people who come first, so that a tour can name them:
    /// Ada with one address, Grace with two, Alan with none; and names typed otherwise
    /// than they are written (Zoë Ångström, Jean-Luc Picard, Pieter van der Berg, Mary Ann
    /// Evans, who writes as George Eliot). Their names are not among the generated ones.
    public static let wellKnown: [SamplePerson] = [
        SamplePerson(givenName: "Ada", surname: "Lovelace", emails: ["ada@analytical.example"], phones: ["+44 20 7946 1815"],
                     mobiles: [], organization: "Analytical Engines Ltd", title: "Mathematician",
                     customFields: [("shoe-size", "38")], photoIndex: 0, displayName: "Ada, Countess of Lovelace"),
        SamplePerson(givenName: "Grace", surname: "Hopper", emails: ["grace@navy.example", "amazing.grace@cobol.example"],
                     phones: [], mobiles: ["+1 555 0100"], organization: "Difference & Co", title: "Rear Admiral",
                     customFields: [], photoIndex: 1),
        SamplePerson(givenName: "Alan", surname: "Turing", emails: [], phones: ["+44 161 496 0000"], mobiles: [],
                     organization: nil, title: nil, customFields: [], photoIndex: nil),
        SamplePerson(givenName: "Zoë", surname: "Ångström", emails: ["zoe@eksempel.dk"], phones: [], mobiles: [],
                     organization: nil, title: nil, customFields: [], photoIndex: nil),
        SamplePerson(givenName: "Jean-Luc", surname: "Picard", emails: ["jean-luc.picard@enterprise.example"], phones: [],
                     mobiles: [], organization: nil, title: "Captain", customFields: [], photoIndex: nil),
        SamplePerson(givenName: "Pieter", surname: "van der Berg", emails: ["pieter@berg.example"], phones: [], mobiles: [],
                     organization: "Babbage Works", title: "Engineer", customFields: [], photoIndex: nil),
        SamplePerson(givenName: "Mary Ann", surname: "Evans", emails: [], phones: ["+44 24 7601 1819"], mobiles: [],
                     organization: nil, title: "Novelist", customFields: [], photoIndex: nil, displayName: "George Eliot"),
    ]

    /// `count` people for `seed`; the same arguments give the same people.
    /// The first are ``wellKnown``.
    public static func generate(count: Int, seed: UInt64 = 1815, photoCount: Int = 6) -> [SamplePerson] {
        Array(Generator(count: count, seed: seed, photoCount: photoCount))
    }

    /// The people of ``generate(count:seed:photoCount:)``, one at a time, so that millions
    /// can be written out in constant memory.
    public struct Generator: Sequence, IteratorProtocol, Sendable {
        private let count: Int
        private let photoCount: Int
        private var random: SeededRandomNumberGenerator
        private var index = 0
        private var used: [String: Int] = [:]

        /// The generator of `count` people for `seed`, with photo indexes below `photoCount`.
        public init(count: Int, seed: UInt64 = 1815, photoCount: Int = 6) {
            self.count = count
            self.photoCount = photoCount
            random = SeededRandomNumberGenerator(seed: seed)
            for person in wellKnown.prefix(count) { used["\(person.givenName) \(person.surname)"] = 1 }
        }

        /// The next person, or `nil` after `count`.
        public mutating func next() -> SamplePerson? {
            guard index < count else { return nil }
            defer { index += 1 }
            if index < wellKnown.count {
                var person = wellKnown[index]
                if person.photoIndex.map({ $0 >= photoCount }) ?? false { person.photoIndex = nil }
                return person
            }
            let culture = names[Int(random.next() % UInt64(names.count))]
            let given = culture.given[Int(random.next() % UInt64(culture.given.count))]
            let surname = culture.surnames[Int(random.next() % UInt64(culture.surnames.count))]
            let key = "\(given) \(surname)"
            let seen = used[key, default: 0]
            used[key] = seen + 1
            let local = asciiLocalPart(given, surname, index: index, seen: seen)
            var person = SamplePerson(givenName: given, surname: surname, emails: [], phones: [], mobiles: [],
                                      organization: nil, title: nil, customFields: [], photoIndex: nil)
            let roll = random.next() % 100
            if roll < 80 { person.emails.append("\(local)@\(culture.domain)") }
            if roll < 15 { person.emails.append("\(local).work@\(organizationDomain(index))") }
            if random.next() % 100 < 50 { person.phones.append(phone(&random)) }
            if random.next() % 100 < 30 { person.mobiles.append(phone(&random)) }
            if random.next() % 100 < 60 {
                person.organization = organizations[Int(random.next() % UInt64(organizations.count))]
                person.title = titles[Int(random.next() % UInt64(titles.count))]
            }
            if random.next() % 100 < 10 { person.customFields.append(("shoe-size", String(36 + random.next() % 12))) }
            if random.next() % 100 < 5 { person.customFields.append(("desk", "B-\(random.next() % 400)")) }
            if photoCount > 0 && random.next() % 100 < 20 { person.photoIndex = Int(random.next() % UInt64(photoCount)) }
            return person
        }
    }

    private static func organizationDomain(_ index: Int) -> String {
        ["engines.example", "difference.example", "babbage.example"][index % 3]
    }

    private static func phone(_ random: inout SeededRandomNumberGenerator) -> String {
        "+44 20 7946 \(fourDigits(Int(random.next() % 10_000)))"
    }

    /// An ASCII mailbox name for a person, unique by index when the name repeats.
    private static func asciiLocalPart(_ given: String, _ surname: String, index: Int, seen: Int) -> String {
        let base = GeneratedUID.base(given: given, surname: surname)
        let local = base == "person" ? "person\(index)" : base
        return seen == 0 ? local : "\(local)\(seen + 1)"
    }
}

/// A small deterministic random number generator (SplitMix64): the same seed gives the
/// same numbers on every platform, so that generated people can be reproduced.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose numbers are determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `number` written with at least four digits.
private func fourDigits(_ number: Int) -> String {
    let digits = number.description
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
