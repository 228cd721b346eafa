import LDAPKit

extension AddressBook {
    /// The people with an address in `email` whose domain contains `domain` after its `@`
    /// (`(mail=*@domain*)`, the text escaped), at most `limit`, with their names and details:
    /// for completing "everyone at example.org".
    public func people(withEmailDomain domain: String, email: Field, limit: Int = 50,
                       reading extra: [Field] = []) async throws -> [Person] {
        let trimmed = domain.trimmingWhitespace()
        guard !trimmed.isEmpty else { return [] }
        let filter = LDAPFilter.and([.equal("objectClass", "person"),
                                     .substrings(email.attribute, initial: nil, any: [LDAPValue("@" + trimmed)], final: nil)])
        var people: [Person] = []
        do {
            for try await entry in connection.search(filter: filter,
                                                     attributes: Person.nameAttributes + Person.detailAttributes + [email.attribute]
                                                        + extra.map(\.attribute),
                                                     sizeLimit: limit, pageSize: 0) {
                people.append(Person(entry: entry))
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .noSuchObject {
            return people
        }
        return people
    }
}
