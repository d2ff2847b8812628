/// thenables.js: the thenables and promises that fulfil or reject with a given value, used as `y`
/// in 2.3.3.3.1 and as the outer and inner thenables of the thenable × thenable product.
struct ThenableFactory<Adapter: APlusAdapter>: Sendable {
    typealias P = SuitePromise<Adapter>
    /// The JS suite's description, e.g. "a synchronously-fulfilled custom thenable".
    let name: String
    /// Makes the thenable (or promise) for a value or reason; the context lets a one-time
    /// thenable report a second `then` call.
    let make: @Sendable (_ settleWith: Settlement, _ context: CaseContext) -> APlusValue

    /// What the factory settles with.
    enum Settlement: Sendable {
        case value(APlusValue)
        case reason(any Error)
    }

    /// The seven fulfilled factories (F3, JavaScript's one-time `then` getter, is a `then` that
    /// reports a second call).
    static var fulfilled: [ThenableFactory] {
        [
            ThenableFactory(name: "a synchronously-fulfilled custom thenable") { settlement, _ in
                ScriptedThenable { resolvePromise, _ in resolvePromise(settlement.value) }
            },
            ThenableFactory(name: "an asynchronously-fulfilled custom thenable") { settlement, context in
                ScriptedThenable { resolvePromise, _ in context.after(0) { resolvePromise(settlement.value) } }
            },
            ThenableFactory(name: "a synchronously-fulfilled one-time thenable") { settlement, context in
                ScriptedThenable(onRepeatedCall: {
                    context.fail("a one-time thenable's then was called twice, expected once")
                }) {
                    resolvePromise, _ in
                    resolvePromise(settlement.value)
                }
            },
            ThenableFactory(name: "a thenable that tries to fulfill twice") { settlement, _ in
                ScriptedThenable { resolvePromise, _ in
                    resolvePromise(settlement.value)
                    resolvePromise(Fixture.other)
                }
            },
            ThenableFactory(name: "a thenable that fulfills but then throws") { settlement, _ in
                ScriptedThenable { resolvePromise, _ in
                    resolvePromise(settlement.value)
                    throw Fixture.otherError
                }
            },
            ThenableFactory(name: "an already-fulfilled promise") { settlement, _ in
                P.resolved(settlement.value)
            },
            ThenableFactory(name: "an eventually-fulfilled promise") { settlement, context in
                SuiteBuilder<Adapter>.eventually(context) { $0.resolve(settlement.value) }
            },
        ]
    }

    /// The rejected factories: six, and a seventh whose `then` property throws when the suite
    /// runs with ``APlusSuite/Options/thenProperties``.
    static func rejected(_ options: APlusSuite.Options) -> [ThenableFactory] {
        let customThenables = [
            ThenableFactory(name: "a synchronously-rejected custom thenable") { settlement, _ in
                ScriptedThenable { _, rejectPromise in rejectPromise(settlement.reason) }
            },
            ThenableFactory(name: "an asynchronously-rejected custom thenable") { settlement, context in
                ScriptedThenable { _, rejectPromise in context.after(0) { rejectPromise(settlement.reason) } }
            },
            ThenableFactory(name: "a synchronously-rejected one-time thenable") { settlement, context in
                ScriptedThenable(onRepeatedCall: {
                    context.fail("a one-time thenable's then was called twice, expected once")
                }) {
                    _, rejectPromise in
                    rejectPromise(settlement.reason)
                }
            },
            ThenableFactory(name: "a thenable that immediately throws in `then`") { settlement, _ in
                ScriptedThenable { _, _ in throw settlement.reason }
            },
        ]
        // In the JS suite's order: the thenable whose `then` property throws comes next.
        let throwingProperty =
            options.contains(.thenProperties)
            ? [
                ThenableFactory(name: "an object with a throwing `then` accessor") { settlement, _ in
                    ScriptedPropertyThenable { _ in throw settlement.reason }
                }
            ] : []
        let promises = [
            ThenableFactory(name: "an already-rejected promise") { settlement, _ in
                P.rejected(settlement.reason)
            },
            ThenableFactory(name: "an eventually-rejected promise") { settlement, context in
                SuiteBuilder<Adapter>.eventually(context) { $0.reject(settlement.reason) }
            },
        ]
        return customThenables + throwingProperty + promises
    }
}

extension ThenableFactory.Settlement {
    var value: APlusValue {
        guard case .value(let value) = self else { preconditionFailure("a fulfilled factory needs a value") }
        return value
    }

    var reason: any Error {
        guard case .reason(let reason) = self else { preconditionFailure("a rejected factory needs a reason") }
        return reason
    }
}
