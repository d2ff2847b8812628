import AYPromises
import DesignRegistry
import Dispatch
import Foundation
import TestSupport
import Testing

/// AY's rule, kept from the original: a block that *returns* an `Error` value rejects, just like
/// one that throws. Promises/A+ 2.3.4 would fulfil with the error value; the A+ suite never
/// returns one, so these tests pin the rule down (see Reports/ay.md and Reports/conformance.md).
@Suite("AY error values and thrown errors")
struct AYErrorValueTests {
    @Test("a returned Error value and a thrown error both reject, with that error")
    func returnedAndThrown() async throws {
        let returned = AYPromise.resolve(1).thenAsync { _ in TestError(1) }
        #expect(try await error(of: returned) as? TestError == TestError(1))
        let thrown = AYPromise.resolve(1).thenAsync { _ in throw TestError(2) }
        #expect(try await error(of: thrown) as? TestError == TestError(2))
    }

    @Test("an Error value returned through the shared protocol's then also rejects (not A+ 2.3.4)")
    func aplusThenErrorValue() async throws {
        let promise = AYAdapter.then(AYAdapter.resolved(1), onFulfilled: { _ in TestError(3) }, onRejected: nil)
        #expect(try await error(of: promise) as? TestError == TestError(3))
    }

    @Test("resolving with an Error value rejects: withResolve, thenPromise, AYPromise.resolve, with")
    func resolveWithErrorValue() async throws {
        #expect(try await error(of: AYPromise.withResolve { $0(TestError(4)) }) as? TestError == TestError(4))
        let viaThenPromise = AYPromise.resolve(1).thenPromise { resolve in resolve(TestError(5)) }
        #expect(try await error(of: viaThenPromise) as? TestError == TestError(5))
        #expect(AYPromise.resolve(TestError(6)).state.error as? TestError == TestError(6))
        #expect(AYPromise.with(TestError(7) as PromiseValue).state.error as? TestError == TestError(7))
    }

    @Test("a catch block returning the error rejects again; returning a value recovers")
    func catchReturningError() async throws {
        let again = AYPromise.resolve(TestError(8)).catchAsync { error in error }
        #expect(try await error(of: again) as? TestError == TestError(8))
        let recovered = AYPromise.resolve(TestError(9)).catchAsync { _ in "fine" }
        #expect(try await value(of: recovered) as? String == "fine")
    }

    @Test("a value that is both an Error and a thenable is assimilated as a thenable")
    func errorThenable() async throws {
        let promise = AYPromise.resolve(1).thenAsync { _ in ThenableError() }
        #expect(try await value(of: promise) as? String == "from the thenable")
    }
}

/// An error that is also a thenable: the resolution procedure checks for thenables first.
struct ThenableError: Error, Thenable {
    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        resolvePromise("from the thenable")
    }

    @Test("a value of a type Foundation bridges fulfils even if it is an Error, as in the original")
    func bridgedErrorTypeFulfils() async throws {
        // `IndexPath` conforms to `Error` in this test process only (below): in Objective-C it
        // is an `NSIndexPath`, not an `NSError`, so the original fulfils with it; a cast to
        // `Error` would reject it (as one `extension String: Error {}` would reject every string).
        let path = IndexPath(indexes: [1, 2])
        #expect(try await value(of: AYPromise.resolve(1).thenAsync { _ in path }) as? IndexPath == path)
        #expect(try await value(of: AYPromise.withResolve { $0(path) }) as? IndexPath == path)
        // An NSError still rejects.
        let nsError = NSError(domain: "test", code: 1)
        let rejected = AYPromise.resolve(1).thenAsync { _ in nsError }
        #expect(try await error(of: rejected) as? NSError == nsError)
    }
}

// Only for `bridgedErrorTypeFulfils`: a bridged type no other test uses as a value.
extension IndexPath: @retroactive Error {}
