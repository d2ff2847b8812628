/// The Promises/A+ compliance suite: a port of promises-aplus-tests 2.1.2 (Promises/A+ 1.1),
/// written once and generic over an ``APlusAdapter``.
///
/// It holds every case of the JavaScript suite that has a meaning in Swift: clauses 2.1.2 to
/// 2.3.4, the three timings, the value and reason sets, every thenable variant and the full
/// thenable × thenable product of 2.3.3; 648 cases whose thenables have a `then` method, and 690
/// with ``Options/thenProperties``. Clause 2.2.5 (`this` in handlers) has no meaning for Swift
/// closures and is left out, as are the JavaScript-only inputs (non-function handlers, falsy
/// reasons, prototypes).
/// Eighteen cases this port adds run apart (``additions(for:)``), as do six cases for several
/// threads (``threadCases(for:)``), which a suite for JavaScript, with its one thread, cannot have;
/// 42 more of 2.3.3 run when asked (``Options/thenProperties``: thenables whose `then` is a
/// property, as in JavaScript).
///
/// ```swift
/// let cases = APlusSuite.cases(for: MyAdapter.self)            // the 648
/// let thenables = try APlusSuite.cases(for: MyAdapter.self, clauses: ["2.3.3"])
/// let all = APlusSuite.cases(for: MyAdapter.self, options: .thenProperties)   // 690
/// let threads = APlusSuite.threadCases(for: MyAdapter.self)   // 6
/// ```
public enum APlusSuite {
    /// The version of the suite's API (semantic versioning; CHANGELOG.md says what each version
    /// changed). Within a major version, an adapter that compiles keeps compiling, and a library
    /// that passes every case keeps passing; case names and failure messages may be refined. A
    /// case a passing library could fail comes only with a new major version (2.0.0: the cases
    /// for several threads and six additions). 2.1.0 races the settles as jcstress does, so that a
    /// check-then-act settle left to chance is found; a library that passed because its race was
    /// never hit was never correct. 2.1.1 says in every failure message what was expected.
    public static let version = "2.1.1"

    /// What a run adds to the 648 cases.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The 42 cases of 2.3.3 whose thenable has a `then` *property*, as JavaScript's thenables
        /// do (690 cases in all): a read that throws (2.3.3.2), a property that holds no function
        /// (2.3.3.4), a property read more than once ("uses the original value of `then`"), and a
        /// throwing property as `y` and as the inner thenable of 2.3.3.3.1. 2.3.3.1 then counts
        /// reads of the property, not calls of a method. The library receives these thenables
        /// through ``APlusAdapter/propertyThenable(_:)``.
        public static let thenProperties = Options(rawValue: 1 << 0)
    }

    /// Every case, built for the library that `adapter` drives, in the order of the JS suite:
    /// the 648, and the cases `options` adds.
    public static func cases<Adapter: APlusAdapter>(
        for adapter: Adapter.Type,
        options: Options = []
    ) -> [APlusCase] {
        let suite = SuiteBuilder<Adapter>(options: options)
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

    /// The cases this port adds to the JavaScript suite: a `then(f, r)` whose `r` sees what `f`
    /// throws (a mistake the 648 catch in 3 cases), the mirror rule, and a `then` registered after
    /// a second settle attempt or after the handlers ran. Their names start with the heading
    /// `Additions: ...`, so no JS case's name changes, and their clause is `Additions`.
    public static func additions<Adapter: APlusAdapter>(for adapter: Adapter.Type) -> [APlusCase] {
        let suite = SuiteBuilder<Adapter>(options: [])
        suite.additions()
        return suite.cases
    }

    /// The cases for several threads: settles racing from several threads (fulfil against
    /// reject, many callers, a thenable or a promise against a settle), and `then` registered from
    /// several threads while another settles. Every observer, early or late, must be called once,
    /// all with the same outcome, and the callbacks one thread registered must run in the order it
    /// registered them. Each case runs up to 100 rounds (at least 10, then until 5 s) on threads of
    /// its own; their clause is `Threads`.
    ///
    /// The adapter's `deferred`, `resolve`, `reject` and `then` are called from those threads; the
    /// callbacks must still run on the main queue.
    public static func threadCases<Adapter: APlusAdapter>(for adapter: Adapter.Type) -> [APlusCase] {
        let suite = SuiteBuilder<Adapter>(options: [])
        suite.threads()
        return suite.cases
    }

    /// The clause of the cases for several threads.
    public static let threadsClause = "Threads"

    /// The clauses of the 648 cases, in order: `2.1.2` to `2.3.4` (no `2.2.5`).
    public static let clauses = [
        "2.1.2", "2.1.3", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.2.6", "2.2.7", "2.3.1", "2.3.2", "2.3.3",
        "2.3.4",
    ]

    /// The cases of the named clauses, of the 648 (with the cases `options` adds) and the
    /// additions, in the suite's order.
    ///
    /// The clauses are the numbers in ``clauses`` (three parts, as the JavaScript suite's files
    /// are) and ``additionsClause``. A shorter name selects every clause under it: `"2.3"` selects
    /// 2.3.1 to 2.3.4, and `"2.2.6"` selects 2.2.6 only. `"Additions"` selects the eighteen cases
    /// this port adds, and `"Threads"` the six for several threads.
    ///
    /// - Throws: ``APlusSuiteError/unknownClauses(_:known:)`` for a name that selects no case,
    ///   such as `"2.2.5"` (left out), `"2.4"` or `"2.3.3.1"` (not a clause of its own), and
    ///   ``APlusSuiteError/noClauses`` for an empty list, before any case is built.
    public static func cases<Adapter: APlusAdapter>(
        for adapter: Adapter.Type,
        clauses names: [String],
        options: Options = []
    ) throws(APlusSuiteError) -> [APlusCase] {
        let known = clauses + [additionsClause, threadsClause]
        let selects = { (name: String, clause: String) in clause == name || clause.hasPrefix(name + ".") }
        guard !names.isEmpty else { throw .noClauses }
        let unknown = names.filter { name in !known.contains { selects(name, $0) } }
        guard unknown.isEmpty else { throw .unknownClauses(unknown, known: known) }
        let wanted = known.filter { clause in names.contains { selects($0, clause) } }
        var cases: [APlusCase] = []
        if wanted.contains(where: { $0 != additionsClause && $0 != threadsClause }) {
            cases += Self.cases(for: adapter, options: options).filter { wanted.contains($0.clause) }
        }
        if wanted.contains(additionsClause) {
            cases += additions(for: adapter)
        }
        if wanted.contains(threadsClause) {
            cases += threadCases(for: adapter)
        }
        return cases
    }

    /// The clause of the cases this port adds.
    public static let additionsClause = "Additions"
}

/// A request the suite cannot honour.
public enum APlusSuiteError: Error, Equatable, CustomStringConvertible {
    /// Clause names that select no case; `known` lists the clauses there are.
    case unknownClauses([String], known: [String])
    /// An empty list of clauses, which would run nothing and pass.
    case noClauses

    public var description: String {
        switch self {
        case .unknownClauses(let names, let known):
            return "no Promises/A+ case is in clause \(names.joined(separator: ", ")); the clauses are "
                + known.joined(separator: ", ") + " (2.2.5 has no meaning in Swift)"
        case .noClauses:
            return "no clause was named, so no Promises/A+ case would run; name at least one, e.g. \"2.3\""
        }
    }
}

/// Builds cases the way mocha's `describe`/`specify` do, for one promise type.
final class SuiteBuilder<Adapter: APlusAdapter> {
    /// The promise type the cases use: the library's promise, seen through the adapter.
    typealias P = SuitePromise<Adapter>
    typealias Body = @Sendable (CaseContext) -> Void
    typealias PromiseTest = @Sendable (P, CaseContext) -> Void

    /// The cases the run adds to the 648.
    let options: APlusSuite.Options
    private(set) var cases: [APlusCase] = []
    private var path: [String] = []

    init(options: APlusSuite.Options) { self.options = options }

    func describe(_ name: String, _ body: () -> Void) {
        path.append(name)
        body()
        path.removeLast()
    }

    func specify(_ name: String, _ body: @escaping Body) {
        cases.append(APlusCase(path: path + [name], adapter: ObjectIdentifier(Adapter.self), body: body))
    }

    // MARK: testThreeCases.js

    /// `testFulfilled`: runs `test` on a promise that is already fulfilled, fulfilled right after
    /// `test` ran, and fulfilled 50 ms later.
    func testFulfilled(_ value: APlusValue, _ test: @escaping PromiseTest) {
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

    /// A pending promise of the library under test that `settle` settles 50 ms later (the JS suite's
    /// "eventually-fulfilled" / "eventually-rejected" promises).
    static func eventually(_ context: CaseContext, _ settle: @escaping @Sendable (APlusDeferred<P>) -> Void) -> P {
        let deferred = P.deferred()
        context.after(50) { settle(deferred) }
        return deferred.promise
    }

    // MARK: 2.3.2.js and 2.3.3.js

    /// `testPromiseResolution`: `x` enters the resolution procedure by being returned from a
    /// fulfilment handler and from a rejection handler.
    func testPromiseResolution(
        _ xFactory: @escaping @Sendable (CaseContext) -> APlusValue,
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
        _ matches: @escaping @Sendable (APlusValue) -> Bool
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
