// 2.3.4.js: a plain value is fulfilled as is. `undefined` and `null` merge into `nil`; the cases
// that give JavaScript's primitive prototypes a `then` have no Swift meaning.

extension SuiteBuilder {
    func clause2_3_4() {
        describe("2.3.4: If `x` is not an object or function, fulfill `promise` with `x`") {
            let values: [(String, APlusValue, @Sendable (APlusValue) -> Bool)] = [
                ("`undefined`", nil, { $0 == nil }),
                ("`false`", false, { ($0 as? Bool) == false }),
                ("`true`", true, { ($0 as? Bool) == true }),
                ("`0`", 0, { ($0 as? Int) == 0 }),
            ]
            for (name, expected, matches) in values {
                describe("The value is \(name)") {
                    let expectValue = Self.fulfills(expecting: show(expected), matches)
                    testFulfilled(Fixture.dummy) { promise1, context in
                        expectValue(promise1.then(onFulfilled: { _ in expected }, onRejected: nil), context)
                    }
                    testRejected(Fixture.dummyError) { promise1, context in
                        expectValue(promise1.then(onFulfilled: nil, onRejected: { _ in expected }), context)
                    }
                }
            }
        }
    }
}
