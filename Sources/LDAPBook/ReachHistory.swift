import Foundation

/// Whom the user meant: after a reach resolves, the (field, name) they typed and the person it
/// ended on, so that next time that person ranks first among people who match as well (as
/// Outlook's name cache and Thunderbird's popularity index do). It only orders: it never skips
/// a confirmation, and a person it names who no longer matches is simply not there.
///
/// Kept in `$XDG_STATE_HOME/ldapbook/history` (by default `~/.local/state/ldapbook/history`),
/// readable by its owner only: one line a choice, `field TAB name TAB DN TAB times`, the name as
/// the matcher folds it (`Zoë` and `zoe` are one entry).
public struct ReachHistory: Sendable {
    /// One remembered choice.
    public struct Choice: Sendable, Hashable {
        /// The field reached.
        public let field: String
        /// The name typed, folded.
        public let name: String
        /// The person chosen.
        public let dn: String
        /// How many times.
        public var times: Int
    }

    /// The file.
    public let path: String
    /// What it holds.
    public private(set) var choices: [Choice]

    /// The file's default path.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/ldapbook/history"
        }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/ldapbook/history"
    }

    /// The history at `path`; a missing or unreadable file is an empty history, and lines that
    /// are not choices are skipped.
    public init(path: String = ReachHistory.defaultPath()) {
        self.path = path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        choices = text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, let times = Int(parts[3]), times > 0 else { return nil }
            return Choice(field: parts[0], name: parts[1], dn: parts[2], times: times)
        }
    }

    /// The key a name is remembered by: its words as the matcher folds them.
    public static func key(_ query: NameQuery) -> String {
        NameMatcher(query).foldedWords.joined(separator: " ")
    }

    /// The DNs chosen before for `field` and `query`, most often first.
    public func chosen(field: String, query: NameQuery) -> [String] {
        let key = Self.key(query)
        return choices.filter { $0.field == field && $0.name == key }.sorted { $0.times > $1.times }.map(\.dn)
    }

    /// Remembers that `dn` was chosen for `field` and `query`.
    public mutating func remember(field: String, query: NameQuery, dn: String) {
        let key = Self.key(query)
        // Tabs and line breaks cannot be in a field name, a folded name or a DN's string form
        // as ldapbook writes them; a choice that holds one is not remembered.
        guard ![field, key, dn].contains(where: { $0.contains("\t") || $0.contains("\n") }) else { return }
        if let index = choices.firstIndex(where: { $0.field == field && $0.name == key && $0.dn == dn }) {
            choices[index].times += 1
        } else {
            choices.append(Choice(field: field, name: key, dn: dn, times: 1))
        }
    }

    /// Forgets the choices for `query` (in any field), or every choice when `query` is `nil`;
    /// returns how many were forgotten.
    @discardableResult
    public mutating func forget(_ query: NameQuery?) -> Int {
        let before = choices.count
        if let query {
            let key = Self.key(query)
            choices.removeAll { $0.name == key }
        } else {
            choices.removeAll()
        }
        return before - choices.count
    }

    /// Writes the history: a new file beside the old one, renamed over it (a crash leaves one
    /// or the other whole), in a directory only its owner may enter, readable by its owner only.
    public func save() throws {
        let fileManager = FileManager.default
        let directory = (path as NSString).deletingLastPathComponent
        try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try fileManager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        let text = choices.map { "\($0.field)\t\($0.name)\t\($0.dn)\t\($0.times)\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        try fileManager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}

extension Ranking {
    /// The ranking with the people in `remembered` (DNs, most often chosen first) first among
    /// those who match as well as they do, in each tier; their candidates say so.
    public func preferring(_ remembered: [String]) -> Ranking {
        guard !remembered.isEmpty else { return self }
        func reordered(_ candidates: [Candidate]) -> [Candidate] {
            var marked = candidates.map { candidate in
                var candidate = candidate
                candidate.rememberedRank = remembered.firstIndex(of: candidate.person.dn.string)
                return candidate
            }
            // Stable: among equal scores, remembered people first (most often chosen first);
            // everyone else keeps their order.
            marked = marked.enumerated().sorted { lhs, rhs in
                let (a, b) = (lhs.element, rhs.element)
                if a.score.rank != b.score.rank { return lhs.offset < rhs.offset }
                let (ra, rb) = (a.rememberedRank ?? .max, b.rememberedRank ?? .max)
                return ra != rb ? ra < rb : lhs.offset < rhs.offset
            }.map(\.element)
            return marked
        }
        var ranking = self
        ranking.fieldAndName = reordered(fieldAndName)
        ranking.nameOnly = reordered(nameOnly)
        if let only = uniqueFullMatch, let index = remembered.firstIndex(of: only.person.dn.string) {
            var marked = only
            marked.rememberedRank = index
            ranking.uniqueFullMatch = marked
        }
        return ranking
    }
}
