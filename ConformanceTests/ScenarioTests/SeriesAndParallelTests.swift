import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 5: series and parallel combined: get the user, then the contacts (series), then every
// contact's avatar at once (parallel), then the result. The avatars answer only once all three
// requests are in flight.

/// What every style's log looks like: the series, then three requests out before any answer.
private let combinedSteps = [
    "→ user", "← user", "→ contacts", "← contacts", "→ avatar", "→ avatar", "→ avatar",
    "← avatar", "← avatar", "← avatar",
]

private func gatheredBook() -> AddressBook {
    let gate = Rendezvous(expected: 3)
    return AddressBook(avatarLatency: { _ in .rendezvous(gate) })
}

// MARK: - The four styles

/// FBL: a `then` returns the `all` of the parallel requests, and the chain adopts it.
private func fblCombined(_ book: AddressBook) -> FBLPromise<[Avatar]> {
    book.user.fbl("u1")
        .then { user in book.contacts.fbl(user) }
        .then { contacts in all(contacts.map { book.avatar.fbl($0) }) }
}

/// AY: the same shape; `AYPromise.all` returned from a block is adopted.
private func ayCombined(_ book: AddressBook) -> AYPromise {
    book.user.ay("u1")
        .then { user in book.contacts.ay(user as! User) }
        .then { contacts in AYPromise.all((contacts as! [Contact]).map { book.avatar.ay($0) }) }
}

/// QX: the same shape; the link observes the `QXPromise.all` the block returned.
private func qxCombined(_ book: AddressBook) -> QXPromise {
    book.user.qx("u1")
        .then { user in book.contacts.qx(user as! User) }
        .then { contacts in QXPromise.all((contacts as! [Contact]).map { book.avatar.qx($0) }) }
}

/// QN: a serial task whose third step is a parallel task: composition by nesting tasks.
private func qnCombined(_ book: AddressBook) -> QNAsyncSerialTask<[Avatar]> {
    QNAsyncSerialTask(
        taskID: "combined",
        buildBlocks: [
            { _ in .required(book.user.qn("u1")) },
            { previous in .required(book.contacts.qn(previous!.result(as: User.self)!)) },
            { previous in
                let contacts = previous!.result(as: [Contact].self)!
                return .required(QNAsyncParallelTask(taskID: "avatars", all: contacts.map { book.avatar.qn($0) }))
            },
        ],
        resultGenerate: { subStates in subStates.last!.result(as: [Avatar].self)! }
    )
}

/// Swift concurrency: two `await`s, then the task group of scenario 3.
private func swiftConcurrencyCombined(_ book: AddressBook) async throws -> [Avatar] {
    let user = try await book.user.async("u1")
    let contacts = try await book.contacts.async(user)
    return try await allAvatars(of: contacts, from: book)
}

@Suite("Scenario 5: series and parallel combined")
struct SeriesAndParallelTests {
    @Test("FBL: then, then all")
    func fbl() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: fblCombined(book)).get() == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }

    @Test("AY: then, then AYPromise.all")
    func ay() async throws {
        let book = gatheredBook()
        let values = try await outcome(of: ayCombined(book)).get() as! [PromiseValue]
        #expect(values.map { $0 as? Avatar } == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }

    @Test("QX: then, then QXPromise.all")
    func qx() async throws {
        let book = gatheredBook()
        let values = try await outcome(of: qxCombined(book)).get() as! [PromiseValue]
        #expect(values.map { $0 as? Avatar } == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }

    @Test("QN: a serial task nesting a parallel task")
    func qn() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: qnCombined(book)).value == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }

    @Test("QN: cancelling mid-way cancels the nested parallel task and its three requests")
    func qnCancelled() async throws {
        let book = AddressBook(avatarLatency: { _ in .never })
        let task = qnCombined(book)
        let result = try await awaitCompletion("the QN outcome") { complete in
            task.start(on: .main) { complete(.success($0)) }
            Task {
                try await book.avatar.waitForCalls(3)
                task.cancel()
            }
        }
        #expect(result.isCancelled)
        #expect(book.avatar.inFlight.isEmpty)
        #expect(steps(book.log).suffix(3) == ["✕ avatar", "✕ avatar", "✕ avatar"])
    }

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
