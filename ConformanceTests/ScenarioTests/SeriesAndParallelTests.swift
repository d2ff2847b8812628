import Dispatch
import TestSupport
import Testing

// Scenario 5: series and parallel combined: get the user, then the contacts (series), then every
// contact's avatar at once (parallel), then the result. The avatars answer only once all three
// requests are in flight.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

/// What every style's log looks like: the series, then three requests out before any answer.
let combinedSteps = [
    "→ user", "← user", "→ contacts", "← contacts", "→ avatar", "→ avatar", "→ avatar",
    "← avatar", "← avatar", "← avatar",
]

// The address book whose avatars answer only once all three are in flight is scenario 3's
// `gatheredBook()` (ParallelAllTests.swift).

// MARK: - Swift concurrency, the baseline

/// Swift concurrency: two `await`s, then the task group of scenario 3.
private func swiftConcurrencyCombined(_ book: AddressBook) async throws -> [Avatar] {
    let user = try await book.user.async("u1")
    let contacts = try await book.contacts.async(user)
    return try await allAvatars(of: contacts, from: book)
}

@Suite("Scenario 5: series and parallel combined")
struct SeriesAndParallelTests {
    @Test("Swift concurrency: await, await, then a task group")
    func swiftConcurrency() async throws {
        let book = gatheredBook()
        #expect(try await swiftConcurrencyCombined(book) == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }

    @Test("Swift concurrency: cancelling the Task mid-way cancels the group's three requests")
    func swiftConcurrencyCancelled() async throws {
        let book = AddressBook(avatarLatency: { _ in .never })
        let task = Task { try await swiftConcurrencyCombined(book) }
        try await book.avatar.waitForCalls(3)
        task.cancel()
        let result = try await awaitOutcome("the cancelled task") { try await task.value }
        #expect(rejection(of: result) is CancellationError)
        #expect(book.avatar.inFlight.isEmpty)
        #expect(steps(book.log).suffix(3) == ["✕ avatar", "✕ avatar", "✕ avatar"])
    }
}
