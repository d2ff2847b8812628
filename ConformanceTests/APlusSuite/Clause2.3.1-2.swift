// 2.3.1.js and 2.3.2.js: resolving with itself is an error; resolving with a promise adopts it.

extension SuiteBuilder {
    func clause2_3_1() {
        describe(
            "2.3.1: If `promise` and `x` refer to the same object, reject `promise` with a `TypeError' as the reason."
        ) {
            let expectCycleError: @Sendable (P, CaseContext) -> Void = { promise, context in
                _ = promise.then(
                    onFulfilled: { value in
                        context.fail("fulfilled with \(show(value)), expected the cycle error")
                        context.done()
                        return nil
                    },
                    onRejected: { reason in
                        context.check(P.isCycleError(reason), "rejected with \(reason), expected the cycle error")
                        context.done()
                        return nil
                    }
                )
            }
            specify("via return from a fulfilled promise") { context in
                let promise = Box<P?>(nil)
                promise.value = P.resolved(Fixture.dummy).then(onFulfilled: { _ in promise.value }, onRejected: nil)
                expectCycleError(promise.value!, context)
            }
            specify("via return from a rejected promise") { context in
                let promise = Box<P?>(nil)
                promise.value = P.rejected(Fixture.dummyError).then(
                    onFulfilled: nil, onRejected: { _ in promise.value })
                expectCycleError(promise.value!, context)
            }
        }
    }

    func clause2_3_2() {
        describe("2.3.2: If `x` is a promise, adopt its state") {
            describe(
                "2.3.2.1: If `x` is pending, `promise` must remain pending until `x` is fulfilled or rejected."
            ) {
                testPromiseResolution({ _ in P.deferred().promise }) { promise, context in
                    _ = promise.then(
                        onFulfilled: { _ in
                            context.fail("fulfilled while x is pending, expected to stay pending until x settles")
                            return nil
                        },
                        onRejected: { _ in
                            context.fail("rejected while x is pending, expected to stay pending until x settles")
                            return nil
                        }
                    )
                    context.after(100) { context.done() }
                }
            }
            describe("2.3.2.2: If/when `x` is fulfilled, fulfill `promise` with the same value.") {
                describe("`x` is already-fulfilled") {
                    testPromiseResolution({ _ in P.resolved(Fixture.sentinel) }, Self.fulfills(with: Fixture.sentinel))
                }
                describe("`x` is eventually-fulfilled") {
                    testPromiseResolution(
                        { context in Self.eventually(context) { $0.resolve(Fixture.sentinel) } },
                        Self.fulfills(with: Fixture.sentinel)
                    )
                }
            }
            describe("2.3.2.3: If/when `x` is rejected, reject `promise` with the same reason.") {
                describe("`x` is already-rejected") {
                    testPromiseResolution(
                        { _ in P.rejected(Fixture.sentinelError) }, Self.rejects(with: Fixture.sentinelError))
                }
                describe("`x` is eventually-rejected") {
                    testPromiseResolution(
                        { context in Self.eventually(context) { $0.reject(Fixture.sentinelError) } },
                        Self.rejects(with: Fixture.sentinelError)
                    )
                }
            }
        }
    }
}
