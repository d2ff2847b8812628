// 2.2.4.js: callbacks run on a fresh stack, never before `then` (or the settling call) returns.

extension SuiteBuilder {
    func clause2_2_4() {
        describe(
            "2.2.4: `onFulfilled` or `onRejected` must not be called until the execution context stack contains only platform code."
        ) {
            describe("`then` returns before the promise becomes fulfilled or rejected") {
                testFulfilled(Fixture.dummy) { promise, context in
                    let thenHasReturned = Box(false)
                    _ = promise.then(
                        onFulfilled: { _ in
                            context.check(
                                thenHasReturned.value, "onFulfilled ran before `then` returned, expected after")
                            context.done()
                            return nil
                        },
                        onRejected: nil
                    )
                    thenHasReturned.value = true
                }
                testRejected(Fixture.dummyError) { promise, context in
                    let thenHasReturned = Box(false)
                    _ = promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            context.check(
                                thenHasReturned.value, "onRejected ran before `then` returned, expected after")
                            context.done()
                            return nil
                        }
                    )
                    thenHasReturned.value = true
                }
            }
            describe("Clean-stack execution ordering tests (fulfillment case)") {
                specify("when `onFulfilled` is added immediately before the promise is fulfilled") { context in
                    let deferred = P.deferred()
                    let called = Box(false)
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            called.value = true; return nil
                        }, onRejected: nil)
                    deferred.resolve(Fixture.dummy)
                    context.check(!called.value, "onFulfilled ran inside `resolve`, expected after it returned")
                    context.done()
                }
                specify("when `onFulfilled` is added immediately after the promise is fulfilled") { context in
                    let deferred = P.deferred()
                    let called = Box(false)
                    deferred.resolve(Fixture.dummy)
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            called.value = true; return nil
                        }, onRejected: nil)
                    context.check(!called.value, "onFulfilled ran inside `then`, expected after it returned")
                    context.done()
                }
                specify("when one `onFulfilled` is added inside another `onFulfilled`") { context in
                    let promise = P.resolved(nil)
                    let firstFinished = Box(false)
                    _ = promise.then(
                        onFulfilled: { _ in
                            _ = promise.then(
                                onFulfilled: { _ in
                                    context.check(
                                        firstFinished.value,
                                        "the inner onFulfilled ran inside the outer one, expected after it returned")
                                    context.done()
                                    return nil
                                },
                                onRejected: nil
                            )
                            firstFinished.value = true
                            return nil
                        },
                        onRejected: nil
                    )
                }
                specify("when `onFulfilled` is added inside an `onRejected`") { context in
                    let promise = P.resolved(nil)
                    let promise2 = P.rejected(Fixture.dummyError)
                    let firstFinished = Box(false)
                    _ = promise2.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            _ = promise.then(
                                onFulfilled: { _ in
                                    context.check(
                                        firstFinished.value,
                                        "onFulfilled ran inside the onRejected, expected after it returned")
                                    context.done()
                                    return nil
                                },
                                onRejected: nil
                            )
                            firstFinished.value = true
                            return nil
                        }
                    )
                }
                specify("when the promise is fulfilled asynchronously") { context in
                    let deferred = P.deferred()
                    let firstStackFinished = Box(false)
                    context.after(0) {
                        deferred.resolve(Fixture.dummy)
                        firstStackFinished.value = true
                    }
                    _ = deferred.promise.then(
                        onFulfilled: { _ in
                            context.check(
                                firstStackFinished.value, "onFulfilled ran inside `resolve`, expected after it returned"
                            )
                            context.done()
                            return nil
                        },
                        onRejected: nil
                    )
                }
            }
            describe("Clean-stack execution ordering tests (rejection case)") {
                specify("when `onRejected` is added immediately before the promise is rejected") { context in
                    let deferred = P.deferred()
                    let called = Box(false)
                    _ = deferred.promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            called.value = true; return nil
                        })
                    deferred.reject(Fixture.dummyError)
                    context.check(!called.value, "onRejected ran inside `reject`, expected after it returned")
                    context.done()
                }
                specify("when `onRejected` is added immediately after the promise is rejected") { context in
                    let deferred = P.deferred()
                    let called = Box(false)
                    deferred.reject(Fixture.dummyError)
                    _ = deferred.promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            called.value = true; return nil
                        })
                    context.check(!called.value, "onRejected ran inside `then`, expected after it returned")
                    context.done()
                }
                specify("when `onRejected` is added inside an `onFulfilled`") { context in
                    let promise = P.rejected(Fixture.dummyError)
                    let promise2 = P.resolved(nil)
                    let firstFinished = Box(false)
                    _ = promise2.then(
                        onFulfilled: { _ in
                            _ = promise.then(
                                onFulfilled: nil,
                                onRejected: { _ in
                                    context.check(
                                        firstFinished.value,
                                        "onRejected ran inside the onFulfilled, expected after it returned")
                                    context.done()
                                    return nil
                                }
                            )
                            firstFinished.value = true
                            return nil
                        },
                        onRejected: nil
                    )
                }
                specify("when one `onRejected` is added inside another `onRejected`") { context in
                    let promise = P.rejected(Fixture.dummyError)
                    let firstFinished = Box(false)
                    _ = promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            _ = promise.then(
                                onFulfilled: nil,
                                onRejected: { _ in
                                    context.check(
                                        firstFinished.value,
                                        "the inner onRejected ran inside the outer one, expected after it returned")
                                    context.done()
                                    return nil
                                }
                            )
                            firstFinished.value = true
                            return nil
                        }
                    )
                }
                specify("when the promise is rejected asynchronously") { context in
                    let deferred = P.deferred()
                    let firstStackFinished = Box(false)
                    context.after(0) {
                        deferred.reject(Fixture.dummyError)
                        firstStackFinished.value = true
                    }
                    _ = deferred.promise.then(
                        onFulfilled: nil,
                        onRejected: { _ in
                            context.check(
                                firstStackFinished.value, "onRejected ran inside `reject`, expected after it returned")
                            context.done()
                            return nil
                        }
                    )
                }
            }
        }
    }
}
