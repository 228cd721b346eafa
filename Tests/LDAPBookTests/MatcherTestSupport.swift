@testable import LDAPBook

/// How `query` scores `person`.
func score(_ query: String, _ person: Person) throws -> NameScore {
    NameMatcher(try NameQuery(query)).score(person)
}

/// The people of `people` ranked by `query`, best first, by their first cn; those who do not
/// match are left out.
func ranked(_ query: String, _ people: [Person]) throws -> [String] {
    let matcher = NameMatcher(try NameQuery(query))
    return people.map { Candidate(person: $0, tier: nil, score: matcher.score($0), values: []) }
        .filter { $0.score.matchedWords > 0 }
        .sorted(by: Candidate.ranksBefore)
        .map { $0.person.commonNames[0] }
}
