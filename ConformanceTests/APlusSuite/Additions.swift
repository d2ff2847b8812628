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
                                        "`onRejected` was called with \(reason), which its own `onFulfilled` threw; expected only `promise2` to reject with it"
                                    )
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
                                "`onFulfilled` was called with \(show(value)), which its own `onRejected` returned; expected only `promise2` to fulfil with it"
                            )
                            return nil
                        },
                        onRejected: { _ in Fixture.sentinel }
                    )
                    Self.fulfills(with: Fixture.sentinel)(promise2, context)
                }
            }
            lateRegistration()
        }
    }

    /// A `then` registered late must see the first outcome, and must not run earlier handlers
    /// again: the JS suite registers no `then` after a second settle attempt, so a promise whose
    /// second settle overwrites its state without calling anyone passes it, and none after the
    /// handlers ran, so a promise that runs its whole handler list again for each late `then`
    /// fails only where a handler counts its calls.
    private func lateRegistration() {
        describe(
            "A late `then` (2.1.2, 2.1.3): a `then` registered after a second settle attempt, or after the handlers ran, sees the first outcome, and no earlier handler runs again"
        ) {
            for side in [Side.fulfilment, .rejection] {
                for second in [side, side.opposite] {
                    specify("registered after an attempt to \(second.verb) the \(side.participle) promise") { context in
                        let deferred = P.deferred()
                        _ = Self.then(
                            deferred.promise, on: side, Self.expectsFirst(side, "the `then` registered first", context))
                        Self.settle(deferred, side, first: true)
                        Self.settle(deferred, second, first: false)
                        _ = Self.then(
                            deferred.promise, on: side,
                            Self.expectsFirst(
                                side, "the `then` registered after the second attempt", context, done: true),
                            other: Self.wrongSide(side, "the `then` registered after the second attempt", context))
                    }
                }
                specify("registered after the handlers ran, on a \(side.participle) promise") { context in
                    let deferred = P.deferred()
                    let firstHandlerCalls = Box(0)
                    let expectsFirst = Self.expectsFirst(side, "the `then` registered first", context)
                    _ = Self.then(deferred.promise, on: side) { argument in
                        let calls = firstHandlerCalls.update { calls -> Int in
                            calls += 1
                            return calls
                        }
                        context.check(
                            calls == 1,
                            "the handler registered first ran again (\(calls) times in all) when a later `then` was registered, expected once"
                        )
                        guard calls == 1 else { return nil }
                        context.after(0) {
                            _ = Self.then(
                                deferred.promise, on: side,
                                { argument in
                                    _ = try expectsFirst(argument)
                                    context.afterWindow(50) { context.done() }
                                    return nil
                                }, other: Self.wrongSide(side, "the `then` registered after the handlers ran", context))
                        }
                        return try expectsFirst(argument)
                    }
                    Self.settle(deferred, side, first: true)
                }
            }
        }
    }

    /// Settles `deferred` on `side` with the sentinel (`first`) or with `other`.
    static func settle(_ deferred: APlusDeferred<P>, _ side: Side, first: Bool) {
        if side.isFulfilment {
            deferred.resolve(first ? Fixture.sentinel : Fixture.other)
        } else {
            deferred.reject(first ? Fixture.sentinelError : Fixture.otherError)
        }
    }

    /// A handler that checks it got the first outcome of `side` (the sentinel), and ends the case
    /// when `done`.
    static func expectsFirst(
        _ side: Side, _ name: String, _ context: CaseContext, done: Bool = false
    ) -> SideHandler {
        { argument in
            let isFirst =
                side.isFulfilment
                ? (argument as? Marker) === Fixture.sentinel : (argument as? MarkerError) === Fixture.sentinelError
            context.check(
                isFirst,
                "\(name) was called with \(describeArgument(argument)), expected the first \(side.noun), with the sentinel"
            )
            if done { context.done() }
            return nil
        }
    }

    /// A handler for the side that must not be called: records the failure and ends the case.
    static func wrongSide(_ side: Side, _ name: String, _ context: CaseContext) -> SideHandler {
        { argument in
            context.fail(
                "\(name) saw \(side.opposite.participle == "fulfilled" ? "a fulfilment" : "a rejection") "
                    + "with \(describeArgument(argument)), after the promise was \(side.participle) first; expected never"
            )
            context.done()
            return nil
        }
    }
}
