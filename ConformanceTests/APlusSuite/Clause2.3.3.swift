// 2.3.3.js: assimilating a thenable `x`. By default `then` is a method, so the JS cases about
// reading the property (2.3.3.2, "uses the original value", 2.3.3.4) are left out and 2.3.3.1
// checks that `then` is *called* exactly once; `Options.thenProperties` adds those cases, with
// thenables whose `then` is a property, and 2.3.3.1 then counts reads of the property.

extension SuiteBuilder {
    typealias ThenScript = ScriptedThenable.Script

    func clause2_3_3() {
        describe("2.3.3: Otherwise, if `x` is an object or function,") {
            describe("2.3.3.1: Let `then` be `x.then`") {
                describe("`x` is an object with normal Object.prototype") {
                    if options.contains(.thenProperties) {
                        let x: @Sendable (CaseContext) -> ScriptedPropertyThenable = { context in
                            context.local("x") {
                                ScriptedPropertyThenable { _ in { resolvePromise, _ in resolvePromise(nil) } }
                            }
                        }
                        testPromiseResolution(x, Self.fulfills(counting: "read") { x($0).thenReads })
                    } else {
                        let x: @Sendable (CaseContext) -> ScriptedThenable = { context in
                            context.local("x") { ScriptedThenable { resolvePromise, _ in resolvePromise(nil) } }
                        }
                        testPromiseResolution(x, Self.fulfills(counting: "called") { x($0).thenCalls })
                    }
                }
            }
            if options.contains(.thenProperties) {
                clause2_3_3_2()
            }
            describe(
                "2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise`"
            ) {
                describe("Calls with `x` as `this` and two function arguments") {
                    // The receiver and the two non-optional closures are guaranteed by the type
                    // system. The JS case only waits for the promise to fulfil, which a promise
                    // that never calls `then` (and fulfils with `x` itself) also does; this port
                    // adds two checks, as 2.3.3.1 does: `then` was called exactly once, and the
                    // promise holds the value its `resolvePromise` was given.
                    let thenable: @Sendable (CaseContext) -> Box<ScriptedThenable?> = {
                        $0.local("x") { Box<ScriptedThenable?>(nil) }
                    }
                    let resolvedByThen = "the value `then` resolved with"
                    testPromiseResolution(
                        { context in
                            let x = ScriptedThenable { resolvePromise, _ in resolvePromise(resolvedByThen) }
                            thenable(context).value = x
                            return x
                        },
                        { promise, context in
                            _ = promise.then(
                                onFulfilled: { value in
                                    let calls = thenable(context).value?.thenCalls ?? 0
                                    context.check(calls == 1, "`then` was called \(calls) times, expected once")
                                    context.check(
                                        value as? String == resolvedByThen,
                                        "fulfilled with \(show(value)), expected \(show(resolvedByThen)), what `then` resolved with"
                                    )
                                    context.done()
                                    return nil
                                },
                                onRejected: nil
                            )
                        }
                    )
                }
                if options.contains(.thenProperties) {
                    describe("Uses the original value of `then`") {
                        // The JS case never counts its reads, so a second read returns the same
                        // function and the case cannot fail; here a second read finds no function,
                        // and a library that reads again fulfils with `x`, not with the sentinel.
                        testPromiseResolution(
                            { _ in
                                ScriptedPropertyThenable { readNumber in
                                    guard readNumber == 1 else { return nil }
                                    return { resolvePromise, _ in resolvePromise(Fixture.sentinel) }
                                }
                            },
                            Self.fulfills(with: Fixture.sentinel)
                        )
                    }
                }
                clause2_3_3_3_1()
                clause2_3_3_3_2()
                clause2_3_3_3_3()
                clause2_3_3_3_4()
            }
            if options.contains(.thenProperties) {
                clause2_3_3_4()
            }
        }
    }

    /// A test that expects the promise to be fulfilled after `then` was used exactly once
    /// (`count` tells how often it was read or called: `used`).
    private static func fulfills(
        counting used: String, _ count: @escaping @Sendable (CaseContext) -> Int
    )
        -> PromiseTest
    {
        { promise, context in
            _ = promise.then(
                onFulfilled: { _ in
                    let times = count(context)
                    context.check(times == 1, "`then` was \(used) \(times) times, expected once")
                    context.done()
                    return nil
                },
                onRejected: nil
            )
        }
    }

    /// 2.3.3.2: reading `x.then` throws `e`.
    private func clause2_3_3_2() {
        describe(
            "2.3.3.2: If retrieving the property `x.then` results in a thrown exception `e`, reject `promise` with `e` as the reason."
        ) {
            for (name, kind) in ReasonKind.namedAsIn2_3_3 {
                describe("`e` is \(name)") {
                    // One `e` per run of a case, made in the case (the adapter may be called).
                    let e: @Sendable (CaseContext) -> any Error = { context in
                        context.local("e") { Self.made(kind, context) }
                    }
                    testPromiseResolution(
                        { context in ScriptedPropertyThenable { _ in throw e(context) } },
                        { promise, context in
                            let expected = e(context)
                            Self.rejects(expecting: "\(expected)") { kind.matches($0, expected) }(promise, context)
                        }
                    )
                }
            }
        }
    }

    /// 2.3.3.4: `x.then` holds no function, so `x` is a plain value.
    private func clause2_3_3_4() {
        describe("2.3.3.4: If `then` is not a function, fulfill promise with `x`") {
            describe("`then` is `5`") {
                let x: @Sendable (CaseContext) -> ScriptedPropertyThenable = { context in
                    context.local("x") { ScriptedPropertyThenable { _ in nil } }
                }
                testPromiseResolution(
                    x,
                    { promise, context in
                        Self.fulfills(expecting: "`x` itself") { holds($0, x(context)) }(promise, context)
                    }
                )
            }
        }
    }

    /// `testCallingResolvePromise`: `x.then` calls `resolvePromise(y)` synchronously, then
    /// asynchronously, each through both ways into the resolution procedure.
    private func callingResolvePromise(
        _ yFactory: @escaping @Sendable (CaseContext) -> APlusValue,
        _ test: @escaping PromiseTest
    ) {
        describe("`then` calls `resolvePromise` synchronously") {
            testPromiseResolution(
                { context in ScriptedThenable { resolvePromise, _ in resolvePromise(yFactory(context)) } },
                test
            )
        }
        describe("`then` calls `resolvePromise` asynchronously") {
            testPromiseResolution(
                { context in
                    ScriptedThenable { resolvePromise, _ in context.after(0) { resolvePromise(yFactory(context)) } }
                },
                test
            )
        }
    }

    private func clause2_3_3_3_1() {
        describe("2.3.3.3.1: If/when `resolvePromise` is called with value `y`, run `[[Resolve]](promise, y)`") {
            describe("`y` is not a thenable") {
                let values: [(String, APlusValue, @Sendable (APlusValue) -> Bool)] = [
                    ("`undefined`", nil, { $0 == nil }),
                    ("`false`", false, { ($0 as? Bool) == false }),
                    ("`5`", 5, { ($0 as? Int) == 5 }),
                    ("an object", Fixture.sentinel, { isSame($0, Fixture.sentinel) }),
                    (
                        "an array", [Fixture.sentinel],
                        { (($0 as? [Marker]) ?? []).elementsEqual([Fixture.sentinel], by: ===) }
                    ),
                ]
                for (name, y, matches) in values {
                    describe("`y` is \(name)") {
                        callingResolvePromise({ _ in y }, Self.fulfills(expecting: show(y), matches))
                    }
                }
            }
            describe("`y` is a thenable") {
                for factory in ThenableFactory<Adapter>.fulfilled {
                    describe("`y` is \(factory.name)") {
                        callingResolvePromise(
                            { context in factory.make(.value(Fixture.sentinel), context) },
                            Self.fulfills(with: Fixture.sentinel)
                        )
                    }
                }
                for factory in ThenableFactory<Adapter>.rejected(options) {
                    describe("`y` is \(factory.name)") {
                        callingResolvePromise(
                            { context in factory.make(.reason(Fixture.sentinelError), context) },
                            Self.rejects(with: Fixture.sentinelError)
                        )
                    }
                }
            }
            describe("`y` is a thenable for a thenable") {
                for outer in ThenableFactory<Adapter>.fulfilled {
                    for inner in ThenableFactory<Adapter>.fulfilled {
                        describe("`y` is \(outer.name) for \(inner.name)") {
                            callingResolvePromise(
                                { context in
                                    outer.make(.value(inner.make(.value(Fixture.sentinel), context)), context)
                                },
                                Self.fulfills(with: Fixture.sentinel)
                            )
                        }
                    }
                    for inner in ThenableFactory<Adapter>.rejected(options) {
                        describe("`y` is \(outer.name) for \(inner.name)") {
                            callingResolvePromise(
                                { context in
                                    outer.make(.value(inner.make(.reason(Fixture.sentinelError), context)), context)
                                },
                                Self.rejects(with: Fixture.sentinelError)
                            )
                        }
                    }
                }
            }
        }
    }

    private func clause2_3_3_3_2() {
        describe("2.3.3.3.2: If/when `rejectPromise` is called with reason `r`, reject `promise` with `r`") {
            for (name, kind) in ReasonKind.namedAsIn2_3_3 {
                describe("`r` is \(name)") {
                    // One `r` per run of a case, made in the case (the adapter may be called).
                    let r: @Sendable (CaseContext) -> any Error = { context in
                        context.local("r") { Self.made(kind, context) }
                    }
                    let test: PromiseTest = { promise, context in
                        let expected = r(context)
                        Self.rejects(expecting: "\(expected)") { kind.matches($0, expected) }(promise, context)
                    }
                    describe("`then` calls `rejectPromise` synchronously") {
                        testPromiseResolution(
                            { context in ScriptedThenable { _, rejectPromise in rejectPromise(r(context)) } }, test)
                    }
                    describe("`then` calls `rejectPromise` asynchronously") {
                        testPromiseResolution(
                            { context in
                                ScriptedThenable { _, rejectPromise in context.after(0) { rejectPromise(r(context)) } }
                            },
                            test
                        )
                    }
                }
            }
        }
    }

    /// A deferred promise of the library under test that settles 50 ms after it is made.
    private static func settlesLater(_ context: CaseContext, fulfilled: Bool) -> P {
        eventually(context) { deferred in
            if fulfilled {
                deferred.resolve(Fixture.sentinel)
            } else {
                deferred.reject(Fixture.sentinelError)
            }
        }
    }

    private func clause2_3_3_3_3() {
        describe(
            "2.3.3.3.3: If both `resolvePromise` and `rejectPromise` are called, or multiple calls to the same argument are made, the first call takes precedence, and any further calls are ignored."
        ) {
            let sentinel = Fixture.sentinel
            let sentinelError = Fixture.sentinelError
            let other = Fixture.other
            let otherError = Fixture.otherError
            let fulfilled = Self.fulfills(with: sentinel)
            let rejected = Self.rejects(with: sentinelError)
            let scripts: [(String, @Sendable (CaseContext) -> ThenScript, PromiseTest)] = [
                (
                    "calling `resolvePromise` then `rejectPromise`, both synchronously",
                    { _ in
                        { resolvePromise, rejectPromise in
                            resolvePromise(sentinel)
                            rejectPromise(otherError)
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` synchronously then `rejectPromise` asynchronously",
                    { context in
                        { resolvePromise, rejectPromise in
                            resolvePromise(sentinel)
                            context.after(0) { rejectPromise(otherError) }
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` then `rejectPromise`, both asynchronously",
                    { context in
                        { resolvePromise, rejectPromise in
                            context.after(0) { resolvePromise(sentinel) }
                            context.after(0) { rejectPromise(otherError) }
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` with an asynchronously-fulfilled promise, then calling `rejectPromise`, both synchronously",
                    { context in
                        { resolvePromise, rejectPromise in
                            resolvePromise(Self.settlesLater(context, fulfilled: true))
                            rejectPromise(otherError)
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` with an asynchronously-rejected promise, then calling `rejectPromise`, both synchronously",
                    { context in
                        { resolvePromise, rejectPromise in
                            resolvePromise(Self.settlesLater(context, fulfilled: false))
                            rejectPromise(otherError)
                        }
                    }, rejected
                ),
                (
                    "calling `rejectPromise` then `resolvePromise`, both synchronously",
                    { _ in
                        { resolvePromise, rejectPromise in
                            rejectPromise(sentinelError)
                            resolvePromise(other)
                        }
                    }, rejected
                ),
                (
                    "calling `rejectPromise` synchronously then `resolvePromise` asynchronously",
                    { context in
                        { resolvePromise, rejectPromise in
                            rejectPromise(sentinelError)
                            context.after(0) { resolvePromise(other) }
                        }
                    }, rejected
                ),
                (
                    "calling `rejectPromise` then `resolvePromise`, both asynchronously",
                    { context in
                        { resolvePromise, rejectPromise in
                            context.after(0) { rejectPromise(sentinelError) }
                            context.after(0) { resolvePromise(other) }
                        }
                    }, rejected
                ),
                (
                    "calling `resolvePromise` twice synchronously",
                    { _ in
                        { resolvePromise, _ in
                            resolvePromise(sentinel)
                            resolvePromise(other)
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` twice, first synchronously then asynchronously",
                    { context in
                        { resolvePromise, _ in
                            resolvePromise(sentinel)
                            context.after(0) { resolvePromise(other) }
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` twice, both times asynchronously",
                    { context in
                        { resolvePromise, _ in
                            context.after(0) { resolvePromise(sentinel) }
                            context.after(0) { resolvePromise(other) }
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` with an asynchronously-fulfilled promise, then calling it again, both times synchronously",
                    { context in
                        { resolvePromise, _ in
                            resolvePromise(Self.settlesLater(context, fulfilled: true))
                            resolvePromise(other)
                        }
                    }, fulfilled
                ),
                (
                    "calling `resolvePromise` with an asynchronously-rejected promise, then calling it again, both times synchronously",
                    { context in
                        { resolvePromise, _ in
                            resolvePromise(Self.settlesLater(context, fulfilled: false))
                            resolvePromise(other)
                        }
                    }, rejected
                ),
                (
                    "calling `rejectPromise` twice synchronously",
                    { _ in
                        { _, rejectPromise in
                            rejectPromise(sentinelError)
                            rejectPromise(otherError)
                        }
                    }, rejected
                ),
                (
                    "calling `rejectPromise` twice, first synchronously then asynchronously",
                    { context in
                        { _, rejectPromise in
                            rejectPromise(sentinelError)
                            context.after(0) { rejectPromise(otherError) }
                        }
                    }, rejected
                ),
                (
                    "calling `rejectPromise` twice, both times asynchronously",
                    { context in
                        { _, rejectPromise in
                            context.after(0) { rejectPromise(sentinelError) }
                            context.after(0) { rejectPromise(otherError) }
                        }
                    }, rejected
                ),
            ]
            for (name, script, test) in scripts {
                describe(name) {
                    testPromiseResolution({ context in ScriptedThenable(script(context)) }, test)
                }
            }
            describe("saving and abusing `resolvePromise` and `rejectPromise`") {
                savingAndAbusing()
            }
        }
    }

    /// Script 17: `then` keeps both callbacks and never calls them; the test calls them all, twice,
    /// at once and again 50 ms later. Only the first call may count.
    private func savingAndAbusing() {
        typealias Saved = (
            resolvePromise: @Sendable (APlusValue) -> Void,
            rejectPromise: @Sendable (any Error) -> Void
        )
        let savedCallbacks: @Sendable (CaseContext) -> Box<Saved?> = { $0.local("saved") { Box<Saved?>(nil) } }
        testPromiseResolution(
            { context in
                ScriptedThenable { resolvePromise, rejectPromise in
                    savedCallbacks(context).value = (resolvePromise, rejectPromise)
                }
            },
            { promise, context in
                let saved = savedCallbacks(context)
                let timesFulfilled = Box(0)
                let timesRejected = Box(0)
                _ = promise.then(
                    onFulfilled: { _ in
                        timesFulfilled.update { $0 += 1 }
                        return nil
                    },
                    onRejected: { _ in
                        timesRejected.update { $0 += 1 }
                        return nil
                    }
                )
                let abuse: @Sendable (Saved) -> Void = { callbacks in
                    callbacks.resolvePromise(Fixture.dummy)
                    callbacks.resolvePromise(Fixture.dummy)
                    callbacks.rejectPromise(Fixture.dummyError)
                    callbacks.rejectPromise(Fixture.dummyError)
                }
                if let callbacks = saved.value { abuse(callbacks) }
                let abusedLater = Box(false)
                context.afterWindow(50, until: { saved.value != nil }) {
                    guard let callbacks = saved.value else {
                        context.fail("`then` was never called, expected once: so its callbacks were never saved")
                        return
                    }
                    abuse(callbacks)
                    abusedLater.value = true
                }
                let settled: @Sendable () -> Bool = {
                    abusedLater.value && timesFulfilled.value + timesRejected.value > 0
                }
                context.afterWindow(100, until: settled) {
                    context.check(timesFulfilled.value == 1, "fulfilled \(timesFulfilled.value) times, expected once")
                    context.check(timesRejected.value == 0, "rejected \(timesRejected.value) times, expected never")
                    context.done()
                }
            }
        )
    }

    private func clause2_3_3_3_4() {
        describe("2.3.3.3.4: If calling `then` throws an exception `e`,") {
            describe("2.3.3.3.4.1: If `resolvePromise` or `rejectPromise` have been called, ignore it.") {
                let sentinel = Fixture.sentinel
                let sentinelError = Fixture.sentinelError
                let other = Fixture.other
                let otherError = Fixture.otherError
                let scripts: [(String, @Sendable (CaseContext) -> ThenScript, PromiseTest)] = [
                    (
                        "`resolvePromise` was called with a non-thenable",
                        { _ in
                            { resolvePromise, _ in
                                resolvePromise(sentinel)
                                throw otherError
                            }
                        }, Self.fulfills(with: sentinel)
                    ),
                    (
                        "`resolvePromise` was called with an asynchronously-fulfilled promise",
                        { context in
                            let later = Self.settlesLater(context, fulfilled: true)
                            return { resolvePromise, _ in
                                resolvePromise(later)
                                throw otherError
                            }
                        }, Self.fulfills(with: sentinel)
                    ),
                    (
                        "`resolvePromise` was called with an asynchronously-rejected promise",
                        { context in
                            let later = Self.settlesLater(context, fulfilled: false)
                            return { resolvePromise, _ in
                                resolvePromise(later)
                                throw otherError
                            }
                        }, Self.rejects(with: sentinelError)
                    ),
                    (
                        "`rejectPromise` was called",
                        { _ in
                            { _, rejectPromise in
                                rejectPromise(sentinelError)
                                throw otherError
                            }
                        }, Self.rejects(with: sentinelError)
                    ),
                    (
                        "`resolvePromise` then `rejectPromise` were called",
                        { _ in
                            { resolvePromise, rejectPromise in
                                resolvePromise(sentinel)
                                rejectPromise(otherError)
                                throw otherError
                            }
                        }, Self.fulfills(with: sentinel)
                    ),
                    (
                        "`rejectPromise` then `resolvePromise` were called",
                        { _ in
                            { resolvePromise, rejectPromise in
                                rejectPromise(sentinelError)
                                resolvePromise(other)
                                throw otherError
                            }
                        }, Self.rejects(with: sentinelError)
                    ),
                ]
                for (name, script, test) in scripts {
                    describe(name) {
                        testPromiseResolution({ context in ScriptedThenable(script(context)) }, test)
                    }
                }
            }
            describe("2.3.3.3.4.2: Otherwise, reject `promise` with `e` as the reason.") {
                let sentinelError = Fixture.sentinelError
                let other = Fixture.other
                let otherError = Fixture.otherError
                let scripts: [(String, @Sendable (CaseContext) -> ThenScript)] = [
                    (
                        "straightforward case",
                        { _ in
                            { _, _ in throw sentinelError }
                        }
                    ),
                    (
                        "`resolvePromise` is called asynchronously before the `throw`",
                        { context in
                            { resolvePromise, _ in
                                context.after(0) { resolvePromise(other) }
                                throw sentinelError
                            }
                        }
                    ),
                    (
                        "`rejectPromise` is called asynchronously before the `throw`",
                        { context in
                            { _, rejectPromise in
                                context.after(0) { rejectPromise(otherError) }
                                throw sentinelError
                            }
                        }
                    ),
                ]
                for (name, script) in scripts {
                    describe(name) {
                        testPromiseResolution(
                            { context in ScriptedThenable(script(context)) },
                            Self.rejects(with: sentinelError)
                        )
                    }
                }
            }
        }
    }
}
