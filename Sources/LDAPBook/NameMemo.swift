/// Answers worked out once per attribute or field name and kept (look the name up, and
/// work the answer out only when it is not there): what an attribute is to a
/// format, or which field a name names, asked of every attribute of every entry an export
/// writes. At most ``capacity`` names are kept; the names of one directory are a few hundred,
/// and answers beyond those (an import's made-up custom fields) are worked out again.
///
/// The entries of one search come with their attributes in much the same order, so the memo
/// also remembers which name was asked after each one, and tries that name and the three kept
/// after it first: a few string comparisons instead of hashing the name (an export of 10,000
/// people spent 5–10% of its instructions hashing attribute names; callgrind, BENCHMARKS.md
/// workload 5).
struct NameMemo<Answer> {
    private var names: [String] = []
    private var answers: [Answer] = []
    /// For each name, the index of the name asked after it the last time.
    private var following: [Int] = []
    private var positions: [String: Int] = [:]
    /// The index of the name asked last, or -1.
    private var last = -1

    /// The most names kept.
    static var capacity: Int { 4096 }

    /// The answer kept for `name`, if any.
    mutating func answer(for name: String) -> Answer? {
        // The guess, or a name kept soon after it: an attribute that some entries lack
        // (a second mail, a mobile) moves the next name a place or two on.
        let guess = max(last >= 0 ? following[last] : 0, 0)
        let end = min(guess + 4, names.count), length = name.utf8.count
        var found = min(guess, end)
        while found < end && !(names[found].utf8.count == length && names[found] == name) { found += 1 }
        if found == end {
            guard let position = positions[name] else { return nil }
            found = position
        }
        if last >= 0 { following[last] = found }
        last = found
        return answers[found]
    }

    /// Keeps `answer` for `name`, unless ``capacity`` names are kept already.
    mutating func remember(_ answer: Answer, for name: String) {
        guard names.count < Self.capacity, positions[name] == nil else { return }
        positions[name] = names.count
        names.append(name)
        answers.append(answer)
        following.append(-1)
        if last >= 0 { following[last] = names.count - 1 }
        last = names.count - 1
    }
}
