import AYPromises
import Dispatch
import FBLPromises
import QNTasks
import QXPromises
import TestSupport
import Testing

// Scenario 1: one asynchronous operation. Each design wraps the same callback API (a
// `FakeEndpoint`) the way its users would, once; the other scenarios reuse these wrappers.

// MARK: - The four ways to wrap a callback API

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

    /// Swift concurrency, the reference: an `async` function over the callback API; the call
    /// starts when the function is called, and cancelling the calling task cancels the request.
    func async(_ input: Input) async throws -> Output {
        // The flag of scenario 7: a cancel before the call started cancels it as it starts.
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let started = call(input) { result in continuation.resume(with: result) }
                flag.onCancel { started.cancel() }
            }
        } onCancel: {
            flag.cancel()
        }
    }
}

@Suite("Scenario 1: one async operation")
struct OneAsyncOperationTests {
    let book = AddressBook()
    let failing = FakeEndpoint<String, User>("user", log: Recorder()) { _ in .failure(TestError(1)) }

    // MARK: FBL

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

    // MARK: AY

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

    // MARK: QX

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

    // MARK: QN

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

    // MARK: Swift concurrency

    @Test("Swift concurrency: the request starts when the function is called; the caller resumes with the value")
    func swiftConcurrency() async throws {
        #expect(try await book.user.async("u1") == User(id: "u1"))
        #expect(book.log.all == ["→ user(u1)", "← user(u1)"])
    }

    @Test("Swift concurrency: a failed request throws; do/catch sees the error")
    func swiftConcurrencyFails() async throws {
        do {
            _ = try await failing.async("u1")
            Issue.record("did not throw")
        } catch {
            #expect(error as? TestError == TestError(1))
        }
    }

    @Test("Swift concurrency: cancelling the Task before the answer cancels the request; it throws CancellationError")
    func swiftConcurrencyCancelled() async throws {
        let log = Recorder<String>()
        let slow = FakeEndpoint<String, User>("user", log: log, latency: { _ in .never }) { .success(User(id: $0)) }
        let task = Task { try await slow.async("u1") }
        try await slow.waitForCalls()
        task.cancel()
        let result = try await awaitOutcome("the cancelled task") { try await task.value }
        #expect(rejection(of: result) is CancellationError)
        #expect(log.all == ["→ user(u1)", "✕ user(u1)"])
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
