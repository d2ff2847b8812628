import FBLPromises
import TestSupport
import Testing

// FBL's version of every scenario of ScenarioTests: its wrap of the callback API, how a test
// waits for an FBL promise's outcome, and, scenario by scenario, its style function and its tests
// in an extension of the scenario's suite. The scenario files beside this folder describe each
// scenario and hold its suite, its fixtures and the Swift concurrency baseline.

// MARK: - The wrap of the callback API, and waiting for an outcome

extension FakeEndpoint {
    /// FBL: a pending promise that the callback fulfils or rejects; the call starts at once.
    /// (`wrap(on:) { handler in ... }` and `FBLPromise(on:) { fulfill, reject in ... }` do the
    /// same from a block dispatched onto a queue.)
    func fbl(_ input: Input) -> FBLPromise<Output> {
        let promise = FBLPromise<Output>.pending()
        call(input) { result in
            switch result {
            case .success(let value): promise.fulfill(value)
            case .failure(let error): promise.reject(error)
            }
        }
        return promise
    }
}

/// How an FBL promise settled.
func outcome<Value: Sendable>(of promise: FBLPromise<Value>) async throws -> Result<Value, any Error> {
    try await awaitOutcome("an FBL promise") { try await promise.value }
}

// MARK: - Scenario 1: one async operation

extension OneAsyncOperationTests {
    @Test("FBL: the request starts when the promise is made; then runs on the main queue")
    func fbl() async throws {
        let promise = book.user.fbl("u1")  // nobody has subscribed yet: the call runs anyway
        let seen = Recorder<String>()
        let shown = promise.then { user in  // default queue: main
            #expect(MainQueue.isCurrent)
            seen.record(user.id)
        }
        #expect(try await outcome(of: shown).get() == User(id: "u1"))
        #expect(seen.all == ["u1"])
        #expect(book.log.all == ["→ user(u1)", "← user(u1)"])
    }

    @Test("FBL: a failed request rejects; catch sees the error and passes the rejection on")
    func fblFails() async throws {
        let caught = Recorder<TestError>()
        let promise = failing.fbl("u1").catch { error in caught.record(error as! TestError) }
        #expect(rejection(of: try await outcome(of: promise)) as? TestError == TestError(1))
        #expect(caught.all == [TestError(1)])
    }
}

// MARK: - Scenario 2: a series (user, contacts, avatars)

/// FBL: typed `then`s; a `then` whose block returns a promise adopts it.
private func fblSeries(_ book: AddressBook) -> FBLPromise<[Avatar]> {
    book.user.fbl("u1")
        .then { user in book.contacts.fbl(user) }
        .then { contacts in book.avatars.fbl(contacts) }
}

extension SeriesTests {
    @Test("FBL: then, then; each request starts after the previous answer")
    func fbl() async throws {
        #expect(try await outcome(of: fblSeries(book)).get() == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }
}

// MARK: - Scenario 3: parallel, all results (download N images)

/// FBL: the free function `all`, typed.
private func fblAll(_ book: AddressBook) -> FBLPromise<[Avatar]> {
    all(contacts.map { book.avatar.fbl($0) })
}

extension ParallelAllTests {
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
}

// MARK: - Scenario 4: parallel, first result

/// FBL: `race` settles like the first input to settle, fulfilled or rejected. No cancellation:
/// the caller keeps the losing requests' handles and stops them itself (here in `always`).
private func fblFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> FBLPromise<String> {
    race(names.map { get.fbl($0) })
        .always { get.inFlight.forEach { $0.cancel() } }
}

extension ParallelFirstTests {
    @Test("FBL: race takes the fast mirror; the slow request is stopped by the caller's always")
    func fbl() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        #expect(try await outcome(of: fblFirst(get, from: ["slow", "fast"])).get() == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))  // by the caller's code, not by FBL
        #expect(get.inFlight.isEmpty)
    }

    @Test("FBL: race settles like the first to settle, even a failure")
    func fblFailureWins() async throws {
        let get = mirrors()
        let result = try await outcome(of: fblFirst(get, from: ["broken", "slow"]))
        #expect(rejection(of: result) as? TestError == TestError(500))
    }
}

// MARK: - Scenario 5: series and parallel combined

/// FBL: a `then` returns the `all` of the parallel requests, and the chain adopts it.
private func fblCombined(_ book: AddressBook) -> FBLPromise<[Avatar]> {
    book.user.fbl("u1")
        .then { user in book.contacts.fbl(user) }
        .then { contacts in all(contacts.map { book.avatar.fbl($0) }) }
}

extension SeriesAndParallelTests {
    @Test("FBL: then, then all")
    func fbl() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: fblCombined(book)).get() == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }
}

// MARK: - Scenario 6: the checkout workflow (order, pay, check, one error handler)

// snippet: checkout-fbl
/// FBL: typed steps; `catch` observes the error and passes the rejection on.
func fblCheckout(_ shop: Shop, onError: @escaping @Sendable (any Error) -> Void) -> FBLPromise<Confirmation> {
    shop.order.fbl("c1")
        .then { order in shop.pay.fbl(order) }
        .then { receipt in shop.check.fbl(receipt) }
        .catch { error in onError(error) }
}
// end-snippet

extension CheckoutWorkflowTests {
    @Test("FBL: the three steps run in order and the handler is not called")
    func fbl() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: fblCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("FBL: payment declined: check is skipped, the handler runs once, the promise stays rejected")
    func fblDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: fblCheckout(shop) { errors.record($0) })
        #expect(rejection(of: result) is PaymentDeclined)
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }
}

// MARK: - Scenario 7: the list loader (cache first, then remote, then aggregate)

/// FBL: `show` runs in a `then` that passes the cached list on; the flag is checked between steps.
private func fblLoadList(
    _ sources: ListSources, flag: CancellationFlag = CancellationFlag(), show: @escaping @Sendable ([String]) -> Void
) -> FBLPromise<[String]> {
    sources.cache.fbl("list")
        .then { cached in show(cached) }
        .then { cached in
            try flag.check()
            flag.onCancel { sources.remote.inFlight.forEach { $0.cancel() } }
            return sources.remote.fbl("list").then { remote in aggregate(cached: cached, remote: remote) }
        }
}

extension ListLoaderTests {
    @Test("FBL: the cache is shown before the remote request starts; the result is aggregated")
    func fbl() async throws {
        let sources = ListSources(remote: .answers)
        let screen = Screen()
        #expect(try await outcome(of: fblLoadList(sources, show: screen.show)).get() == expected)
        #expect(screen.shown.all == [["c1", "r1"]])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("FBL: the remote request fails: the cache was shown, the caller gets the error")
    func fblFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: fblLoadList(sources, show: screen.show))
        #expect(rejection(of: result) as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("FBL: no cancellation; a caller's flag stops the request, the chain rejects with CancellationError")
    func fblFlag() async throws {
        let sources = ListSources(remote: .hangs)
        let flag = CancellationFlag()
        let promise = fblLoadList(sources, flag: flag) { _ in }
        try await sources.remote.waitForCalls()
        flag.cancel()
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
    }
}
