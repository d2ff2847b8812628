import AYPromises
import TestSupport
import Testing

// AY's version of every scenario of ScenarioTests: its wrap of the callback API, how a test
// waits for an AY promise's outcome, and, scenario by scenario, its style function and its tests
// in an extension of the scenario's suite. The scenario files beside this folder describe each
// scenario and hold its suite, its fixtures and the Swift concurrency baseline.

// MARK: - The wrap of the callback API, and waiting for an outcome

extension FakeEndpoint {
    /// AY: `asyncWithResolve`: `resolve` takes a value or an error; the call starts at once.
    func ay(_ input: Input) -> AYPromise {
        AYPromise.asyncWithResolve { resolve in
            self.call(input) { result in
                switch result {
                case .success(let value): resolve(value)
                case .failure(let error): resolve(error)  // an Error value rejects
                }
            }
        }
    }
}

/// How an AY promise settled.
func outcome(of promise: AYPromise) async throws -> Result<PromiseValue, any Error> {
    try await awaitOutcome("an AY promise") { try await promise.value }
}

// MARK: - Scenario 1: one async operation

extension OneAsyncOperationTests {
    @Test("AY: the request starts when the promise is made; then runs on the main queue")
    func ay() async throws {
        let promise = book.user.ay("u1")
        let shown = promise.then { user in
            #expect(MainQueue.isCurrent)
            return (user as! User).id  // untyped: the block casts
        }
        #expect(try await outcome(of: shown).get() as? String == "u1")
        #expect(book.log.all == ["→ user(u1)", "← user(u1)"])
    }

    @Test("AY: a failed request rejects; catch recovers with what it returns")
    func ayFails() async throws {
        let promise = failing.ay("u1").catch { error in "fallback after \(error)" }
        #expect(try await outcome(of: promise).get() as? String == "fallback after TestError(1)")
    }
}

// MARK: - Scenario 2: a series (user, contacts, avatars)

/// AY: the same chain through the `then` property; values are untyped, so each block casts.
private func aySeries(_ book: AddressBook) -> AYPromise {
    book.user.ay("u1")
        .then { user in book.contacts.ay(user as! User) }
        .then { contacts in book.avatars.ay(contacts as! [Contact]) }
}

extension SeriesTests {
    @Test("AY: then, then; the result is untyped and cast by the caller")
    func ay() async throws {
        let avatars = try await outcome(of: aySeries(book)).get()
        #expect(avatars as? [Avatar] == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }
}

// MARK: - Scenario 3: parallel, all results (download N images)

/// AY: the static `AYPromise.all` property, called with an array; untyped values.
private func ayAll(_ book: AddressBook) -> AYPromise {
    AYPromise.all(contacts.map { book.avatar.ay($0) })
}

extension ParallelAllTests {
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
}

// MARK: - Scenario 4: parallel, first result

/// AY: `AYPromise.race` fulfils with the first *fulfilled* input; it rejects only when every
/// input rejected. No cancellation either.
private func ayFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> AYPromise {
    AYPromise.race(names.map { get.ay($0) })
}

extension ParallelFirstTests {
    @Test("AY: race skips the broken mirror and takes the first fulfilled one")
    func ay() async throws {
        let get = mirrors()
        #expect(try await outcome(of: ayFirst(get, from: ["broken", "good"])).get() as? String == "file@good")
    }

    @Test("AY: when every mirror fails, race rejects with every error, in input order")
    func ayAllFail() async throws {
        let get = mirrors()
        let error = rejection(of: try await outcome(of: ayFirst(get, from: ["broken", "broken"])))
        #expect((error as? AYRaceRejectedError)?.internalErrors.count == 2)
    }

    @Test("AY: a losing request goes on after race fulfilled (no cancellation)")
    func ayLoserGoesOn() async throws {
        let get = mirrors()
        #expect(try await outcome(of: ayFirst(get, from: ["slow", "fast"])).get() as? String == "file@fast")
        try await get.waitForCalls(2)
        #expect(get.inFlight.map(\.name) == ["get(slow)"])
        get.inFlight.forEach { $0.cancel() }
    }
}

// MARK: - Scenario 5: series and parallel combined

/// AY: the same shape; `AYPromise.all` returned from a block is adopted.
private func ayCombined(_ book: AddressBook) -> AYPromise {
    book.user.ay("u1")
        .then { user in book.contacts.ay(user as! User) }
        .then { contacts in AYPromise.all((contacts as! [Contact]).map { book.avatar.ay($0) }) }
}

extension SeriesAndParallelTests {
    @Test("AY: then, then AYPromise.all")
    func ay() async throws {
        let book = gatheredBook()
        let values = try await outcome(of: ayCombined(book)).get() as! [PromiseValue]
        #expect(values.map { $0 as? Avatar } == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }
}

// MARK: - Scenario 6: the checkout workflow (order, pay, check, one error handler)

// snippet: checkout-ay
/// AY: untyped steps; `catch` recovers (here with `nil`), so the chain fulfils after an error.
func ayCheckout(_ shop: Shop, onError: @escaping @Sendable (any Error) -> Void) -> AYPromise {
    shop.order.ay("c1")
        .then { order in shop.pay.ay(order as! Order) }
        .then { receipt in shop.check.ay(receipt as! Receipt) }
        .catch { error in onError(error) }
}
// end-snippet

extension CheckoutWorkflowTests {
    @Test("AY: the three steps run in order and the handler is not called")
    func ay() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: ayCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() as? Confirmation == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("AY: payment declined: check is skipped, the handler runs once, the chain recovers with nil")
    func ayDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: ayCheckout(shop) { errors.record($0) })
        #expect(try result.get() == nil)  // AY's catch recovers: the caller sees a fulfilment
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }
}

// MARK: - Scenario 7: the list loader (cache first, then remote, then aggregate)

/// AY: the same chain; the `then` that shows the cache must return it to pass it on.
private func ayLoadList(
    _ sources: ListSources, flag: CancellationFlag = CancellationFlag(), show: @escaping @Sendable ([String]) -> Void
) -> AYPromise {
    sources.cache.ay("list")
        .then { cached in
            show(cached as! [String])
            return cached
        }
        .then { cached in
            try flag.check()
            flag.onCancel { sources.remote.inFlight.forEach { $0.cancel() } }
            return sources.remote.ay("list").then { remote in
                aggregate(cached: cached as! [String], remote: remote as! [String])
            }
        }
}

extension ListLoaderTests {
    @Test("AY: the cache is shown before the remote request starts; the result is aggregated")
    func ay() async throws {
        let sources = ListSources(remote: .answers)
        let screen = Screen()
        #expect(try await outcome(of: ayLoadList(sources, show: screen.show)).get() as? [String] == expected)
        #expect(screen.shown.all == [["c1", "r1"]])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("AY: the remote request fails: the cache was shown, the caller gets the error")
    func ayFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: ayLoadList(sources, show: screen.show))
        #expect(rejection(of: result) as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("AY: no cancellation; a caller's flag stops the request, the chain rejects with CancellationError")
    func ayFlag() async throws {
        let sources = ListSources(remote: .hangs)
        let flag = CancellationFlag()
        let promise = ayLoadList(sources, flag: flag) { _ in }
        try await sources.remote.waitForCalls()
        flag.cancel()
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
    }

    @Test("AY: the flag set before the remote step: the request never starts")
    func ayFlagEarly() async throws {
        let sources = ListSources(remote: .answers)
        let flag = CancellationFlag()
        flag.cancel()
        let promise = ayLoadList(sources, flag: flag) { _ in }
        #expect(rejection(of: try await outcome(of: promise)) is CancellationError)
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)"])
    }
}
