import CommandLineKit
import Testing

/// SplitMix64: a small seeded generator, so every run checks the same command lines.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Any command line made only of known flags parses")
struct PropertyTests {
    /// A flag as it may be written: its short name (for bundling) and its names.
    struct Flag {
        let short: Character?
        let names: [String]
        let isGlobal: Bool
    }

    static let flags = [
        Flag(short: "W", names: ["-W"], isGlobal: true),
        Flag(short: "Z", names: ["-Z"], isGlobal: true),
        Flag(short: "x", names: ["-x"], isGlobal: true),
        Flag(short: "v", names: ["-v", "--verbose"], isGlobal: false),
        Flag(short: nil, names: ["--json"], isGlobal: false),
    ]

    @Test("flags in any order, spelling, bundling and repetition, before or after the command", arguments: 0..<8)
    func anyFlags(_ seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<250 {
            let chosen = (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.flags.randomElement(using: &random)! }
            let globals = chosen.filter(\.isGlobal)
            // Global flags may go before the command; everything else follows it.
            let split = Int.random(in: 0...globals.count, using: &random)
            let before = Array(globals.prefix(split))
            let after = (Array(globals.dropFirst(split)) + chosen.filter { !$0.isGlobal }).shuffled(using: &random)
            let arguments = Self.write(before, using: &random) + ["status"] + Self.write(after, using: &random)

            let parsed = try Fixture.parse(arguments)
            #expect(parsed.command == Fixture.status, "\(arguments)")
            #expect(parsed.helpRequested == nil, "\(arguments)")
            #expect(parsed.positional("SERVER") == nil, "\(arguments)")
            for flag in Self.flags {
                let given = chosen.contains { $0.names == flag.names }
                #expect(parsed.flag(flag.names[0]) == given, "\(flag.names[0]) in \(arguments)")
            }
        }
    }

    /// Writes flags as arguments: each by one of its names, short ones sometimes bundled.
    static func write(_ flags: [Flag], using random: inout SeededGenerator) -> [String] {
        var arguments: [String] = []
        var bundle = ""
        for flag in flags {
            if let short = flag.short, Bool.random(using: &random) {
                bundle.append(short)
                if Bool.random(using: &random) {
                    arguments.append("-" + bundle)
                    bundle = ""
                }
            } else {
                arguments.append(flag.names.randomElement(using: &random)!)
            }
        }
        if !bundle.isEmpty { arguments.append("-" + bundle) }
        return arguments
    }
}
