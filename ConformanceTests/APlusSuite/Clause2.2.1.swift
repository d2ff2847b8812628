// 2.2.1.js: both callbacks are optional. Swift closures cannot be `5` or `{}`, so the JS suite's

// five non-functions per group become one `nil`.

extension SuiteBuilder {
    func clause2_2_1() {
        describe("2.2.1: Both `onFulfilled` and `onRejected` are optional arguments.") {
            describe("2.2.1.1: If `onFulfilled` is not a function, it must be ignored.") {
                describe("applied to a directly-rejected promise") {
                    specify("`onFulfilled` is nil") { context in
                        _ = P.rejected(Fixture.dummyError).then(
                            onFulfilled: nil,
                            onRejected: { _ in
                                context.done()
                                return nil
                            }
                        )
                    }
                }
                describe("applied to a promise rejected and then chained off of") {
                    specify("`onFulfilled` is nil") { context in
                        _ = P.rejected(Fixture.dummyError)
                            .then(onFulfilled: { _ in nil }, onRejected: nil)
                            .then(
                                onFulfilled: nil,
                                onRejected: { _ in
                                    context.done()
                                    return nil
                                }
                            )
                    }
                }
            }
            describe("2.2.1.2: If `onRejected` is not a function, it must be ignored.") {
                describe("applied to a directly-fulfilled promise") {
                    specify("`onRejected` is nil") { context in
                        _ = P.resolved(Fixture.dummy).then(
                            onFulfilled: { _ in
                                context.done()
                                return nil
                            },
                            onRejected: nil
                        )
                    }
                }
                describe("applied to a promise fulfilled and then chained off of") {
                    specify("`onRejected` is nil") { context in
                        _ = P.resolved(Fixture.dummy)
                            .then(onFulfilled: nil, onRejected: { _ in nil })
                            .then(
                                onFulfilled: { _ in
                                    context.done()
                                    return nil
                                },
                                onRejected: nil
                            )
                    }
                }
            }
        }
    }
}
