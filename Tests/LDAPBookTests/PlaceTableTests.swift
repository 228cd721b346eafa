@testable import LDAPBook
import Testing

@Suite("The places of the people a lookup's keys name")
struct PlaceTableTests {
    /// Ids spread over `people` as a lookup meets them: in no order, some twice.
    private func ids(_ count: Int, of people: Int) -> [Int64] {
        (0..<count).map { Int64(1 + ($0 &* 7919) % (people - 1)) }
    }

    @Test("each id keeps the place it was first given, in a table that grows past what the lists said",
          arguments: [(people: 1_000_000, bytes: 10, count: 50_000), (people: 1_000_000, bytes: 5_000, count: 200_000),
                      (people: 1_000, bytes: 0, count: 3_000), (people: 2, bytes: 0, count: 3)])
    func places(people: Int, bytes: Int, count: Int) {
        var table = PlaceTable(people: people, bytes: bytes)
        var first: [Int64: Int] = [:]
        for id in ids(count, of: people) {
            let (place, isNew) = table.place(of: id, orNew: first.count)
            if let known = first[id] {
                #expect(!isNew && place == known, "\(id)")
            } else {
                #expect(isNew && place == first.count, "\(id)")
                first[id] = place
            }
        }
        for (id, place) in first { #expect(table.place(of: id) == place) }
        #expect(table.place(of: Int64(people - 1)) == first[Int64(people - 1)])
    }

    @Test("an id never named has no place")
    func unnamed() {
        var table = PlaceTable(people: 1_000_000, bytes: 100)
        _ = table.place(of: 42, orNew: 0)
        #expect(table.place(of: 43) == nil)
        #expect(table.place(of: 42) == 0)
    }
}
