import LDAPKit

extension AddressBook {
    /// The people whose first and last name are `givenName` and `surname` (as the
    /// directory compares names: ignoring case and outer spaces): at most `limit` of them.
    ///
    /// Two people who share a name are two people; this is for saying so before a new one
    /// is added (`add`, reach's create step), so that nobody adds a second entry for
    /// someone by mistake.
    public func namesakes(givenName: String?, surname: String, limit: Int = 20) async throws -> [Person] {
        let sn = surname.trimmingWhitespace()
        guard !sn.isEmpty else { return [] }
        var filter: [LDAPFilter] = [.equal("objectClass", "person"), .equal("sn", LDAPValue(sn))]
        if let given = givenName?.trimmingWhitespace(), !given.isEmpty {
            filter.append(.equal("givenName", LDAPValue(given)))
        } else {
            filter.append(.not(.present("givenName")))
        }
        var people: [Person] = []
        do {
            for try await entry in connection.search(filter: .and(filter), attributes: Person.nameAttributes + ["mail"],
                                                     sizeLimit: limit, pageSize: 0) {
                people.append(Person(entry: entry))
            }
        } catch let error as LDAPError where error.code == .sizeLimitExceeded || error.code == .noSuchObject {
            return people
        }
        return people
    }
}
