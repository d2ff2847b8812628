// Cases this port adds to promises-aplus-tests. They are not among the 648 (those are the
// JavaScript suite's cases) and they sit under their own heading, so every JS case keeps its
// name. The first group targets a mistake the JS suite catches only in 3 cases that are about
// something else; the second states its mirror rule.

extension SuiteBuilder {
    /// The heading of every addition; ``APlusCase/clause`` reports them as `Additions`.
    static var additionsHeading: String { "Additions: cases this port adds to promises-aplus-tests" }

    func additions() {
        describe(Self.additionsHeading) {
            // `then(f, r)` written as `then(f)` followed by a recovery with `r` (the likeliest
            // adapter mistake) lets `r` see what `f` throws. The JS suite catches that only in
            // 2.2.6.1's "one of which throws" (3 cases).
            describe(
                "2.2.7.2 with both callbacks: when `onFulfilled` throws `e`, `promise2` is rejected with `e` and the same `then`'s `onRejected` is not called"
            ) {
                for kind in ReasonKind.all {
                    describe("The reason is \(kind.name)") {
                        testFulfilled(Fixture.dummy) { promise1, context in
                            let thrown = Self.made(kind, context)
                            let promise2 = promise1.then(
                                onFulfilled: { _ in throw thrown },
                                onRejected: { reason in
                                    context.fail(
                                        "`onRejected` was called with \(reason), which its own `onFulfilled` threw")
                                    return nil
                                }
                            )
                            Self.rejects(expecting: "\(thrown)") { kind.matches($0, thrown) }(promise2, context)
                        }
                    }
                }
            }
            // The mirror rule: `then(f, r)` written as a recovery with `r` followed by `then(f)`
            // lets `f` see what `r` returned. The JS suite already catches that mistake in most of
            // its cases (it observes promises with `then(f, r)`); these state the rule directly.
            describe(
                "2.2.7.1 with both callbacks: when `onRejected` returns `x`, `promise2` is fulfilled with `x` and the same `then`'s `onFulfilled` is not called"
            ) {
                testRejected(Fixture.dummyError) { promise1, context in
                    let promise2 = promise1.then(
                        onFulfilled: { value in
                            context.fail(
                                "`onFulfilled` was called with \(show(value)), which its own `onRejected` returned")
                            return nil
                        },
                        onRejected: { _ in Fixture.sentinel }
                    )
                    Self.fulfills(with: Fixture.sentinel)(promise2, context)
                }
            }
        }
    }
}
