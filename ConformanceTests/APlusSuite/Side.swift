/// One of the two outcomes, so that the suite's mirrored clauses (2.1.2 and 2.1.3, 2.2.2 and
/// 2.2.3, 2.2.6.1 and 2.2.6.2) are written once, with the JS suite's wording for each side.
struct Side: Sendable {
    let isFulfilment: Bool

    static let fulfilment = Side(isFulfilment: true)
    static let rejection = Side(isFulfilment: false)

    var opposite: Side { Side(isFulfilment: !isFulfilment) }
    /// "fulfill" / "reject"
    var verb: String { isFulfilment ? "fulfill" : "reject" }
    /// "fulfilled" / "rejected"
    var participle: String { isFulfilment ? "fulfilled" : "rejected" }
    /// "fulfillment" / "rejection"
    var noun: String { isFulfilment ? "fulfillment" : "rejection" }
    /// "onFulfilled" / "onRejected"
    var callback: String { isFulfilment ? "onFulfilled" : "onRejected" }
}

extension SuiteBuilder {
    typealias SideHandler = @Sendable (_ argument: Any) throws -> APlusValue

    /// Settles `deferred` on `side`, with `dummy`.
    static func settle(_ deferred: APlusDeferred<P>, _ side: Side) {
        if side.isFulfilment {
            deferred.resolve(Fixture.dummy)
        } else {
            deferred.reject(Fixture.dummyError)
        }
    }

    /// `testFulfilled(value)` or `testRejected(reason)`.
    func testSettled(_ side: Side, value: APlusValue, reason: any Error, _ test: @escaping PromiseTest) {
        if side.isFulfilment {
            testFulfilled(value, test)
        } else {
            testRejected(reason, test)
        }
    }

    /// `then` with `handler` as the callback of `side` and `other` (if any) as the callback of the
    /// opposite side. Each gets the value or the reason.
    static func then(_ promise: P, on side: Side, _ handler: @escaping SideHandler, other: SideHandler? = nil) -> P {
        let onValue: SideHandler? = side.isFulfilment ? handler : other
        let onReason: SideHandler? = side.isFulfilment ? other : handler
        var onFulfilled: (@Sendable (APlusValue) throws -> APlusValue)?
        var onRejected: (@Sendable (any Error) throws -> APlusValue)?
        if let onValue {
            onFulfilled = { value in try onValue(value as Any) }
        }
        if let onReason {
            onRejected = { reason in try onReason(reason as Any) }
        }
        return promise.then(onFulfilled: onFulfilled, onRejected: onRejected)
    }
}

/// Describes a callback's argument, naming the sentinel only if the argument *is* the sentinel
/// (identity, as the JS suite's `sinon.match.same`), so a copy with the same description fails.
func describeArgument(_ argument: Any) -> String {
    if (argument as? Marker) === Fixture.sentinel || (argument as? MarkerError) === Fixture.sentinelError {
        return "the sentinel itself"
    }
    return "\(argument)"
}
