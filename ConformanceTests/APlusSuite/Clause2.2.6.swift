// 2.2.6.js: `then` may be called several times; callbacks run in registration order.

/// A call log shared by several handlers (sinon's spies): who was called, in what order, with what.
final class CallLog: Sendable {
    private let entries = Box<[(handler: String, argument: String)]>([])

    /// Records a call and returns nothing useful (handlers return `other` in the JS suite).
    func record(_ handler: String, _ argument: String) {
        entries.update { $0.append((handler, argument)) }
    }

    var handlers: [String] { entries.value.map(\.handler) }

    func arguments(of handler: String) -> [String] {
        entries.value.filter { $0.handler == handler }.map(\.argument)
    }
}

extension SuiteBuilder {
    func clause2_2_6() {
        describe("2.2.6: `then` may be called multiple times on the same promise.") {
            describe(
                "2.2.6.1: If/when `promise` is fulfilled, all respective `onFulfilled` callbacks must execute in the order of their originating calls to `then`."
            ) {
                multipleHandlers(.fulfilment)
            }
            describe(
                "2.2.6.2: If/when `promise` is rejected, all respective `onRejected` callbacks must execute in the order of their originating calls to `then`."
            ) {
                multipleHandlers(.rejection)
            }
        }
    }

    /// The five groups of 2.2.6, for fulfilment or (mirrored) rejection.
    private func multipleHandlers(_ side: Side) {
        let expected = describeArgument(Fixture.sentinel)
        /// `then` with `handler` on the side under test (given a description of its argument) and
        /// `spy`, if any, on the other side.
        @Sendable func attach(
            _ promise: P,
            _ handler: @escaping @Sendable (String) throws -> APlusValue,
            spy: (@Sendable () -> Void)? = nil
        ) -> P {
            var other: SideHandler?
            if let spy {
                other = { _ in
                    spy()
                    return nil
                }
            }
            return Self.then(promise, on: side, { try handler(describeArgument($0)) }, other: other)
        }
        let threeCases: (APlusValue, any Error, @escaping PromiseTest) -> Void = { value, reason, test in
            self.testSettled(side, value: value, reason: reason, test)
        }
        let callback = side.callback

        for throwing in [false, true] {
            let name =
                throwing
                ? "multiple \(side.noun) handlers, one of which throws" : "multiple boring \(side.noun) handlers"
            describe(name) {
                threeCases(Fixture.sentinel, Fixture.sentinelError) { promise, context in
                    let log = CallLog()
                    let spy: @Sendable () -> Void = {
                        context.fail(
                            "the callback for the other outcome was called, expected only \(callback) handlers")
                    }
                    for index in 1...3 {
                        _ = attach(
                            promise,
                            { argument in
                                log.record("handler\(index)", argument)
                                if throwing && index == 2 { throw Fixture.otherError }
                                return Fixture.other
                            },
                            spy: spy
                        )
                    }
                    _ = attach(promise) { argument in
                        context.check(argument == expected, "\(callback) got \(argument), expected \(expected)")
                        let ran = log.handlers
                        if ran != ["handler1", "handler2", "handler3"] {
                            context.fail(
                                "expected handler1, handler2 and handler3, registered before this handler, to have run "
                                    + "before it, in that order (2.2.6); observed before it: \(describeOrder(ran))")
                        } else {
                            for index in 1...3 {
                                let arguments = log.arguments(of: "handler\(index)")
                                context.check(
                                    arguments == [expected],
                                    "expected handler\(index) to have been called once with \(expected); observed: called with \(arguments)"
                                )
                            }
                        }
                        context.done()
                        return nil
                    }
                }
            }
        }

        describe("results in multiple branching chains with their own fulfillment values") {
            threeCases(Fixture.dummy, Fixture.dummyError) { promise, context in
                let remaining = Box(3)
                let semiDone: @Sendable () -> Void = {
                    if remaining.update({ count -> Int in
                        count -= 1
                        return count
                    }) == 0 {
                        context.done()
                    }
                }
                _ = attach(promise) { _ in Fixture.sentinel }.then(
                    onFulfilled: { value in
                        context.check(
                            isSame(value, Fixture.sentinel), "first branch got \(show(value)), expected the sentinel")
                        semiDone()
                        return nil
                    },
                    onRejected: nil
                )
                _ = attach(promise) { _ in throw Fixture.sentinel2Error }.then(
                    onFulfilled: nil,
                    onRejected: { reason in
                        context.check(
                            isSame(reason, Fixture.sentinel2Error),
                            "second branch got \(reason), expected the second sentinel error")
                        semiDone()
                        return nil
                    }
                )
                _ = attach(promise) { _ in Fixture.sentinel3 }.then(
                    onFulfilled: { value in
                        context.check(
                            isSame(value, Fixture.sentinel3),
                            "third branch got \(show(value)), expected the third sentinel")
                        semiDone()
                        return nil
                    },
                    onRejected: nil
                )
            }
        }

        describe("`\(callback)` handlers are called in the original order") {
            threeCases(Fixture.dummy, Fixture.dummyError) { promise, context in
                let log = CallLog()
                for index in 1...3 {
                    _ = attach(promise) { _ in
                        log.record("handler\(index)", "")
                        return nil
                    }
                }
                _ = attach(promise) { _ in
                    context.check(
                        log.handlers == ["handler1", "handler2", "handler3"],
                        "expected handler1, handler2 and handler3 to have run in the order they were registered, before "
                            + "the handler registered after them (2.2.6); observed before it: \(describeOrder(log.handlers))"
                    )
                    context.done()
                    return nil
                }
            }
            describe("even when one handler is added inside another handler") {
                threeCases(Fixture.dummy, Fixture.dummyError) { promise, context in
                    let log = CallLog()
                    _ = attach(promise) { _ in
                        log.record("handler1", "")
                        _ = attach(promise) { _ in
                            log.record("handler3", "")
                            return nil
                        }
                        return nil
                    }
                    _ = attach(promise) { _ in
                        log.record("handler2", "")
                        return nil
                    }
                    _ = attach(promise) { _ in
                        // Gives implementations a little time to flush their queues, as the JS suite does.
                        context.afterWindow(15) {
                            context.check(
                                log.handlers == ["handler1", "handler2", "handler3"],
                                "expected handler1, then handler2, then handler3, which handler1 registered while it ran "
                                    + "(2.2.6); observed: \(describeOrder(log.handlers))"
                            )
                            context.done()
                        }
                        return nil
                    }
                }
            }
        }
    }
}

/// The handlers that ran, in the order they ran, for a failure message: "handler2, handler1" or
/// "no handler".
func describeOrder(_ handlers: [String]) -> String {
    handlers.isEmpty ? "no handler" : handlers.joined(separator: ", ")
}
