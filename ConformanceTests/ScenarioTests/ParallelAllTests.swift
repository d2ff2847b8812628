import Dispatch
import TestSupport
import Testing

// Scenario 3: parallel, all results: download every contact's avatar at once. The fake images
// answer only once all three requests are in flight (a rendezvous), so a style that ran them one
// after another would never finish.
// Each design's version of this scenario is in its folder beside this file (`FBL/`, `AY/`, …): a
// design adds its own folder and edits nothing here.

/// The contacts whose avatars every style downloads.
let contacts = ["u1.ann", "u1.bob", "u1.cy"].map(Contact.init(name:))

/// Avatars that answer only when all three were requested (scenario 5 uses them too).
func gatheredBook() -> AddressBook {
    let gate = Rendezvous(expected: contacts.count)
    return AddressBook(avatarLatency: { _ in .rendezvous(gate) })
}

/// One avatar fails at once; the other two never answer by themselves.
func failingBook() -> AddressBook {
    AddressBook(avatarLatency: { $0.name == "u1.bob" ? .hops(1) : .never }, failingAvatar: "u1.bob")
}

// MARK: - Swift concurrency, the baseline

/// Swift concurrency: a task group, one child task per download, the results put back in input
/// order; the first error is thrown out of the group, which cancels the other children.
func allAvatars(of contacts: [Contact], from book: AddressBook) async throws -> [Avatar] {
    try await withThrowingTaskGroup(of: (Int, Avatar).self) { group in
        for (index, contact) in contacts.enumerated() {
            group.addTask { (index, try await book.avatar.async(contact)) }
        }
        var avatars = [Avatar?](repeating: nil, count: contacts.count)
        for try await (index, avatar) in group { avatars[index] = avatar }
        return avatars.map { $0! }
    }
}

@Suite("Scenario 3: parallel, all results (download N images)")
struct ParallelAllTests {
    @Test("Swift concurrency: a task group gives every value, in input order")
    func swiftConcurrency() async throws {
        let book = gatheredBook()
        #expect(try await allAvatars(of: contacts, from: book) == AddressBook.expectedAvatars)
    }

    @Test("Swift concurrency: the first error is thrown and the group cancels the downloads still running")
    func swiftConcurrencyFails() async throws {
        let book = failingBook()
        let result = try await awaitOutcome("the task group") { try await allAvatars(of: contacts, from: book) }
        #expect(rejection(of: result) as? TestError == TestError(404))
        #expect(book.avatar.inFlight.isEmpty)  // the group waits for its cancelled children
        let cancelled = book.log.all.filter { $0.hasPrefix("✕") }.map { $0.dropFirst(2) }
        let started = book.log.all.filter { $0.hasPrefix("→") && $0 != "→ avatar(u1.bob)" }.map { $0.dropFirst(2) }
        #expect(Set(cancelled) == Set(started))
    }
}
