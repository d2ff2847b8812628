public import PromiseInterface

/// The Promises/A+ compliance suite: a port of promises-aplus-tests 2.1.2 (Promises/A+ 1.1),
/// written once and generic over `APlusPromise`.
///
/// It holds every Tier A case of the catalog (`swift-cases-tierA.txt`, 648 cases): clauses 2.1.2
/// to 2.3.4, the three timings, the value and reason sets, every thenable variant and the full
/// thenable × thenable product of 2.3.3. Clause 2.2.5 (`this` in handlers) has no meaning for
/// Swift closures and is left out, as are the JavaScript-only inputs the catalog lists.
public enum APlusSuite {
    /// Every case, built for the promise type `P`, in the order of the JS suite.
    public static func cases<P: APlusPromise>(for _: P.Type) -> [APlusCase] {
        let suite = SuiteBuilder<P>()
        suite.clause2_1_2()
        suite.clause2_1_3()
        suite.clause2_2_1()
        suite.clause2_2_2()
        suite.clause2_2_3()
        suite.clause2_2_4()
        suite.clause2_2_6()
        suite.clause2_2_7()
        suite.clause2_3_1()
        suite.clause2_3_2()
        suite.clause2_3_3()
        suite.clause2_3_4()
        return suite.cases
    }

    /// The cases this port adds to the JavaScript suite, built for the promise type `P`: a
    /// `then(f, r)` whose `r` sees what `f` throws (a mistake the 648 catch in 3 cases), and the
    /// mirror rule. Their names start with the heading
    /// `Additions: ...`, so no JS case's name changes, and their clause is `Additions`.
    public static func additions<P: APlusPromise>(for _: P.Type) -> [APlusCase] {
        let suite = SuiteBuilder<P>()
        suite.additions()
        return suite.cases
    }
}

/// Builds cases the way mocha's `describe`/`specify` do, for one promise type.
final class SuiteBuilder<P: APlusPromise> {
    typealias Body = @Sendable (CaseContext) -> Void
    typealias PromiseTest = @Sendable (P, CaseContext) -> Void

    private(set) var cases: [APlusCase] = []
    private var path: [String] = []

    func describe(_ name: String, _ body: () -> Void) {
        path.append(name)
        body()
        path.removeLast()
    }

    func specify(_ name: String, _ body: @escaping Body) {
        cases.append(APlusCase(path: path + [name], body: body))
    }

    // MARK: testThreeCases.js

    /// `testFulfilled`: runs `test` on a promise that is already fulfilled, fulfilled right after
    /// `test` ran, and fulfilled 50 ms later.
    func testFulfilled(_ value: PromiseValue, _ test: @escaping PromiseTest) {
        specify("already-fulfilled") { context in
            test(P.resolved(value), context)
        }
        specify("immediately-fulfilled") { context in
            let deferred = P.deferred()
            test(deferred.promise, context)
            deferred.resolve(value)
        }
        specify("eventually-fulfilled") { context in
            let deferred = P.deferred()
            test(deferred.promise, context)
            context.after(50) { deferred.resolve(value) }
        }
    }

    /// `testRejected`: the same three timings for a rejection.
    func testRejected(_ reason: any Error, _ test: @escaping PromiseTest) {
        specify("already-rejected") { context in
            test(P.rejected(reason), context)
        }
        specify("immediately-rejected") { context in
            let deferred = P.deferred()
            test(deferred.promise, context)
            deferred.reject(reason)
        }
        specify("eventually-rejected") { context in
            let deferred = P.deferred()
            test(deferred.promise, context)
            context.after(50) { deferred.reject(reason) }
        }
    }

    /// A pending promise of this design that `settle` settles 50 ms later (the JS suite's
    /// "eventually-fulfilled" / "eventually-rejected" promises).
    static func eventually(_ context: CaseContext, _ settle: @escaping @Sendable (Deferred<P>) -> Void) -> P {
        let deferred = P.deferred()
        context.after(50) { settle(deferred) }
        return deferred.promise
    }

    // MARK: 2.3.2.js and 2.3.3.js

    /// `testPromiseResolution`: `x` enters the resolution procedure by being returned from a
    /// fulfilment handler and from a rejection handler.
    func testPromiseResolution(
        _ xFactory: @escaping @Sendable (CaseContext) -> PromiseValue,
        _ test: @escaping PromiseTest
    ) {
        specify("via return from a fulfilled promise") { context in
            let promise = P.resolved(Fixture.dummy).then(onFulfilled: { _ in xFactory(context) }, onRejected: nil)
            test(promise, context)
        }
        specify("via return from a rejected promise") { context in
            let promise = P.rejected(Fixture.dummyError).then(onFulfilled: nil, onRejected: { _ in xFactory(context) })
            test(promise, context)
        }
    }

    /// A test that expects the promise to be fulfilled with `expected` (by identity).
    static func fulfills(with expected: Marker) -> PromiseTest {
        fulfills(expecting: "\(expected)") { isSame($0, expected) }
    }

    /// A test that expects the promise to be fulfilled with a value that `matches` accepts.
    static func fulfills(
        expecting expected: String,
        _ matches: @escaping @Sendable (PromiseValue) -> Bool
    ) -> PromiseTest {
        { promise, context in
            _ = promise.then(
                onFulfilled: { value in
                    context.check(matches(value), "fulfilled with \(show(value)), expected \(expected)")
                    context.done()
                    return nil
                },
                onRejected: { reason in
                    context.fail("rejected with \(reason), expected fulfilment with \(expected)")
                    context.done()
                    return nil
                }
            )
        }
    }

    /// A test that expects the promise to be rejected with `expected` (by identity).
    static func rejects(with expected: MarkerError) -> PromiseTest {
        rejects(expecting: "\(expected)") { isSame($0, expected) }
    }

    /// A test that expects the promise to be rejected with a reason that `matches` accepts.
    static func rejects(
        expecting expected: String,
        _ matches: @escaping @Sendable (any Error) -> Bool
    ) -> PromiseTest {
        { promise, context in
            _ = promise.then(
                onFulfilled: { value in
                    context.fail("fulfilled with \(show(value)), expected rejection with \(expected)")
                    context.done()
                    return nil
                },
                onRejected: { reason in
                    context.check(matches(reason), "rejected with \(reason), expected \(expected)")
                    context.done()
                    return nil
                }
            )
        }
    }
}
