import Foundation
import FuzzChecks
import Testing

/// Every seed in `Fuzz/corpus/<target>/` and every input kept in
/// `Fuzz/regressions/<target>/` (crashes and property violations the fuzzer
/// found, since fixed) passes the checks of its fuzz target.
@Suite("Fuzz inputs replayed through the fuzz targets' checks")
struct FuzzRegressionTests {
    /// The repository's `Fuzz` folder, from this file's path.
    private static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// The files of `Fuzz/<folder>/<target>/`, sorted by name; none when it does not exist.
    private static func inputs(in folder: String, of target: FuzzTarget) throws -> [URL] {
        let directory = fuzzFolder.appendingPathComponent(folder).appendingPathComponent(target.rawValue)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("The seed corpus passes the checks", arguments: FuzzTarget.allCases)
    func seeds(_ target: FuzzTarget) throws {
        let seeds = try Self.inputs(in: "corpus", of: target)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(target.rawValue) has seeds")
        for seed in seeds {
            try Self.replay(seed, through: target)
        }
    }

    @Test("Every kept regression input passes the checks", arguments: FuzzTarget.allCases)
    func regressions(_ target: FuzzTarget) throws {
        for input in try Self.inputs(in: "regressions", of: target) {
            try Self.replay(input, through: target)
        }
    }

    private static func replay(_ file: URL, through target: FuzzTarget) throws {
        let input = try [UInt8](Data(contentsOf: file))
        do {
            try target.check(input)
        } catch {
            Issue.record("\(target.rawValue)/\(file.lastPathComponent): \(error)")
        }
    }
}
