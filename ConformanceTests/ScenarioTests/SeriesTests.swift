import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 2: a series. Get the user, then the user's contacts, then the contacts' avatars: each
// request needs the previous one's answer.

/// The three requests of every style, in order, each after the previous one answered.
private let seriesSteps = ["→ user", "← user", "→ contacts", "← contacts", "→ avatars", "← avatars"]

// MARK: - The four styles

/// FBL: typed `then`s; a `then` whose block returns a promise adopts it.
private func fblSeries(_ book: AddressBook) -> FBLPromise<[Avatar]> {
    book.user.fbl("u1")
        .then { user in book.contacts.fbl(user) }
        .then { contacts in book.avatars.fbl(contacts) }
}

/// AY: the same chain through the `then` property; values are untyped, so each block casts.
private func aySeries(_ book: AddressBook) -> AYPromise {
    book.user.ay("u1")
        .then { user in book.contacts.ay(user as! User) }
        .then { contacts in book.avatars.ay(contacts as! [Contact]) }
}

/// QX: the same chain; each link observes the `state` of the promise the block returned.
private func qxSeries(_ book: AddressBook) -> QXPromise {
    book.user.qx("u1")
        .then { user in book.contacts.qx(user as! User) }
        .then { contacts in book.avatars.qx(contacts as! [Contact]) }
}

/// QN: a serial task; each build block reads the previous sub-task's result from its sub-state.
private func qnSeries(_ book: AddressBook) -> QNAsyncSerialTask<[Avatar]> {
    QNAsyncSerialTask(
        taskID: "series",
        buildBlocks: [
            { _ in .required(book.user.qn("u1")) },
            { previous in .required(book.contacts.qn(previous!.result(as: User.self)!)) },
            { previous in .required(book.avatars.qn(previous!.result(as: [Contact].self)!)) },
        ],
        resultGenerate: { subStates in subStates.last!.result(as: [Avatar].self)! }
    )
}

/// Swift concurrency: three `await`s, one after another; each value is a plain typed constant.
private func swiftConcurrencySeries(_ book: AddressBook) async throws -> [Avatar] {
    let user = try await book.user.async("u1")
    let contacts = try await book.contacts.async(user)
    return try await book.avatars.async(contacts)
}

@Suite("Scenario 2: a series (user, contacts, avatars)")
struct SeriesTests {
    let book = AddressBook()

    @Test("FBL: then, then; each request starts after the previous answer")
    func fbl() async throws {
        #expect(try await outcome(of: fblSeries(book)).get() == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }

    @Test("AY: then, then; the result is untyped and cast by the caller")
    func ay() async throws {
        let avatars = try await outcome(of: aySeries(book)).get()
        #expect(avatars as? [Avatar] == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }

    @Test("QX: then, then; each link observes the promise the previous block returned")
    func qx() async throws {
        let avatars = try await outcome(of: qxSeries(book)).get()
        #expect(avatars as? [Avatar] == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }

    @Test("QN: a serial task of three build blocks; progress is the share of steps done")
    func qn() async throws {
        let task = qnSeries(book)
        let fractions = Recorder<Double>()
        task.monitorProgress(on: .main) { fractions.record($0) }
        #expect(try await outcome(of: task).value == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
        try await mainQueueDrained()  // progress reports are dispatched to main before the outcome
        #expect(fractions.all.last == 1)
        #expect(fractions.all == fractions.all.sorted())
    }

    @Test("Swift concurrency: three awaits in a row; each request starts after the previous answer")
    func swiftConcurrency() async throws {
        #expect(try await swiftConcurrencySeries(book) == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }
}
