/// Answers worked out once per attribute or field name and kept (look the name up, and
/// work the answer out only when it is not there): what an attribute is to a
/// format, or which field a name names, asked of every attribute of every entry an export
/// writes. At most ``capacity`` names are kept; the names of one directory are a few hundred,
/// and answers beyond those (an import's made-up custom fields) are worked out again.
struct NameMemo<Answer> {
    private var answers: [String: Answer] = [:]

    /// The most names kept.
    static var capacity: Int { 4096 }

    /// The answer kept for `name`, if any.
    subscript(name: String) -> Answer? { answers[name] }

    /// Keeps `answer` for `name`, unless ``capacity`` names are kept already.
    mutating func remember(_ answer: Answer, for name: String) {
        if answers.count < Self.capacity { answers[name] = answer }
    }
}
