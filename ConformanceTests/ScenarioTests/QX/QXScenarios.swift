import QXPromises
import TestSupport
import Testing

// QX's version of every scenario of ScenarioTests: its wrap of the callback API, how a test
// waits for an QX promise's outcome, and, scenario by scenario, its style function and its tests
// in an extension of the scenario's suite. The scenario files beside this folder describe each
// scenario and hold its suite, its fixtures and the Swift concurrency baseline.

// MARK: - The wrap of the callback API, and waiting for an outcome

extension FakeEndpoint {
    /// QX: `QXPromise(on:) { fulfill, reject in }`: the work runs at once, on the calling thread.
    func qx(_ input: Input) -> QXPromise {
        QXPromise { fulfill, reject in
            self.call(input) { result in
                switch result {
                case .success(let value): fulfill(value)
                case .failure(let error): reject(error)
                }
            }
        }
    }
}

/// How a QX promise settled.
func outcome(of promise: QXPromise) async throws -> Result<PromiseValue, any Error> {
    try await awaitOutcome("a QX promise") { try await promise.value }
}

// MARK: - Scenario 1: one async operation

extension OneAsyncOperationTests {
    @Test("QX: the work runs inside the initialiser; then runs on the default queue (main)")
    func qx() async throws {
        let promise = book.user.qx("u1")
        #expect(book.log.all.first == "→ user(u1)")  // already called, synchronously
        let shown = promise.then { user in
            #expect(MainQueue.isCurrent)
            return (user as! User).id
        }
        #expect(try await outcome(of: shown).get() as? String == "u1")
    }

    @Test("QX: a failed request rejects; catch decides what comes next")
    func qxFails() async throws {
        let promise = failing.qx("u1").catch { error in throw error }  // rethrow: stays rejected
        #expect(rejection(of: try await outcome(of: promise)) as? TestError == TestError(1))
    }
}

// MARK: - Scenario 2: a series (user, contacts, avatars)

/// QX: the same chain; each link observes the `state` of the promise the block returned.
private func qxSeries(_ book: AddressBook) -> QXPromise {
    book.user.qx("u1")
        .then { user in book.contacts.qx(user as! User) }
        .then { contacts in book.avatars.qx(contacts as! [Contact]) }
}

extension SeriesTests {
    @Test("QX: then, then; each link observes the promise the previous block returned")
    func qx() async throws {
        let avatars = try await outcome(of: qxSeries(book)).get()
        #expect(avatars as? [Avatar] == AddressBook.expectedAvatars)
        #expect(steps(book.log) == seriesSteps)
    }
}

// MARK: - Scenario 3: parallel, all results (download N images)

/// QX: `QXPromise.all`, counting down the inputs' observed states.
private func qxAll(_ book: AddressBook) -> QXPromise {
    QXPromise.all(contacts.map { book.avatar.qx($0) })
}

extension ParallelAllTests {
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
}

// MARK: - Scenario 4: parallel, first result

/// QX has no race: users build one from a pending promise whose resolver takes the first call
/// (later calls are ignored), rejecting once every input has rejected.
private func qxFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> QXPromise {
    let (first, resolver) = QXPromise.pending()
    let failures = Recorder<any Error>()
    for name in names {
        get.qx(name)
            .then { value in
                resolver.fulfill(value)
                return nil
            }
            .catch { error in
                failures.record(error)
                if failures.count == names.count { resolver.reject(error) }
                return nil
            }
    }
    return first.finally { get.inFlight.forEach { $0.cancel() } }
}

extension ParallelFirstTests {
    @Test("QX: a hand-made first-success (pending + resolver) skips the broken mirror")
    func qx() async throws {
        let get = mirrors()
        #expect(try await outcome(of: qxFirst(get, from: ["broken", "good"])).get() as? String == "file@good")
    }

    @Test("QX: the hand-made race rejects once every mirror failed; finally stops the losers")
    func qxAllFailAndCleanup() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        let failed = try await outcome(of: qxFirst(get, from: ["broken", "broken"]))
        #expect(rejection(of: failed) as? TestError == TestError(500))
        #expect(try await outcome(of: qxFirst(get, from: ["slow", "fast"])).get() as? String == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))
    }
}

// MARK: - Scenario 5: series and parallel combined

/// QX: the same shape; the link observes the `QXPromise.all` the block returned.
private func qxCombined(_ book: AddressBook) -> QXPromise {
    book.user.qx("u1")
        .then { user in book.contacts.qx(user as! User) }
        .then { contacts in QXPromise.all((contacts as! [Contact]).map { book.avatar.qx($0) }) }
}

extension SeriesAndParallelTests {
    @Test("QX: then, then QXPromise.all")
    func qx() async throws {
        let book = gatheredBook()
        let values = try await outcome(of: qxCombined(book)).get() as! [PromiseValue]
        #expect(values.map { $0 as? Avatar } == AddressBook.expectedAvatars)
        #expect(steps(book.log) == combinedSteps)
    }
}

// MARK: - Scenario 6: the checkout workflow (order, pay, check, one error handler)

// snippet: checkout-qx
/// QX: untyped steps; the `catch` block decides what follows (rethrow to stay rejected).
func qxCheckout(_ shop: Shop, onError: @escaping @Sendable (any Error) -> Void) -> QXPromise {
    shop.order.qx("c1")
        .then { order in shop.pay.qx(order as! Order) }
        .then { receipt in shop.check.qx(receipt as! Receipt) }
        .catch { error in
            onError(error)
            throw error
        }
}
// end-snippet

extension CheckoutWorkflowTests {
    @Test("QX: the three steps run in order and the handler is not called")
    func qx() async throws {
        let shop = Shop(paymentFails: false)
        let errors = Recorder<String>()
        let result = try await outcome(of: qxCheckout(shop) { errors.record("\($0)") })
        #expect(try result.get() as? Confirmation == confirmed)
        #expect(shop.log.all == Shop.happyLog)
        #expect(errors.all.isEmpty)
    }

    @Test("QX: payment declined: check is skipped, the handler runs once and rethrows")
    func qxDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        let result = try await outcome(of: qxCheckout(shop) { errors.record($0) })
        #expect(rejection(of: result) is PaymentDeclined)
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(shop.log.all == Shop.declinedLog)
    }
}

// MARK: - Scenario 7: the list loader (cache first, then remote, then aggregate)

/// QX: the cache is reported through the design's progress channel, `(proportion, value)`. The
/// handler is registered before the work starts: progress is observed with `.new` only, so a
/// handler added after a report never sees it.
private func qxLoadList(
    _ sources: ListSources, flag: CancellationFlag = CancellationFlag(),
    progress: @escaping @Sendable (Double, PromiseValue) -> Void = { _, _ in }
) -> QXPromise {
    let (list, resolver) = QXPromise.pending()
    list.progress(progress)
    let remote = sources.cache.qx("list").then { cached in
        resolver.progress(0.5, cached)
        try flag.check()
        flag.onCancel { sources.remote.inFlight.forEach { $0.cancel() } }
        return sources.remote.qx("list").then { remote in
            aggregate(cached: cached as! [String], remote: remote as! [String])
        }
    }
    resolver.fulfill(remote)  // the list follows the chain (a QXPromise is observed)
    return list
}

extension ListLoaderTests {
    @Test("QX: the cache arrives through progress, before the aggregated result")
    func qx() async throws {
        let sources = ListSources(remote: .answers)
        let events = Recorder<String>()
        let list = qxLoadList(sources) { proportion, cached in
            events.record("progress \(proportion) \(cached as! [String])")
        }
        let result = try await awaitCompletion("the QX list") { complete in
            list.then { value in
                events.record("result")
                complete(.success(value as! [String]))
                return nil
            }
        }
        #expect(result == expected)
        #expect(events.all == ["progress 0.5 [\"c1\", \"r1\"]", "result"])
    }

    @Test("QX: the remote request fails: progress came first, then the error")
    func qxFails() async throws {
        let sources = ListSources(remote: .fails)
        let events = Recorder<String>()
        let list = qxLoadList(sources) { proportion, _ in events.record("progress \(proportion)") }
        let caught = try await awaitCompletion("the QX error") { complete in
            list.catch { error in
                events.record("error")
                complete(.success(error as! TestError))
                return nil
            }
        }
        #expect(caught == TestError(503))
        #expect(events.all == ["progress 0.5", "error"])
    }

    @Test("QX: no cancellation; a caller's flag stops the request, the list rejects with CancellationError")
    func qxFlag() async throws {
        let sources = ListSources(remote: .hangs)
        let flag = CancellationFlag()
        let list = qxLoadList(sources, flag: flag)
        try await sources.remote.waitForCalls()
        flag.cancel()
        #expect(rejection(of: try await outcome(of: list)) is CancellationError)
        #expect(sources.log.all.last == "✕ remote(list)")
    }
}
