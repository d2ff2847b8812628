// 2.2.7.js: `then` returns a promise; a throw rejects it, a missing callback passes the outcome on.
// The JS suite's eleven reasons become three Swift kinds.

/// 2.2.7.2's reasons: how a reason is compared, and its description in the case names.
struct ReasonKind: Sendable {
    let name: String
    let make: @Sendable () -> any Error
    let matches: @Sendable (any Error, any Error) -> Bool

    static let valueType = ReasonKind(
        name: "a value-type error (==)",
        make: { ValueError(code: 0) },
        matches: { ($0 as? ValueError) == ($1 as? ValueError) && $0 is ValueError }
    )
    static let classInstance = ReasonKind(
        name: "a class-instance error (identity)",
        make: { MarkerError("reason") },
        matches: { ($0 as? MarkerError) === ($1 as? MarkerError) && $0 is MarkerError }
    )
    static let alwaysPendingThenable = ReasonKind(
        name: "an error that is also an always-pending thenable",
        make: { AlwaysPendingThenableError() },
        // By identity: the suite hands the library what the adapter's `thenable(_:)` made of it
        // (an error object the library would assimilate if it were a value), or the error itself.
        matches: { ($0 as AnyObject) === ($1 as AnyObject) }
    )
    static let all = [valueType, classInstance, alwaysPendingThenable]
    /// The three kinds as 2.3.3.2 and 2.3.3.3.2 name their reasons.
    static let namedAsIn2_3_3: [(name: String, kind: ReasonKind)] = [
        ("`0`", valueType), ("an error", classInstance), ("an always-pending thenable", alwaysPendingThenable),
    ]
}

extension SuiteBuilder {
    /// A reason of `kind` for one run of a case, as the library is given it: a reason that is also
    /// a thenable goes through the adapter's `thenable(_:)`, so that the library sees a reason it
    /// would assimilate if it were a value. An adapter that returns something other than an error
    /// object for it fails the case: the reason would test nothing.
    static func made(_ kind: ReasonKind, _ context: CaseContext) -> any Error {
        let reason = kind.make()
        guard let foreign = reason as? any APlusThenable else { return reason }
        let handedOver = Adapter.thenable(foreign)
        guard let error = handedOver as? any Error, type(of: error) is AnyClass else {
            context.fail(
                "the adapter's thenable(_:) returned \(show(handedOver)) for a thenable that is an Error, expected an error object; "
                    + "return an error object (a class instance) the library would assimilate if it were a value")
            return reason
        }
        return error
    }

    func clause2_2_7() {
        describe("2.2.7: `then` must return a promise: `promise2 = promise1.then(onFulfilled, onRejected)`") {
            describe(
                "2.2.7.2: If either `onFulfilled` or `onRejected` throws an exception `e`, `promise2` must be rejected with `e` as the reason."
            ) {
                for kind in ReasonKind.all {
                    describe("The reason is \(kind.name)") {
                        let expectRejection: @Sendable (P, any Error, CaseContext) -> Void = {
                            promise2, expected, context in
                            Self.rejects(expecting: "\(expected)") { kind.matches($0, expected) }(promise2, context)
                        }
                        testFulfilled(Fixture.dummy) { promise1, context in
                            let expected = Self.made(kind, context)
                            let promise2 = promise1.then(onFulfilled: { _ in throw expected }, onRejected: nil)
                            expectRejection(promise2, expected, context)
                        }
                        testRejected(Fixture.dummyError) { promise1, context in
                            let expected = Self.made(kind, context)
                            let promise2 = promise1.then(onFulfilled: nil, onRejected: { _ in throw expected })
                            expectRejection(promise2, expected, context)
                        }
                    }
                }
            }
            describe(
                "2.2.7.3: If `onFulfilled` is not a function and `promise1` is fulfilled, `promise2` must be fulfilled with the same value."
            ) {
                describe("`onFulfilled` is `undefined`") {
                    testFulfilled(Fixture.sentinel) { promise1, context in
                        let promise2 = promise1.then(onFulfilled: nil, onRejected: nil)
                        Self.fulfills(with: Fixture.sentinel)(promise2, context)
                    }
                }
            }
            describe(
                "2.2.7.4: If `onRejected` is not a function and `promise1` is rejected, `promise2` must be rejected with the same reason."
            ) {
                describe("`onRejected` is `undefined`") {
                    testRejected(Fixture.sentinelError) { promise1, context in
                        let promise2 = promise1.then(onFulfilled: nil, onRejected: nil)
                        Self.rejects(with: Fixture.sentinelError)(promise2, context)
                    }
                }
            }
        }
    }
}
