// 2.2.2.js and 2.2.3.js: a callback is called after settlement, with the value or reason, and
// only once.

extension SuiteBuilder {
    func clause2_2_2() {
        describe("2.2.2: If `onFulfilled` is a function,") {
            describe(
                "2.2.2.1: it must be called after `promise` is fulfilled, with `promise`’s fulfillment value as its first argument."
            ) {
                testFulfilled(Fixture.sentinel, Self.fulfills(with: Fixture.sentinel))
            }
            callbackTiming(.fulfilment, clause: "2.2.2")
        }
    }

    func clause2_2_3() {
        describe("2.2.3: If `onRejected` is a function,") {
            describe(
                "2.2.3.1: it must be called after `promise` is rejected, with `promise`’s rejection reason as its first argument."
            ) {
                testRejected(Fixture.sentinelError, Self.rejects(with: Fixture.sentinelError))
            }
            callbackTiming(.rejection, clause: "2.2.3")
        }
    }

    /// x.2 (not before settlement) and x.3 (not more than once) of 2.2.2 and 2.2.3.
    private func callbackTiming(_ side: Side, clause: String) {
        describe("\(clause).2: it must not be called before `promise` is \(side.participle)") {
            specify("\(side.participle) after a delay") { context in
                let deferred = P.deferred()
                let isSettled = Box(false)
                _ = Self.then(deferred.promise, on: side) { _ in
                    context.check(
                        isSettled.value,
                        "\(side.callback) ran before the promise was \(side.participle), expected it to wait for that")
                    context.done()
                    return nil
                }
                context.after(50) {
                    Self.settle(deferred, side)
                    isSettled.value = true
                }
            }
            specify("never \(side.participle)") { context in
                let deferred = P.deferred()
                _ = Self.then(deferred.promise, on: side) { _ in
                    context.fail(
                        "\(side.callback) was called on a promise that was never \(side.participle), expected never")
                    return nil
                }
                context.after(150) { context.done() }
            }
        }
        describe("\(clause).3: it must not be called more than once.") {
            specify("already-\(side.participle)") { context in
                let calls = Box(0)
                let settled = side.isFulfilment ? P.resolved(Fixture.dummy) : P.rejected(Fixture.dummyError)
                _ = Self.then(settled, on: side) { _ in
                    Self.recordCall(calls, of: side.callback, context)
                    return nil
                }
            }
            let attempts: [(String, @Sendable (APlusDeferred<P>, CaseContext) -> Void)] = [
                (
                    "immediately",
                    { deferred, _ in
                        Self.settle(deferred, side)
                        Self.settle(deferred, side)
                    }
                ),
                (
                    "delayed",
                    { deferred, context in
                        context.after(50) {
                            Self.settle(deferred, side)
                            Self.settle(deferred, side)
                        }
                    }
                ),
                (
                    "immediately then delayed",
                    { deferred, context in
                        Self.settle(deferred, side)
                        context.after(50) { Self.settle(deferred, side) }
                    }
                ),
            ]
            for (timing, settle) in attempts {
                specify("trying to \(side.verb) a pending promise more than once, \(timing)") { context in
                    let deferred = P.deferred()
                    let calls = Box(0)
                    _ = Self.then(deferred.promise, on: side) { _ in
                        Self.recordCall(calls, of: side.callback, context)
                        return nil
                    }
                    settle(deferred, context)
                }
            }
            specify("when multiple `then` calls are made, spaced apart in time") { context in
                Self.spacedApartThens(side, context)
            }
            specify("when `then` is interleaved with \(side.noun)") { context in
                Self.interleavedThens(side, context)
            }
        }
    }

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
            context.fail("\(callback) was called \(calls) times, expected once")
        }
    }

    /// A handler that counts its calls in `calls[index]`, failing on a second call, and runs
    /// `last` after its first call.
    private static func countingHandler(
        _ calls: Box<[Int]>,
        _ index: Int,
        _ context: CaseContext,
        last: (@Sendable () -> Void)? = nil
    ) -> SideHandler {
        { _ in
            let count = calls.update { counts -> Int in
                counts[index] += 1
                return counts[index]
            }
            context.check(count == 1, "handler \(index + 1) was called \(count) times, expected once")
            if count == 1 { last?() }
            return nil
        }
    }

    /// Three `then` calls at 0, 50 and 100 ms, settled at 150 ms: each handler runs exactly once.
    private static func spacedApartThens(_ side: Side, _ context: CaseContext) {
        let deferred = P.deferred()
        let calls = Box([0, 0, 0])
        let finish: @Sendable () -> Void = {
            context.afterWindow(50) {
                context.check(
                    calls.value == [1, 1, 1], "handlers were called \(calls.value) times, expected [1, 1, 1]")
                context.done()
            }
        }
        _ = then(deferred.promise, on: side, countingHandler(calls, 0, context))
        context.after(50) { _ = then(deferred.promise, on: side, countingHandler(calls, 1, context)) }
        context.after(100) { _ = then(deferred.promise, on: side, countingHandler(calls, 2, context, last: finish)) }
        context.after(150) { settle(deferred, side) }
    }

    /// `then`, settle, `then`: each handler runs exactly once.
    private static func interleavedThens(_ side: Side, _ context: CaseContext) {
        let deferred = P.deferred()
        let calls = Box([0, 0])
        let finish: @Sendable () -> Void = {
            context.afterWindow(50) {
                context.check(calls.value == [1, 1], "handlers were called \(calls.value) times, expected [1, 1]")
                context.done()
            }
        }
        _ = then(deferred.promise, on: side, countingHandler(calls, 0, context))
        settle(deferred, side)
        _ = then(deferred.promise, on: side, countingHandler(calls, 1, context, last: finish))
    }
}
