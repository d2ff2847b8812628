// 2.1.2.js and 2.1.3.js: a settled promise never changes state.

extension SuiteBuilder {
    func clause2_1_2() {
        describe("2.1.2.1: When fulfilled, a promise: must not transition to any other state.") {
            mustNotTransition(from: .fulfilment)
        }
    }

    func clause2_1_3() {
        describe("2.1.3.1: When rejected, a promise: must not transition to any other state.") {
            mustNotTransition(from: .rejection)
        }
    }

    private func mustNotTransition(from side: Side) {
        let other = side.opposite
        testSettled(side, value: Fixture.dummy, reason: Fixture.dummyError) { promise, context in
            _ = Self.then(promise, on: side, { _ in nil }) { _ in
                context.fail(
                    "\(other.callback) was called on a \(side.participle) promise, expected only \(side.callback)")
                return nil
            }
            context.after(100) { context.done() }
        }
        let attempts: [(String, @Sendable (APlusDeferred<P>, CaseContext) -> Void)] = [
            (
                "trying to \(side.verb) then immediately \(other.verb)",
                { deferred, _ in
                    Self.settle(deferred, side)
                    Self.settle(deferred, other)
                }
            ),
            (
                "trying to \(side.verb) then \(other.verb), delayed",
                { deferred, context in
                    context.after(50) {
                        Self.settle(deferred, side)
                        Self.settle(deferred, other)
                    }
                }
            ),
            (
                "trying to \(side.verb) immediately then \(other.verb) delayed",
                { deferred, context in
                    Self.settle(deferred, side)
                    context.after(50) { Self.settle(deferred, other) }
                }
            ),
        ]
        for (name, settle) in attempts {
            specify(name) { context in
                let deferred = P.deferred()
                let called = Box(false)
                let handler: SideHandler = { _ in
                    called.value = true
                    return nil
                }
                _ = Self.then(deferred.promise, on: side, handler) { _ in
                    context.fail(
                        "\(other.callback) was called after the promise was \(side.participle), expected never: a settled promise stays \(side.participle)"
                    )
                    return nil
                }
                settle(deferred, context)
                context.afterWindow(100, until: { called.value }) {
                    context.check(called.value, "\(side.callback) was never called, expected once")
                    context.done()
                }
            }
        }
    }
}
