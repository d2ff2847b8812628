import Dispatch
import FBLPromises
import TestSupport
import Testing

@Suite("FBL wrap")
struct FBLWrapTests {
    // The handler shapes of FBLPromise+Wrap.swift, spelled out so each call picks one overload.
    typealias NoArguments = @Sendable () -> Void
    typealias ValueHandler = @Sendable (Int) -> Void
    typealias OptionalValueHandler = @Sendable (Int?) -> Void
    typealias ErrorHandler = @Sendable ((any Error)?) -> Void
    typealias OptionalValueErrorHandler = @Sendable (Int?, (any Error)?) -> Void
    typealias ErrorOptionalValueHandler = @Sendable ((any Error)?, Int?) -> Void
    typealias ValueErrorHandler = @Sendable (Int, (any Error)?) -> Void
    typealias ErrorValueHandler = @Sendable ((any Error)?, Int) -> Void
    typealias ResultHandler = @Sendable (Result<Int, any Error>) -> Void

    // MARK: - No arguments

    @Test("No-argument handler: calling it fulfils")
    func noArguments() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping NoArguments) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { handler() }
        }
        try await value(of: promise)
        #expect(promise.isFulfilled)
    }

    @Test("No-argument handler: stays pending until the handler is called")
    func noArgumentsWaitsForTheHandler() async throws {
        let stored = Recorder<NoArguments>()
        let called = FBLPromise<Void>.pending()
        let promise = wrap(on: .global()) { (handler: @escaping NoArguments) in
            stored.record(handler)
            called.fulfill(())
        }
        try await value(of: called)
        #expect(promise.isPending)
        try #require(stored.all.count == 1)
        stored.all[0]()
        try await value(of: promise)
    }

    // MARK: - Value

    @Test("Value handler: fulfils with the value")
    func valueHandler() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ValueHandler) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { handler(42) }
        }
        #expect(try await value(of: promise) == 42)
    }

    @Test("Value handler: a throw from work rejects")
    func valueHandlerThrow() async throws {
        let promise = wrap(on: .global()) { (_: @escaping ValueHandler) in
            throw TestError(1)
        }
        #expect(try await error(of: promise) as? TestError == TestError(1))
    }

    // MARK: - Optional value

    @Test("Optional value handler: fulfils with the value, or with nil")
    func optionalValueHandler() async throws {
        let some = wrap(on: .global()) { (handler: @escaping OptionalValueHandler) in handler(5) }
        #expect(try await value(of: some) == 5)

        let none = wrap(on: .global()) { (handler: @escaping OptionalValueHandler) in handler(nil) }
        let result = try await value(of: none)
        #expect(result == nil)
        #expect(none.isFulfilled)
    }

    @Test("Optional value handler: a throw from work rejects")
    func optionalValueHandlerThrow() async throws {
        let promise = wrap(on: .global()) { (_: @escaping OptionalValueHandler) in throw TestError(2) }
        #expect(try await error(of: promise) as? TestError == TestError(2))
    }

    // MARK: - Optional error

    @Test("Error handler: nil fulfils")
    func errorHandlerFulfils() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ErrorHandler) in handler(nil) }
        try await value(of: promise)
        #expect(promise.isFulfilled)
    }

    @Test(
        "Error handler: a plain completion of an optional error infers FBLPromise<Void> (google's infers Promise<Error?>)"
    )
    func errorHandlerInfersVoid() async throws {
        @Sendable func save(completion: @escaping ErrorHandler) { completion(nil) }
        let promise = wrap(on: .global()) { save(completion: $0) }
        #expect(type(of: promise) == FBLPromise<Void>.self)
        try await value(of: promise)
    }

    @Test("Error handler: an error rejects")
    func errorHandlerRejects() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ErrorHandler) in handler(TestError(3)) }
        #expect(try await error(of: promise) as? TestError == TestError(3))
    }

    // MARK: - (Value?, Error?)

    @Test("(value?, error?) handler: a value fulfils")
    func optionalValueErrorFulfils() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping OptionalValueErrorHandler) in handler(6, nil) }
        #expect(try await value(of: promise) == 6)
    }

    @Test("(value?, error?) handler: no value and no error fulfils with nil")
    func optionalValueErrorFulfilsWithNil() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping OptionalValueErrorHandler) in handler(nil, nil) }
        let result = try await value(of: promise)
        #expect(result == nil)
        #expect(promise.isFulfilled)
    }

    @Test("(value?, error?) handler: an error rejects, even with a value")
    func optionalValueErrorRejects() async throws {
        let withoutValue = wrap(on: .global()) { (handler: @escaping OptionalValueErrorHandler) in
            handler(nil, TestError(4))
        }
        #expect(try await error(of: withoutValue) as? TestError == TestError(4))

        let withValue = wrap(on: .global()) { (handler: @escaping OptionalValueErrorHandler) in
            handler(6, TestError(5))
        }
        #expect(try await error(of: withValue) as? TestError == TestError(5))
    }

    // MARK: - (Error?, Value?)

    @Test("(error?, value?) handler: a value fulfils, no value fulfils with nil")
    func errorOptionalValueFulfils() async throws {
        let some = wrap(on: .global()) { (handler: @escaping ErrorOptionalValueHandler) in handler(nil, 7) }
        #expect(try await value(of: some) == 7)

        let none = wrap(on: .global()) { (handler: @escaping ErrorOptionalValueHandler) in handler(nil, nil) }
        let result = try await value(of: none)
        #expect(result == nil)
        #expect(none.isFulfilled)
    }

    @Test("(error?, value?) handler: an error rejects, even with a value")
    func errorOptionalValueRejects() async throws {
        let withoutValue = wrap(on: .global()) { (handler: @escaping ErrorOptionalValueHandler) in
            handler(TestError(6), nil)
        }
        #expect(try await error(of: withoutValue) as? TestError == TestError(6))

        let withValue = wrap(on: .global()) { (handler: @escaping ErrorOptionalValueHandler) in
            handler(TestError(7), 7)
        }
        #expect(try await error(of: withValue) as? TestError == TestError(7))
    }

    // MARK: - (Value, Error?)

    @Test("(value, error?) handler: no error fulfils with the value")
    func valueErrorFulfils() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ValueErrorHandler) in handler(8, nil) }
        #expect(try await value(of: promise) == 8)
    }

    @Test("(value, error?) handler: an error rejects")
    func valueErrorRejects() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ValueErrorHandler) in handler(8, TestError(8)) }
        #expect(try await error(of: promise) as? TestError == TestError(8))
    }

    // MARK: - (Error?, Value)

    @Test("(error?, value) handler: no error fulfils with the value")
    func errorValueFulfils() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ErrorValueHandler) in handler(nil, 9) }
        #expect(try await value(of: promise) == 9)
    }

    @Test("(error?, value) handler: an error rejects")
    func errorValueRejects() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ErrorValueHandler) in handler(TestError(9), 9) }
        #expect(try await error(of: promise) as? TestError == TestError(9))
    }

    // MARK: - Result

    @Test("Result handler: success fulfils, failure rejects")
    func resultHandler() async throws {
        let success = wrap(on: .global()) { (handler: @escaping ResultHandler) in handler(.success(10)) }
        #expect(try await value(of: success) == 10)

        let failure = wrap(on: .global()) { (handler: @escaping ResultHandler) in
            handler(.failure(TestError(10)))
        }
        #expect(try await error(of: failure) as? TestError == TestError(10))
    }

    // MARK: - Every shape

    @Test("Only the first call of the handler counts")
    func onlyTheFirstCallCounts() async throws {
        let value1 = wrap(on: .global()) { (handler: @escaping ValueHandler) in
            handler(1)
            handler(2)
        }
        #expect(try await value(of: value1) == 1)

        let error1 = wrap(on: .global()) { (handler: @escaping ErrorHandler) in
            handler(nil)
            handler(TestError(1))
        }
        try await value(of: error1)

        let error2 = wrap(on: .global()) { (handler: @escaping ErrorHandler) in
            handler(TestError(2))
            handler(nil)
        }
        #expect(try await error(of: error2) as? TestError == TestError(2))

        let pair = wrap(on: .global()) { (handler: @escaping OptionalValueErrorHandler) in
            handler(nil, TestError(3))
            handler(3, nil)
        }
        #expect(try await error(of: pair) as? TestError == TestError(3))

        let result = wrap(on: .global()) { (handler: @escaping ResultHandler) in
            handler(.success(4))
            handler(.failure(TestError(4)))
        }
        #expect(try await value(of: result) == 4)

        let optionalValue = wrap(on: .global()) { (handler: @escaping OptionalValueHandler) in
            handler(nil)
            handler(5)
        }
        let first = try await value(of: optionalValue)
        #expect(first == nil)
    }

    @Test("A later call from another thread does not change the outcome")
    func laterCallIsIgnored() async throws {
        let tagged = TaggedQueue("fbl.wrap.later")
        let promise = wrap(on: tagged.queue) { (handler: @escaping ValueErrorHandler) in
            handler(1, nil)
            tagged.queue.async { handler(2, TestError(2)) }
        }
        #expect(try await value(of: promise) == 1)
        tagged.queue.sync {}  // the second call has run
        #expect(promise.fulfilledValue == 1)
        #expect(promise.error == nil)
    }

    @Test("A throw from work rejects in every shape")
    func throwRejectsInEveryShape() async throws {
        let noArguments = wrap(on: .global()) { (_: @escaping NoArguments) in throw TestError(1) }
        #expect(try await error(of: noArguments) as? TestError == TestError(1))
        let errorOnly = wrap(on: .global()) { (_: @escaping ErrorHandler) in throw TestError(2) }
        #expect(try await error(of: errorOnly) as? TestError == TestError(2))
        let optionalPair = wrap(on: .global()) { (_: @escaping OptionalValueErrorHandler) in throw TestError(3) }
        #expect(try await error(of: optionalPair) as? TestError == TestError(3))
        let errorFirst = wrap(on: .global()) { (_: @escaping ErrorOptionalValueHandler) in throw TestError(4) }
        #expect(try await error(of: errorFirst) as? TestError == TestError(4))
        let valuePair = wrap(on: .global()) { (_: @escaping ValueErrorHandler) in throw TestError(5) }
        #expect(try await error(of: valuePair) as? TestError == TestError(5))
        let errorValue = wrap(on: .global()) { (_: @escaping ErrorValueHandler) in throw TestError(6) }
        #expect(try await error(of: errorValue) as? TestError == TestError(6))
        let result = wrap(on: .global()) { (_: @escaping ResultHandler) in throw TestError(7) }
        #expect(try await error(of: result) as? TestError == TestError(7))
    }

    @Test("A throw after the handler was called does not change the outcome")
    func throwAfterTheHandlerIsIgnored() async throws {
        let promise = wrap(on: .global()) { (handler: @escaping ValueHandler) in
            handler(1)
            throw TestError(1)
        }
        #expect(try await value(of: promise) == 1)
    }

    @Test("Work runs on the given queue")
    func workRunsOnTheGivenQueue() async throws {
        let tagged = TaggedQueue("fbl.wrap.queue")
        let onQueue = Recorder<Bool>()
        let promise = wrap(on: tagged.queue) { (handler: @escaping ValueHandler) in
            onQueue.record(tagged.isCurrent)
            handler(1)
        }
        #expect(try await value(of: promise) == 1)
        let noArguments = wrap(on: tagged.queue) { (handler: @escaping NoArguments) in
            onQueue.record(tagged.isCurrent)
            handler()
        }
        try await value(of: noArguments)
        let errorOnly = wrap(on: tagged.queue) { (handler: @escaping ErrorHandler) in
            onQueue.record(tagged.isCurrent)
            handler(nil)
        }
        try await value(of: errorOnly)
        #expect(onQueue.all == [true, true, true])
    }

    @Test("Work runs asynchronously, not on the caller's stack")
    func workRunsAsynchronously() async throws {
        let tagged = TaggedQueue("fbl.wrap.async")
        let ran = Recorder<Bool>()
        // Called on the tagged queue itself: work must wait until this block returns.
        let promise = tagged.queue.sync {
            let promise = wrap(on: tagged.queue) { (handler: @escaping ValueHandler) in
                ran.record(true)
                handler(1)
            }
            #expect(ran.all.isEmpty)
            return promise
        }
        #expect(try await value(of: promise) == 1)
        #expect(ran.all == [true])
    }

    @Test("Works with the default queue")
    func defaultQueue() async throws {
        let promise = wrap { (handler: @escaping ResultHandler) in handler(.success(11)) }
        #expect(try await value(of: promise) == 11)
    }

    // MARK: - Two values and an error

    @Test("Two-values-and-error handler: fulfils with both values, or rejects with the error")
    func twoValuesAndError() async throws {
        typealias Handler = @Sendable (Int?, String?, (any Error)?) -> Void
        let both = wrap(on: .global()) { (handler: @escaping Handler) in handler(1, "one", nil) }
        let values = try await value(of: both)
        #expect(values.0 == 1 && values.1 == "one")
        let partial = wrap(on: .global()) { (handler: @escaping Handler) in handler(nil, "two", nil) }
        let partialValues = try await value(of: partial)
        #expect(partialValues.0 == nil && partialValues.1 == "two")
        let failed = wrap(on: .global()) { (handler: @escaping Handler) in handler(3, "three", TestError(3)) }
        #expect(try await error(of: failed) as? TestError == TestError(3))
    }

    @Test("Value handler: a promise handed to it is adopted, as the async initialiser's fulfil does")
    func adoptsAPromise() async throws {
        let inner = FBLPromise<Int>(on: .global()) { fulfill, _ in fulfill(3) }
        let wrapped: FBLPromise<any Sendable> = wrap { handler in handler(inner) }
        #expect(try await value(of: wrapped) as? Int == 3)
    }
}
