import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 3: parallel, all results: download every contact's avatar at once. The fake images
// answer only once all three requests are in flight (a rendezvous), so a style that ran them one
// after another would never finish.

private let contacts = ["u1.ann", "u1.bob", "u1.cy"].map(Contact.init(name:))

/// Avatars that answer only when all three were requested.
private func gatheredBook() -> AddressBook {
    let gate = Rendezvous(expected: contacts.count)
    return AddressBook(avatarLatency: { _ in .rendezvous(gate) })
}

/// One avatar fails at once; the other two never answer by themselves.
private func failingBook() -> AddressBook {
    AddressBook(avatarLatency: { $0.name == "u1.bob" ? .hops(1) : .never }, failingAvatar: "u1.bob")
}

// MARK: - The four styles

/// FBL: the free function `all`, typed.
private func fblAll(_ book: AddressBook) -> FBLPromise<[Avatar]> {
    all(contacts.map { book.avatar.fbl($0) })
}

/// AY: the static `AYPromise.all` property, called with an array; untyped values.
private func ayAll(_ book: AddressBook) -> AYPromise {
    AYPromise.all(contacts.map { book.avatar.ay($0) })
}

/// QX: `QXPromise.all`, counting down the inputs' observed states.
private func qxAll(_ book: AddressBook) -> QXPromise {
    QXPromise.all(contacts.map { book.avatar.qx($0) })
}

/// QN: a parallel task of manual sub-tasks, typed; started by the caller.
private func qnAll(_ book: AddressBook) -> QNAsyncParallelTask<[Avatar]> {
    QNAsyncParallelTask(taskID: "avatars", all: contacts.map { book.avatar.qn($0) })
}

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
    @Test("FBL: all fulfils with every value, in input order")
    func fbl() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: fblAll(book)).get() == AddressBook.expectedAvatars)
        #expect(book.log.count == 6)
    }

    @Test("FBL: all rejects with the first error itself; the other downloads go on (no cancellation)")
    func fblFails() async throws {
        let book = failingBook()
        #expect(rejection(of: try await outcome(of: fblAll(book))) as? TestError == TestError(404))
        #expect(book.avatar.inFlight.count == 2)  // nothing stops them: the caller must
        book.avatar.inFlight.forEach { $0.cancel() }
    }

    @Test("AY: all fulfils with [PromiseValue], in input order")
    func ay() async throws {
        let book = gatheredBook()
        let values = try await outcome(of: ayAll(book)).get() as! [PromiseValue]
        #expect(values.map { $0 as? Avatar } == AddressBook.expectedAvatars)
    }

    @Test("AY: all rejects with AYAllRejectedError (index and inner error); the others go on")
    func ayFails() async throws {
        let book = failingBook()
        let error = rejection(of: try await outcome(of: ayAll(book))) as? AYAllRejectedError
        #expect(error?.index == 1)
        #expect(error?.internalError as? TestError == TestError(404))
        try await book.avatar.waitForCalls(3)  // the requests start on a global queue
        #expect(book.avatar.inFlight.count == 2)
        book.avatar.inFlight.forEach { $0.cancel() }
    }

    @Test("QX: all fulfils with [PromiseValue], in input order")
    func qx() async throws {
        let book = gatheredBook()
        let values = try await outcome(of: qxAll(book)).get() as! [PromiseValue]
        #expect(values.map { $0 as? Avatar } == AddressBook.expectedAvatars)
    }

    @Test("QX: all rejects with the first error; the others go on")
    func qxFails() async throws {
        let book = failingBook()
        #expect(rejection(of: try await outcome(of: qxAll(book))) as? TestError == TestError(404))
        #expect(book.avatar.inFlight.count == 2)
        book.avatar.inFlight.forEach { $0.cancel() }
    }

    @Test("QN: the parallel task succeeds with [Avatar], in input order")
    func qn() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: qnAll(book)).value == AddressBook.expectedAvatars)
    }

    @Test("QN: the first failure fails the task and cancels the downloads still running")
    func qnFails() async throws {
        let book = failingBook()
        #expect(try await outcome(of: qnAll(book)).error as? TestError == TestError(404))
        #expect(book.avatar.inFlight.isEmpty)  // cancelled before the outcome was reported
        // Every request that had started, but the failed one, was cancelled (one that had not yet
        // started when the failure came never starts).
        let cancelled = book.log.all.filter { $0.hasPrefix("✕") }.map { $0.dropFirst(2) }
        let started = book.log.all.filter { $0.hasPrefix("→") && $0 != "→ avatar(u1.bob)" }.map { $0.dropFirst(2) }
        #expect(Set(cancelled) == Set(started))
    }

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
