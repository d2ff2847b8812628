import Dispatch
import FBLPromises
import Foundation
import TestSupport
import Testing

/// FBL's resolution procedure decides once per type that a value is plain (`PlainTypeCache`) and
/// then settles with values of that type without casting them. These tests pin down that the
/// shortcut never changes an outcome: each sends a value of a type through once, so that the type
/// is remembered if it may be, then a value whose outcome the shortcut would get wrong. (FBL looks
/// up `Value`, so a promise of `any Sendable` never takes the shortcut; these check that it still
/// asks, whatever promises of concrete types remembered.)
@Suite("FBL resolution procedure")
struct FBLResolutionTests {
    @Test("a thenable held as the value of a promise of its own type is still assimilated elsewhere")
    func heldThenAssimilated() async throws {
        // A promise typed to hold thenables does not ask its values whether they are thenables...
        let holding = FBLPromise<ValueThenable>.pending()
        let resolveWithValue: (ValueThenable, DispatchQueue) -> Void = holding.resolve(_:on:)
        resolveWithValue(ValueThenable(answer: 1), .global())
        #expect(try await value(of: holding).answer == 1)
        // ...so that must not make the type count as plain for a promise that assimilates.
        let assimilating = FBLPromise<any Sendable>.pending()
        assimilating.resolve(ValueThenable(answer: 2) as any Sendable)
        #expect(try await value(of: assimilating) as? Int == 2)
    }

    @Test("a promise of PromiseValue adopting an FBL promise of another type gets its value as it is held")
    func adoptsAnotherTypeExactly() async throws {
        for (source, expected) in [
            (FBLPromise<Int?>(nil), "Optional(nil)"), (FBLPromise<Int?>(7), "Optional(Optional(7))"),
        ] {
            let adopter = FBLPromise<PromiseValue>.pending()
            adopter.resolve(source, on: .global())
            #expect(String(reflecting: try await value(of: adopter)) == expected)
        }
    }

    @Test("a struct error rejects every time, through resolve, fulfill and init")
    func errorEveryTime() async throws {
        for round in 1...3 {
            let resolved = FBLPromise<any Sendable>.pending()
            resolved.resolve(TestError(round))
            #expect(try await error(of: resolved) as? TestError == TestError(round))
            let fulfilled = FBLPromise<any Sendable>.pending()
            fulfilled.fulfill(TestError(round))
            #expect(try await error(of: fulfilled) as? TestError == TestError(round))
            #expect(try await error(of: FBLPromise<any Sendable>(TestError(round))) as? TestError == TestError(round))
        }
    }

    @Test(
        "a value whose type conforms to Error but bridges to its own object fulfils (google/promises' rule, as for `extension String: Error`)"
    )
    func bridgedErrorTypeFulfils() async throws {
        // `UUID` conforms to `Error` in this test process only (below); Foundation bridges it to
        // `NSUUID`, as it bridges `String` to `NSString`, so google/promises fulfils with it.
        let id = UUID()
        let fulfilled = FBLPromise<UUID>.pending()
        fulfilled.fulfill(id)
        #expect(try await value(of: fulfilled) == id)
        #expect(try await value(of: FBLPromise<UUID>(id)) == id)
        let resolved = FBLPromise<UUID>.pending()
        resolved.resolve(id)
        #expect(try await value(of: resolved) == id)
        #expect(try await value(of: FBLPromise(1).then { _ in id }) == id)
        let untyped = FBLPromise<any Sendable>.pending()
        untyped.resolve(id)
        #expect(try await value(of: untyped) as? UUID == id)
    }

    @Test("an NSError value rejects with it, through fulfill, resolve and init")
    func nsErrorRejects() async throws {
        let nsError = NSError(domain: "FBLResolutionTests", code: 7)
        let fulfilled = FBLPromise<any Sendable>.pending()
        fulfilled.fulfill(nsError)
        #expect(try await error(of: fulfilled) as? NSError === nsError)
        let resolved = FBLPromise<NSError>.pending()
        resolved.resolve(nsError)
        #expect(try await error(of: resolved) as? NSError === nsError)
        #expect(try await error(of: FBLPromise<NSError>(nsError)) as? NSError === nsError)
    }

    @Test("an optional holding a promise is adopted after an optional of that type holding nil")
    func optionalAfterNil() async throws {
        let none = FBLPromise<any Sendable>.pending()
        none.resolve(FBLPromise<any Sendable>?.none)
        let nothing = try await value(of: none)
        #expect((nothing as? FBLPromise<any Sendable>) == nil)
        let inner = FBLPromise<any Sendable>(7)
        let some = FBLPromise<any Sendable>.pending()
        some.resolve(FBLPromise<any Sendable>?.some(inner))
        #expect(try await value(of: some) as? Int == 7)
    }

    @Test("plain values of many types in turn keep their values")
    func manyTypes() async throws {
        let values: [any Sendable] = [1, "two", 3.0, UInt8(4), [5], (6 as Int16), ()]
        for _ in 1...2 {
            for expected in values {
                let promise = FBLPromise<any Sendable>.pending()
                promise.resolve(expected)
                let got = try await value(of: promise)
                #expect(String(describing: type(of: got)) == String(describing: type(of: expected)))
                #expect("\(got)" == "\(expected)")
            }
        }
    }
}

// A type that Foundation bridges to an object of its own, made an `Error` as a program that
// throws strings makes `String` one; `UUID`, so that no other test's values are affected.
extension UUID: @retroactive Error {}

/// A thenable that is a value type, so the plain-type cache could remember its type.
private struct ValueThenable: Thenable {
    let answer: Int

    func then(
        resolvePromise: @escaping @Sendable (PromiseValue) -> Void,
        rejectPromise: @escaping @Sendable (any Error) -> Void
    ) {
        resolvePromise(answer)
    }
}
