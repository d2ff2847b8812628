import Dispatch
import QNTasks
import TestSupport
import Testing

// QN's version of every scenario of ScenarioTests: its wrap of the callback API, how a test
// waits for an QN task's outcome, and, scenario by scenario, its style function and its tests
// in an extension of the scenario's suite. The scenario files beside this folder describe each
// scenario and hold its suite, its fixtures and the Swift concurrency baseline.

// MARK: - The wrap of the callback API, and waiting for an outcome

extension FakeEndpoint {
    /// QN: a manual task: nothing is called until the task is started; cancelling the task
    /// cancels the request.
    func qn(_ input: Input) -> QNAsyncManualTask<Output> {
        QNAsyncManualTask(taskID: "\(name)(\(input))") { task in
            let call = self.call(input) { result in
                switch result {
                case .success(let value): task.succeed(value)
                case .failure(let error): task.fail(error)
                }
            }
            task.onCancel { call.cancel() }
        }
    }
}

/// Starts a QN task and waits for its outcome (delivered on `queue`).
func outcome<Result: Sendable>(
    of task: QNAsyncTask<Result>, on queue: DispatchQueue = .main
) async throws
    -> QNTaskOutcome<Result>
{
    try await awaitCompletion("the QN task \(task.taskID)") { complete in
        task.start(on: queue) { complete(.success($0)) }
    }
}

// MARK: - Scenario 1: one async operation

extension OneAsyncOperationTests {
    @Test("QN: nothing is called until start; the completion gets a three-case outcome")
    func qn() async throws {
        let task = book.user.qn("u1")
        try await mainQueueDrained()
        #expect(book.log.all.isEmpty)  // lazy: a task does nothing until started
        let result = try await awaitCompletion("the QN outcome") { complete in
            task.start(on: .main) { outcome in
                #expect(MainQueue.isCurrent)
                complete(.success(outcome))
            }
        }
        #expect(result.value == User(id: "u1"))
        #expect(book.log.all == ["→ user(u1)", "← user(u1)"])
    }

    @Test("QN: a failed request fails the task; the original's success/failure form gets the error")
    func qnFails() async throws {
        let error = try await awaitCompletion("the failure") { complete in
            failing.qn("u1").start(on: .main, success: { _ in Issue.record("succeeded") }) { error in
                complete(.success(error))
            }
        }
        #expect(error as? TestError == TestError(1))
    }

    @Test("QN: cancelling the task before the answer cancels the request; the outcome is .cancelled")
    func qnCancelled() async throws {
        let log = Recorder<String>()
        let slow = FakeEndpoint<String, User>("user", log: log, latency: { _ in .never }) { .success(User(id: $0)) }
        let task = slow.qn("u1")
        let result = try await awaitCompletion("the QN outcome") { complete in
            task.start(on: .main) { complete(.success($0)) }
            task.cancel()
        }
        #expect(result.isCancelled)
        #expect(log.all == ["→ user(u1)", "✕ user(u1)"])
    }
}

// MARK: - Scenario 2: a series (user, contacts, avatars)

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

extension SeriesTests {
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
}

// MARK: - Scenario 3: parallel, all results (download N images)

/// QN: a parallel task of manual sub-tasks, typed; started by the caller.
private func qnAll(_ book: AddressBook) -> QNAsyncParallelTask<[Avatar]> {
    QNAsyncParallelTask(taskID: "avatars", all: contacts.map { book.avatar.qn($0) })
}

extension ParallelAllTests {
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
}

// MARK: - Scenario 4: parallel, first result

/// QN: `QNAsyncParallelTask(firstSuccessOf:)` succeeds with the first success and cancels the
/// others (their requests are stopped through `onCancel`).
private func qnFirst(_ get: FakeEndpoint<String, String>, from names: [String]) -> QNAsyncParallelTask<String> {
    QNAsyncParallelTask(taskID: "first", firstSuccessOf: names.map { get.qn($0) })
}

extension ParallelFirstTests {
    @Test("QN: firstSuccessOf skips the broken mirror, takes the fast one, cancels the slow one")
    func qn() async throws {
        let log = Recorder<String>()
        let get = mirrors(log)
        #expect(try await outcome(of: qnFirst(get, from: ["broken", "slow", "fast"])).value == "file@fast")
        #expect(log.all.contains("✕ get(slow)"))  // by the design, before the outcome was reported
        #expect(get.inFlight.isEmpty)
    }

    @Test("QN: when every sub-task fails, the task fails with QNAllFailedError")
    func qnAllFail() async throws {
        let result = try await outcome(of: qnFirst(mirrors(), from: ["broken", "broken"]))
        #expect((result.error as? QNAllFailedError)?.errors.count == 2)
    }
}

// MARK: - Scenario 5: series and parallel combined

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

extension SeriesAndParallelTests {
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
}

// MARK: - Scenario 6: the checkout workflow (order, pay, check, one error handler)

// snippet: checkout-qn
/// QN: a serial task; the one error handler is the `failure` callback of `start`.
func qnCheckout(_ shop: Shop) -> QNAsyncSerialTask<Confirmation> {
    QNAsyncSerialTask(
        taskID: "checkout",
        buildBlocks: [
            { _ in .required(shop.order.qn("c1")) },
            { previous in .required(shop.pay.qn(previous!.result(as: Order.self)!)) },
            { previous in .required(shop.check.qn(previous!.result(as: Receipt.self)!)) },
        ],
        resultGenerate: { subStates in subStates.last!.result(as: Confirmation.self)! }
    )
}
// usage: qnCheckout(shop).start(success: { confirmation in ... }, failure: { error in ... })
// end-snippet

extension CheckoutWorkflowTests {
    @Test("QN: the three sub-tasks run in order; success is called once")
    func qn() async throws {
        let shop = Shop(paymentFails: false)
        let confirmation = try await awaitCompletion("the checkout") { complete in
            qnCheckout(shop).start(on: .main, success: { complete(.success($0)) }) { error in
                Issue.record("failed: \(error)")
            }
        }
        #expect(confirmation == confirmed)
        #expect(shop.log.all == Shop.happyLog)
    }

    @Test("QN: payment declined: check is never built, failure is called once")
    func qnDeclined() async throws {
        let shop = Shop(paymentFails: true)
        let errors = Recorder<any Error>()
        try await waitUntil("the failure") { done in
            qnCheckout(shop).start(on: .main, success: { _ in Issue.record("succeeded") }) { error in
                errors.record(error)
                done()
            }
        }
        try await mainQueueDrained()
        #expect(errors.count == 1)
        #expect(errors.all.first is PaymentDeclined)
        #expect(shop.log.all == Shop.declinedLog)
    }
}

// MARK: - Scenario 7: the list loader (cache first, then remote, then aggregate)

/// QN: a serial task; the progress monitor shows the cache, `resultGenerate` aggregates.
private func qnLoadList(
    _ sources: ListSources, show: @escaping @Sendable ([String]) -> Void
)
    -> QNAsyncSerialTask<[String]>
{
    QNAsyncSerialTask(
        taskID: "list",
        buildBlocks: [
            { _ in .optional(sources.cache.qn("list")) },  // a broken cache must not stop the load
            { _ in .required(sources.remote.qn("list")) },
        ],
        progressMonitor: { subState in
            if subState.taskID == "cache(list)", let cached = subState.result(as: [String].self) { show(cached) }
        },
        resultGenerate: { subStates in
            aggregate(
                cached: subStates[0].result(as: [String].self) ?? [], remote: subStates[1].result(as: [String].self)!)
        }
    )
}

extension ListLoaderTests {
    @Test("QN: the progress monitor shows the cache (main queue) before the remote request starts")
    func qn() async throws {
        let sources = ListSources(remote: .answers)
        let events = Recorder<String>()
        let loader = qnLoadList(sources) { cached in
            #expect(MainQueue.isCurrent)
            events.record("shown \(cached)")
        }
        #expect(try await outcome(of: loader).value == expected)
        #expect(events.all == ["shown [\"c1\", \"r1\"]"])
        #expect(sources.log.all == ["→ cache(list)", "← cache(list)", "→ remote(list)", "← remote(list)"])
    }

    @Test("QN: the remote request fails: the cache was shown, the task fails once, nothing aggregated")
    func qnFails() async throws {
        let sources = ListSources(remote: .fails)
        let screen = Screen()
        let result = try await outcome(of: qnLoadList(sources, show: screen.show))
        #expect(result.error as? TestError == TestError(503))
        #expect(screen.shown.all == [["c1", "r1"]])
    }

    @Test("QN: cancelling the Swift Task that awaits the loader cancels the remote request")
    func qnCancelledThroughConcurrency() async throws {
        let sources = ListSources(remote: .hangs)
        let screen = Screen()
        let loader = qnLoadList(sources, show: screen.show)
        let waiting = Task { try await loader.value }  // starts the task
        try await sources.remote.waitForCalls()
        // The request is logged from inside the remote task's start block, which runs on the main
        // queue and registers its cancellation handler only after the call returns; a main-queue
        // hop queued now runs after that block, so the cancel below finds the handler.
        try await mainQueueDrained()
        waiting.cancel()
        let result = try await awaitOutcome("the awaiting Task") { try await waiting.value }
        #expect(rejection(of: result) is CancellationError)
        #expect(loader.state == .cancelled)
        #expect(sources.log.all.last == "✕ remote(list)")
        #expect(screen.shown.all == [["c1", "r1"]])
    }
}
