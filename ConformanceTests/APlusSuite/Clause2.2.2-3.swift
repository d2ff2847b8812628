// 2.2.2.js and 2.2.3.js: a callback is called after settlement, with the value or reason, and
import PromiseInterface

// only once.

extension SuiteBuilder {
    /// Records one call of a callback that must be called exactly once: the first call ends the
    /// case after a 50 ms grace window (the JS suite's late double `done`), a second call fails it.
    private static func recordCall(_ counter: Box<Int>, of callback: String, _ context: CaseContext) {
        let calls = counter.update { count -> Int in
            count += 1
            return count
        }
        if calls == 1 {
            context.afterWindow(50) { context.done() }
        } else {
            context.fail("\(callback) was called \(calls) times")
        }
    }

    func clause2_2_2() {
        describe("2.2.2: If `onFulfilled` is a function,") {
            describe(
                "2.2.2.1: it must be called after `promise` is fulfilled, with `promise`’s fulfillment value as its first argument."
            ) {
                testFulfilled(Fixture.sentinel, Self.fulfills(with: Fixture.sentinel))
            }
            describe("2.2.2.2: it must not be called before `promise` is fulfilled") {
                specify("fulfilled after a delay") { context in
                    let deferred = P.deferred()
                    let isFulfilled = Box(false)
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            context.check(isFulfilled.value, "onFulfilled ran before the promise was fulfilled")
                            context.done()
                            return nil
                        },
                        onRejected: nil
                    )
                    context.after(50) {
                        deferred.resolve(Fixture.dummy)
                        isFulfilled.value = true
                    }
                }
                specify("never fulfilled") { context in
                    let deferred = P.deferred()
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            context.fail("onFulfilled was called on a promise that was never fulfilled")
                            return nil
                        },
                        onRejected: nil
                    )
                    context.after(150) { context.done() }
                }
            }
            describe("2.2.2.3: it must not be called more than once.") {
                specify("already-fulfilled") { context in
                    let calls = Box(0)
                    _ = P.resolved(Fixture.dummy).then(
                        onFulfilled: { _ in
                            Self.recordCall(calls, of: "onFulfilled", context)
                            return nil
                        },
                        onRejected: nil
                    )
                }
                let attempts: [(String, @Sendable (Deferred<P>, CaseContext) -> Void)] = [
                    (
                        "trying to fulfill a pending promise more than once, immediately",
                        { deferred, _ in
                            deferred.resolve(Fixture.dummy)
                            deferred.resolve(Fixture.dummy)
                        }
                    ),
                    (
                        "trying to fulfill a pending promise more than once, delayed",
                        { deferred, context in
                            context.after(50) {
                                deferred.resolve(Fixture.dummy)
                                deferred.resolve(Fixture.dummy)
                            }
                        }
                    ),
                    (
                        "trying to fulfill a pending promise more than once, immediately then delayed",
                        {
                            deferred, context in
                            deferred.resolve(Fixture.dummy)
                            context.after(50) { deferred.resolve(Fixture.dummy) }
                        }
                    ),
                ]
                for (name, settle) in attempts {
                    specify(name) { context in
                        let deferred = P.deferred()
                        let calls = Box(0)
                        _ = deferred.promise.then(
                            onFulfilled: { _ in
                                Self.recordCall(calls, of: "onFulfilled", context)
                                return nil
                            },
                            onRejected: nil
                        )
                        settle(deferred, context)
                    }
                }
                specify("when multiple `then` calls are made, spaced apart in time") { context in
                    Self.spacedApartThens(context) { promise, handler in
                        _ = promise.then(onFulfilled: { _ in handler() }, onRejected: nil)
                    } settle: { deferred in
                        deferred.resolve(Fixture.dummy)
                    }
                }
                specify("when `then` is interleaved with fulfillment") { context in
                    Self.interleavedThens(context) { promise, handler in
                        _ = promise.then(onFulfilled: { _ in handler() }, onRejected: nil)
                    } settle: { deferred in
                        deferred.resolve(Fixture.dummy)
                    }
                }
            }
        }
    }

    func clause2_2_3() {
        describe("2.2.3: If `onRejected` is a function,") {
            describe(
                "2.2.3.1: it must be called after `promise` is rejected, with `promise`’s rejection reason as its first argument."
            ) {
                testRejected(Fixture.sentinelError, Self.rejects(with: Fixture.sentinelError))
            }
            describe("2.2.3.2: it must not be called before `promise` is rejected") {
                specify("rejected after a delay") { context in
                    let deferred = P.deferred()
                    let isRejected = Box(false)
                    _ = deferred.promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            context.check(isRejected.value, "onRejected ran before the promise was rejected")
                            context.done()
                            return nil
                        }
                    )
                    context.after(50) {
                        deferred.reject(Fixture.dummyError)
                        isRejected.value = true
                    }
                }
                specify("never rejected") { context in
                    let deferred = P.deferred()
                    _ = deferred.promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            context.fail("onRejected was called on a promise that was never rejected")
                            return nil
                        }
                    )
                    context.after(150) { context.done() }
                }
            }
            describe("2.2.3.3: it must not be called more than once.") {
                specify("already-rejected") { context in
                    let calls = Box(0)
                    _ = P.rejected(Fixture.dummyError).then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            Self.recordCall(calls, of: "onRejected", context)
                            return nil
                        }
                    )
                }
                let attempts: [(String, @Sendable (Deferred<P>, CaseContext) -> Void)] = [
                    (
                        "trying to reject a pending promise more than once, immediately",
                        { deferred, _ in
                            deferred.reject(Fixture.dummyError)
                            deferred.reject(Fixture.dummyError)
                        }
                    ),
                    (
                        "trying to reject a pending promise more than once, delayed",
                        { deferred, context in
                            context.after(50) {
                                deferred.reject(Fixture.dummyError)
                                deferred.reject(Fixture.dummyError)
                            }
                        }
                    ),
                    (
                        "trying to reject a pending promise more than once, immediately then delayed",
                        {
                            deferred, context in
                            deferred.reject(Fixture.dummyError)
                            context.after(50) { deferred.reject(Fixture.dummyError) }
                        }
                    ),
                ]
                for (name, settle) in attempts {
                    specify(name) { context in
                        let deferred = P.deferred()
                        let calls = Box(0)
                        _ = deferred.promise.then(
                            onFulfilled: nil,
                            onRejected: { _ in
                                Self.recordCall(calls, of: "onRejected", context)
                                return nil
                            }
                        )
                        settle(deferred, context)
                    }
                }
                specify("when multiple `then` calls are made, spaced apart in time") { context in
                    Self.spacedApartThens(context) { promise, handler in
                        _ = promise.then(onFulfilled: nil, onRejected: { _ in handler() })
                    } settle: { deferred in
                        deferred.reject(Fixture.dummyError)
                    }
                }
                specify("when `then` is interleaved with rejection") { context in
                    Self.interleavedThens(context) { promise, handler in
                        _ = promise.then(onFulfilled: nil, onRejected: { _ in handler() })
                    } settle: { deferred in
                        deferred.reject(Fixture.dummyError)
                    }
                }
            }
        }
    }

    /// Three `then` calls at 0, 50 and 100 ms, settled at 150 ms: each handler runs exactly once.
    private static func spacedApartThens(
        _ context: CaseContext,
        attach: @escaping @Sendable (P, @escaping @Sendable () -> PromiseValue) -> Void,
        settle: @escaping @Sendable (Deferred<P>) -> Void
    ) {
        let deferred = P.deferred()
        let calls = Box([0, 0, 0])
        func handler(_ index: Int) -> @Sendable () -> PromiseValue {
            {
                let count = calls.update { counts -> Int in
                    counts[index] += 1
                    return counts[index]
                }
                context.check(count == 1, "handler \(index + 1) was called \(count) times")
                if index == 2 {
                    context.afterWindow(50) {
                        context.check(calls.value == [1, 1, 1], "handlers were called \(calls.value) times")
                        context.done()
                    }
                }
                return nil
            }
        }
        let first = handler(0)
        let second = handler(1)
        let third = handler(2)
        attach(deferred.promise, first)
        context.after(50) { attach(deferred.promise, second) }
        context.after(100) { attach(deferred.promise, third) }
        context.after(150) { settle(deferred) }
    }

    /// `then`, settle, `then`: each handler runs exactly once.
    private static func interleavedThens(
        _ context: CaseContext,
        attach: @escaping @Sendable (P, @escaping @Sendable () -> PromiseValue) -> Void,
        settle: @escaping @Sendable (Deferred<P>) -> Void
    ) {
        let deferred = P.deferred()
        let calls = Box([0, 0])
        func handler(_ index: Int) -> @Sendable () -> PromiseValue {
            {
                let count = calls.update { counts -> Int in
                    counts[index] += 1
                    return counts[index]
                }
                context.check(count == 1, "handler \(index + 1) was called \(count) times")
                if index == 1 {
                    context.afterWindow(50) {
                        context.check(calls.value == [1, 1], "handlers were called \(calls.value) times")
                        context.done()
                    }
                }
                return nil
            }
        }
        attach(deferred.promise, handler(0))
        settle(deferred)
        attach(deferred.promise, handler(1))
    }
}
