// 2.1.2.js and 2.1.3.js: a settled promise never changes state.
import PromiseInterface

extension SuiteBuilder {
    func clause2_1_2() {
        describe("2.1.2.1: When fulfilled, a promise: must not transition to any other state.") {
            testFulfilled(Fixture.dummy) { promise, context in
                _ = promise.then(
                    onFulfilled: { _ in nil },
                    onRejected: { _ in
                        context.fail("onRejected was called on a fulfilled promise")
                        return nil
                    }
                )
                context.after(100) { context.done() }
            }
            let attempts: [(String, @Sendable (Deferred<P>, CaseContext) -> Void)] = [
                (
                    "trying to fulfill then immediately reject",
                    { deferred, _ in
                        deferred.resolve(Fixture.dummy)
                        deferred.reject(Fixture.dummyError)
                    }
                ),
                (
                    "trying to fulfill then reject, delayed",
                    { deferred, context in
                        context.after(50) {
                            deferred.resolve(Fixture.dummy)
                            deferred.reject(Fixture.dummyError)
                        }
                    }
                ),
                (
                    "trying to fulfill immediately then reject delayed",
                    { deferred, context in
                        deferred.resolve(Fixture.dummy)
                        context.after(50) { deferred.reject(Fixture.dummyError) }
                    }
                ),
            ]
            for (name, settle) in attempts {
                specify(name) { context in
                    let deferred = P.deferred()
                    let fulfilled = Box(false)
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            fulfilled.value = true
                            return nil
                        },
                        onRejected: { _ in
                            context.fail("onRejected was called after the promise was fulfilled")
                            return nil
                        }
                    )
                    settle(deferred, context)
                    context.afterWindow(100, until: { fulfilled.value }) {
                        context.check(fulfilled.value, "onFulfilled was never called")
                        context.done()
                    }
                }
            }
        }
    }

    func clause2_1_3() {
        describe("2.1.3.1: When rejected, a promise: must not transition to any other state.") {
            testRejected(Fixture.dummyError) { promise, context in
                _ = promise.then(
                    onFulfilled: { _ in
                        context.fail("onFulfilled was called on a rejected promise")
                        return nil
                    },
                    onRejected: { _ in nil }
                )
                context.after(100) { context.done() }
            }
            let attempts: [(String, @Sendable (Deferred<P>, CaseContext) -> Void)] = [
                (
                    "trying to reject then immediately fulfill",
                    { deferred, _ in
                        deferred.reject(Fixture.dummyError)
                        deferred.resolve(Fixture.dummy)
                    }
                ),
                (
                    "trying to reject then fulfill, delayed",
                    { deferred, context in
                        context.after(50) {
                            deferred.reject(Fixture.dummyError)
                            deferred.resolve(Fixture.dummy)
                        }
                    }
                ),
                (
                    "trying to reject immediately then fulfill delayed",
                    { deferred, context in
                        deferred.reject(Fixture.dummyError)
                        context.after(50) { deferred.resolve(Fixture.dummy) }
                    }
                ),
            ]
            for (name, settle) in attempts {
                specify(name) { context in
                    let deferred = P.deferred()
                    let rejected = Box(false)
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            context.fail("onFulfilled was called after the promise was rejected")
                            return nil
                        },
                        onRejected: { _ in
                            rejected.value = true
                            return nil
                        }
                    )
                    settle(deferred, context)
                    context.afterWindow(100, until: { rejected.value }) {
                        context.check(rejected.value, "onRejected was never called")
                        context.done()
                    }
                }
            }
        }
    }
}
