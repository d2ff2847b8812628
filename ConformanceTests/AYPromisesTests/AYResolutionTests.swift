import AYPromises
import TestSupport
import Testing

/// The resolution procedure decides once per type that a value is plain (`AYPlainTypes`) and
/// then fulfils with values of that type without casting them. These tests pin down that the
/// shortcut never changes an outcome: each sends a value of a type through once, so that the type
/// is remembered if it may be, then a value whose outcome the shortcut would get wrong.
@Suite("AY resolution procedure")
struct AYResolutionTests {
    @Test("an optional of a type seen before still fulfils with nil when it is nil")
    func optionalAfterPlain() async throws {
        let seen = AYPromise.resolve(1).thenAsync { _ in Probe(id: 1) }
        #expect(try await value(of: seen) as? Probe == Probe(id: 1))
        let some = AYPromise.resolve(1).thenAsync { _ -> Probe? in Probe(id: 2) }
        #expect(try await value(of: some) as? Probe == Probe(id: 2))
        // Optional<Probe> was just seen holding a value; this time it holds nil.
        let none = AYPromise.resolve(1).thenAsync { _ -> Probe? in nil }
        #expect(try await value(of: none) == nil)
    }

    @Test("a value type that is an Error rejects every time")
    func errorEveryTime() async throws {
        for round in 1...3 {
            let promise = AYPromise.resolve(1).thenAsync { _ in TestError(round) }
            #expect(try await error(of: promise) as? TestError == TestError(round))
        }
    }

    @Test("a value type that is a thenable is assimilated every time")
    func thenableEveryTime() async throws {
        for _ in 1...3 {
            let promise = AYPromise.resolve(1).thenAsync { _ in ThenableError() }
            #expect(try await value(of: promise) as? String == "from the thenable")
        }
    }

    @Test("Void fulfils with nil every time, also after values of other types")
    func voidEveryTime() async throws {
        for round in 1...3 {
            let plain = AYPromise.resolve(round).thenAsync { value in value }
            #expect(try await value(of: plain) as? Int == round)
            let void = AYPromise.resolve(round).thenAsync { _ in () }
            #expect(try await value(of: void) == nil)
        }
    }

    @Test("a struct holding a promise fulfils with the struct every time")
    func structHoldingPromiseFulfils() async throws {
        // A struct that holds a promise is a plain value: only a promise itself is adopted.
        let inner = AYPromise.resolve(5)
        for _ in 1...2 {
            let promise = AYPromise.resolve(1).thenAsync { _ in Holder(promise: inner) }
            #expect(try await value(of: promise) is Holder)
        }
    }

    @Test("many plain types in turn keep their values")
    func manyTypes() async throws {
        let values: [any Sendable & Equatable] = [1, "two", 3.0, Probe(id: 4), UInt8(5), [6], (7 as Int16)]
        for _ in 1...2 {
            for expected in values {
                let promise = AYPromise.resolve(1).thenAsync { _ in expected }
                let got = try await value(of: promise)
                #expect(got.map { String(describing: type(of: $0)) } == String(describing: type(of: expected)))
                #expect(got.map { "\($0)" } == "\(expected)")
            }
        }
    }
}

private struct Probe: Equatable, Sendable {
    let id: Int
}

private struct Holder: Sendable {
    let promise: AYPromise
}
