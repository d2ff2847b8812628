import Dispatch
import TestSupport
import Testing

// Scenario 2: a series. Get the user, then the user's contacts, then the contacts' avatars: each
// request needs the previous one's answer.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

/// The three requests of every style, in order, each after the previous one answered.
let seriesSteps = ["→ user", "← user", "→ contacts", "← contacts", "→ avatars", "← avatars"]

// MARK: - Swift concurrency, the baseline

/// Swift concurrency: three `await`s, one after another; each value is a plain typed constant.
private func swiftConcurrencySeries(_ book: AddressBook) async throws -> [Avatar] {
    let user = try await book.user.async("u1")
    let contacts = try await book.contacts.async(user)
    return try await book.avatars.async(contacts)
}

@Suite("Scenario 2: a series (user, contacts, avatars)")
struct SeriesTests {
    let book = AddressBook()

    @Test("Swift concurrency: three awaits in a row; each request starts after the previous answer")
    func swiftConcurrency() async throws {
        #expect(try await swiftConcurrencySeries(book) == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }
}
