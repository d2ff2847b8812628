import BatchedPromises
import Dispatch
import TestSupport
import Testing

// Batched's version of every scenario of ScenarioTests: its wrap of the callback API, how a test
// waits for a promise's outcome, and, scenario by scenario, its style function and its tests in an
// extension of the scenario's suite. The scenario files beside this folder describe each scenario
// and hold its suite, its fixtures and the Swift concurrency baseline. Unlike the three promise
// designs ported here, a Batched promise cancels: a cancelled promise cancels what it waits on
// when no one else waits for it, down to the request (the wrap's `onCancel`).

// MARK: - The wrap of the callback API, and waiting for an outcome

extension FakeEndpoint {
    /// Batched: a pending promise that the callback settles; the call starts at once, and
    /// cancelling the promise (or every promise waiting on it) cancels the call.
    func batched(_ input: Input) -> Promise<Output, any Error> {
        Promise { resolver in
            let call = call(input) { result in resolver.resolve(result) }
            resolver.onCancel { call.cancel() }
        }
    }
}

/// How a Batched promise settled (a cancellation throws `CancellationError`).
func outcome<Value: Sendable>(of promise: Promise<Value, any Error>) async throws -> Result<Value, any Error> {
    try await awaitOutcome("a Batched promise") { try await promise.value }
}

// MARK: - Scenario 1: one async operation

extension OneAsyncOperationTests {
    @Test("Batched: the request starts when the promise is made; map runs on the main queue")
    func batched() async throws {
        let promise = book.user.batched("u1")  // nobody has subscribed yet: the call runs anyway
        let seen = Recorder<String>()
        let shown = promise.map { user in  // default queue: main
            #expect(MainQueue.isCurrent)
            seen.record(user.id)
            return user
        }
        #expect(try await outcome(of: shown).get() == User(id: "u1"))
        #expect(seen.all == ["u1"])
        #expect(book.log.all == ["→ user(u1)", "← user(u1)"])
    }

    @Test("Batched: a failed request rejects; catch sees the error and passes the rejection on")
    func batchedFails() async throws {
        let caught = Recorder<TestError>()
        let promise = failing.batched("u1").catch { error in caught.record(error as! TestError) }
        #expect(rejection(of: try await outcome(of: promise)) as? TestError == TestError(1))
        #expect(caught.all == [TestError(1)])
    }

    @Test("Batched: cancelling the promise cancels the request; awaiting it throws CancellationError")
    func batchedCancelled() async throws {
        let log = Recorder<String>()
        let slow = FakeEndpoint<String, User>("user", log: log, latency: { _ in .never }) { .success(User(id: $0)) }
        let promise = slow.batched("u1")
        promise.cancel()
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(log.all == ["→ user(u1)", "✕ user(u1)"])
    }
}

// MARK: - Scenario 2: a series (user, contacts, avatars)

/// Batched: typed `flatMap`s; each adopts the promise its callback returns.
private func batchedSeries(_ book: AddressBook) -> Promise<[Avatar], any Error> {
    book.user.batched("u1")
        .flatMap { user in book.contacts.batched(user) }
        .flatMap { contacts in book.avatars.batched(contacts) }
}

extension SeriesTests {
    @Test("Batched: flatMap, flatMap; each request starts after the previous answer")
    func batched() async throws {
        #expect(try await outcome(of: batchedSeries(book)).get() == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }
}

// MARK: - Scenario 3: parallel, all results (download N images)

/// Batched: `Promise.all`, typed.
private func batchedAll(_ book: AddressBook) -> Promise<[Avatar], any Error> {
    Promise.all(contacts.map { book.avatar.batched($0) })
}

extension ParallelAllTests {
    @Test("Batched: all fulfils with every value, in input order")
    func batched() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: batchedAll(book)).get() == AddressBook.expectedAvatars)
        #expect(book.log.count == 6)
    }

    @Test("Batched: all rejects with the first error and cancels the downloads no one else waits for")
    func batchedFails() async throws {
        let book = failingBook()
        #expect(rejection(of: try await outcome(of: batchedAll(book))) as? TestError == TestError(404))
        #expect(book.avatar.inFlight.isEmpty)  // cancelled before the rejection was reported
        #expect(book.log.all.filter { $0.hasPrefix("✕") }.sorted() == ["✕ avatar(u1.ann)", "✕ avatar(u1.cy)"])
    }
}

// MARK: - Scenario 4: parallel, first result

/// Batched: `Promise.any` fulfils with the first value, whatever failed before it, and cancels
/// the inputs still pending (their requests are stopped through `onCancel`).
private func batchedFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> Promise<String, any Error> {
    Promise.any(names.map { get.batched($0) }).mapError { $0 as any Error }
}

extension ParallelFirstTests {
    @Test("Batched: any skips the broken mirror, takes the fast one, cancels the slow one")
    func batched() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        #expect(try await outcome(of: batchedFirst(get, from: ["broken", "slow", "fast"])).get() == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))  // by the design, before the value was reported
        #expect(get.inFlight.isEmpty)
    }

    @Test("Batched: when every mirror fails, any rejects with every failure, in the inputs' order")
    func batchedAllFail() async throws {
        let result = try await outcome(of: batchedFirst(mirrors(), from: ["broken", "broken"]))
        #expect((rejection(of: result) as? AllRejected<any Error>)?.failures.count == 2)
    }

    @Test("Batched: race settles like the first to settle, even a failure, and cancels the rest")
    func batchedRace() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        let result = try await outcome(of: Promise.race(["broken", "slow"].map { get.batched($0) }))
        #expect(rejection(of: result) as? TestError == TestError(500))
        #expect(log.all.contains("✕ get(slow)"))
    }
}

// MARK: - Scenario 5: series and parallel combined

/// Batched: a `flatMap` returns the `all` of the parallel requests, and the chain adopts it.
private func batchedCombined(_ book: AddressBook) -> Promise<[Avatar], any Error> {
    book.user.batched("u1")
        .flatMap { user in book.contacts.batched(user) }
        .flatMap { contacts in Promise.all(contacts.map { book.avatar.batched($0) }) }
}

extension SeriesAndParallelTests {
    @Test("Batched: flatMap, flatMap to all")
    func batched() async throws {
        let book = gatheredBook()
        #expect(try await outcome(of: batchedCombined(book)).get() == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }

    @Test("Batched: cancelling mid-way cancels the adopted all and its three requests")
    func batchedCancelled() async throws {
        let book = AddressBook(avatarLatency: { _ in .never })
        let promise = batchedCombined(book)
        try await book.avatar.waitForCalls(3)
        // The third call is made inside the flatMap callback on the main queue, before the callback
        // returns the `all` and the chain adopts it: let that block finish first.
        try await mainQueueDrained()
        promise.cancel()
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(book.avatar.inFlight.isEmpty)
        #expect(steps(book.log).suffix(3) == ["✕ avatar", "✕ avatar", "✕ avatar"])
    }
}

// MARK: - Scenario 6: the checkout workflow (order, pay, check, one error handler)

// snippet: checkout-batched
/// Batched: typed steps; `catch` observes the error and passes the rejection on.
func batchedCheckout(
    _ shop: Shop, onError: @escaping @Sendable (any Error) -> Void
) -> Promise<Confirmation, any Error> {
    shop.order.batched("c1")
        .flatMap { order in shop.pay.batched(order) }
        .flatMap { receipt in shop.check.batched(receipt) }
        .catch { error in onError(error) }
}
// end-snippet

extension CheckoutWorkflowTests {
    @Test("Batched: the three steps run in order and the handler is not called")
    func batched() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: batchedCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("Batched: payment declined: check is skipped, the handler runs once, the promise stays rejected")
    func batchedDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: batchedCheckout(shop) { errors.record($0) })
        #expect(rejection(of: result) is PaymentDeclined)
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }
}

// MARK: - Scenario 7: the list loader (cache first, then remote, then aggregate)

/// Batched: `show` runs in a `map` that passes the cached list on; the remote step adopts the
/// aggregate. Cancelling the loader (or the one task awaiting it) cancels the step under way.
private func batchedLoadList(
    _ sources: ListSources, show: @escaping @Sendable ([String]) -> Void
) -> Promise<[String], any Error> {
    sources.cache.batched("list")
        .map { cached in
            show(cached)
            return cached
        }
        .flatMap { cached in
            sources.remote.batched("list").map { remote in aggregate(cached: cached, remote: remote) }
        }
}

extension ListLoaderTests {
    @Test("Batched: the cache is shown before the remote request starts; the result is aggregated")
    func batched() async throws {
        let sources = ListSources(remote: .answers)
        let screen = Screen()
        #expect(try await outcome(of: batchedLoadList(sources, show: screen.show)).get() == expected)
        #expect(screen.shown.all == [["c1", "r1"]])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("Batched: the remote request fails: the cache was shown, the caller gets the error")
    func batchedFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: batchedLoadList(sources, show: screen.show))
        #expect(rejection(of: result) as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("Batched: cancelling the Swift Task that awaits the loader cancels the remote request")
    func batchedCancelledThroughConcurrency() async throws {
        let sources = ListSources(remote: .hangs)
        let screen = Screen()
        let loader = batchedLoadList(sources, show: screen.show)
        let waiting = Task { try await loader.value }
        try await sources.remote.waitForCalls()
        // The call is made inside the flatMap callback on the main queue, before the loader adopts
        // the remote promise: let that block finish, so that the cancellation walk reaches the request.
        try await mainQueueDrained()
        waiting.cancel()
        let result = try await awaitOutcome("the awaiting Task") { try await waiting.value }
        #expect(rejection(of: result) is CancellationError)
        // The task was the loader's one waiter: its withdrawal cancels the loader, then the walk
        // goes on up to the remote request: inside `cancel()` if the task was waiting, in the task
        // before its wait returns otherwise.
        #expect(rejection(of: try await outcome(of: loader)) is CancellationError)
        #expect(sources.remote.inFlight.isEmpty)
        #expect(sources.log.all.last == "✕ remote(list)")
        #expect(screen.shown.all == [["c1", "r1"]])
    }
}
