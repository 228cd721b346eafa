@testable import LDAPBook
import Testing

@Suite struct NameMemoTests {
    @Test func answersWhatWasRememberedAndNothingElse() {
        var memo = NameMemo<Int>()
        #expect(memo.answer(for: "cn") == nil)
        memo.remember(1, for: "cn")
        memo.remember(2, for: "sn")
        #expect(memo.answer(for: "cn") == 1)
        #expect(memo.answer(for: "sn") == 2)
        #expect(memo.answer(for: "CN") == nil, "names are kept as spelled")
        #expect(memo.answer(for: "mail") == nil)
    }

    /// The guess (the name asked after the last one, last time) is only a guess: names asked
    /// in any order, in orders that change, get their own answers.
    @Test func answersInAnyOrder() {
        let names = ["objectClass", "cn", "sn", "givenName", "mail", "telephoneNumber", "ldapbookNickname", "jpegPhoto"]
        var memo = NameMemo<String>()
        for name in names { memo.remember(name.uppercased(), for: name) }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            // The same order most of the time, as a search's entries come; sometimes another.
            let order = round % 5 == 0 ? names.shuffled(using: &generator) : names
            for name in order.prefix(Int.random(in: 1...names.count, using: &generator)) {
                #expect(memo.answer(for: name) == name.uppercased())
            }
            #expect(memo.answer(for: "street") == nil)
        }
    }

    @Test func keepsAtMostItsCapacity() {
        var memo = NameMemo<Int>()
        for index in 0..<(NameMemo<Int>.capacity + 10) { memo.remember(index, for: "x-\(index)") }
        #expect(memo.answer(for: "x-0") == 0)
        #expect(memo.answer(for: "x-\(NameMemo<Int>.capacity - 1)") == NameMemo<Int>.capacity - 1)
        #expect(memo.answer(for: "x-\(NameMemo<Int>.capacity)") == nil)
    }

    @Test func keepsTheFirstAnswerForAName() {
        var memo = NameMemo<Int>()
        memo.remember(1, for: "cn")
        memo.remember(2, for: "cn")
        #expect(memo.answer(for: "cn") == 1)
    }
}
