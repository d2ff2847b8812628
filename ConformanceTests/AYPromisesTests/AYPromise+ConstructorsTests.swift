import AYPromises
import Dispatch
import TestSupport
import Testing

@Suite("AY constructors")
struct AYConstructorsTests {
    @Test("withResolve runs its block on the main queue, never on the caller's stack")
    func withResolveOnMain() async throws {
        // Called from a main-queue block: a synchronous call would record "after return:false";
        // the queued block cannot run before this one ends, whatever the load.
        let returned = Recorder<Bool>()
        let seen = Recorder<String>()
        let promise = try await awaitCompletion("withResolve on the main queue") { complete in
            DispatchQueue.main.async {
                defer { returned.record(true) }
                complete(
                    .success(
                        AYPromise.withResolve { resolve in
                            seen.record("main:\(MainQueue.isCurrent) after return:\(returned.all == [true])")
                            resolve("aaa")
                        }
                    )
                )
            }
        }
        #expect(try await value(of: promise) as? String == "aaa")
        #expect(seen.all == ["main:true after return:true"])
    }

    @Test("asyncWithResolve runs its block on a global queue; resolve may be called later, from anywhere")
    func asyncWithResolveOnGlobal() async throws {
        let onMain = Recorder<Bool>()
        let promise = AYPromise.asyncWithResolve { resolve in
            dispatchPrecondition(condition: .onQueue(.global()))
            onMain.record(MainQueue.isCurrent)
            DispatchQueue.main.async { resolve(1) }
        }
        #expect(try await value(of: promise) as? Int == 1)
        #expect(onMain.all == [false])
    }

    @Test("resolve: an error rejects, a promise is adopted, only the first call counts, a throw rejects")
    func resolveRules() async throws {
        let rejected = AYPromise.withResolve { resolve in resolve(TestError(1)) }
        #expect(try await error(of: rejected) as? TestError == TestError(1))
        let adopted = AYPromise.withResolve { resolve in resolve(AYPromise.asyncWith { 2 }) }
        #expect(try await value(of: adopted) as? Int == 2)
        let first = AYPromise.asyncWithResolve { resolve in
            resolve(3)
            resolve(TestError())
        }
        #expect(try await value(of: first) as? Int == 3)
        let thrown = AYPromise.withResolve { _ in throw TestError(4) }
        #expect(try await error(of: thrown) as? TestError == TestError(4))
        let thrownAfterResolve = AYPromise.withResolve { resolve in
            resolve(5)
            throw TestError(6)
        }
        #expect(try await value(of: thrownAfterResolve) as? Int == 5)
    }

    @Test("with(block) runs the block on the main queue; asyncWith(block) on a global queue")
    func withBlock() async throws {
        let places = Recorder<String>()
        let onMain = AYPromise.with {
            places.record("with main:\(MainQueue.isCurrent)")
            return "aa"
        }
        #expect(try await value(of: onMain) as? String == "aa")
        let onGlobal = AYPromise.asyncWith {
            dispatchPrecondition(condition: .onQueue(.global()))
            places.record("asyncWith main:\(MainQueue.isCurrent)")
            return "bb"
        }
        #expect(try await value(of: onGlobal) as? String == "bb")
        #expect(places.all == ["with main:true", "asyncWith main:false"])
        let thrown = AYPromise.with { () throws -> Int in throw TestError(7) }
        #expect(try await error(of: thrown) as? TestError == TestError(7))
    }

    @Test("with(value): a promise is returned as is, an error rejects, an array is all, anything else fulfils")
    func withValue() async throws {
        let existing = pending().promise
        #expect(AYPromise.with(existing) === existing)
        #expect(AYPromise.asyncWith(existing) === existing)
        #expect(AYPromise.with(TestError(8) as PromiseValue).state.error as? TestError == TestError(8))
        #expect(AYPromise.with(9).state.value.flatMap { $0 as? Int } == 9)
        #expect(AYPromise.with(nil).state.value.map { $0 == nil } == true)
        let array = try await value(of: AYPromise.with([1, AYPromise.with { 2 }] as [PromiseValue]))
        #expect((array as? [PromiseValue])?.map { $0 as? Int } == [1, 2])
    }

    @Test("with(value) runs a block handed over as a dynamic value, on the queue of its variant")
    func withDynamicBlock() async throws {
        let places = Recorder<Bool>()
        let block: @Sendable () throws -> PromiseValue = {
            places.record(MainQueue.isCurrent)
            return 10
        }
        #expect(try await value(of: AYPromise.with(block as PromiseValue)) as? Int == 10)
        #expect(try await value(of: AYPromise.asyncWith(block as PromiseValue)) as? Int == 10)
        #expect(places.all == [true, false])
    }

    @Test("with(value) rejects a block of another type with invalidArgument instead of fulfilling with it")
    func withUnsupportedBlock() async throws {
        let ran = Recorder<Bool>()
        let block: @Sendable () -> Int = {
            ran.record(true)
            return 1
        }
        let taking: @Sendable (Int) throws -> PromiseValue = { $0 }
        let promises = [
            AYPromise.with(block as PromiseValue), AYPromise.asyncWith(block as PromiseValue),
            AYPromise.with(taking as PromiseValue),
        ]
        for promise in promises {
            let failure = try await error(of: promise) as? AYPromiseError
            guard case .invalidArgument(let reason) = failure else {
                Issue.record("expected invalidArgument, got \(String(describing: failure))")
                continue
            }
            #expect(reason.contains("not @Sendable ("))
        }
        #expect(ran.all.isEmpty)
        // Values that are not functions, though they may hold one, still fulfil.
        let tuple = try await value(of: AYPromise.with((2, block) as PromiseValue))
        #expect((tuple as? (Int, @Sendable () -> Int))?.0 == 2)
        let object = Recorder<Int>()
        #expect(try await value(of: AYPromise.with(object)) as? Recorder<Int> === object)
        #expect(try await value(of: AYPromise.with(TestError(3).code)) as? Int == 3)
    }

    @Test("AYPromise.resolve: a promise as is, an error rejected, a value fulfilled, a thenable assimilated")
    func staticResolve() async throws {
        let existing = pending().promise
        #expect(AYPromise.resolve(existing) === existing)
        #expect(AYPromise.resolve(TestError(11)).state.error as? TestError == TestError(11))
        #expect(AYPromise.resolve("x").state.value.flatMap { $0 as? String } == "x")
        let thenable = ScriptThenable { resolve, _ in resolve(12) }
        #expect(try await value(of: AYPromise.resolve(thenable)) as? Int == 12)
    }

    @Test("withCompletion wraps a Result-style completion handler: success fulfils, failure rejects")
    func withCompletionResult() async throws {
        @Sendable func fetch(_ id: Int, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
            DispatchQueue.global().async { completion(id < 0 ? .failure(TestError(id)) : .success(id * 2)) }
        }
        #expect(try await value(of: AYPromise.withCompletion { fetch(21, completion: $0) }) as? Int == 42)
        #expect(
            try await error(of: AYPromise.withCompletion { fetch(-1, completion: $0) }) as? TestError == TestError(-1))
    }

    @Test("withCompletion wraps an Objective-C-style (value, error) handler: an error wins, nil fulfils with nil")
    func withCompletionPair() async throws {
        @Sendable func fetch(
            _ answer: Int?, _ failure: TestError?, completion: @escaping @Sendable (Int?, (any Error)?) -> Void
        ) {
            DispatchQueue.global().async { completion(answer, failure) }
        }
        #expect(try await value(of: AYPromise.withCompletion { fetch(3, nil, completion: $0) }) as? Int == 3)
        #expect(try await value(of: AYPromise.withCompletion { fetch(nil, nil, completion: $0) }) == nil)
        #expect(
            try await error(of: AYPromise.withCompletion { fetch(3, TestError(4), completion: $0) }) as? TestError
                == TestError(4))
    }

    @Test("withCompletion: the first call counts, a throw before it rejects, and the body runs on the main queue")
    func withCompletionFirstCallAndThrow() async throws {
        let onMainQueue = Recorder<Bool>()
        let twice = AYPromise.withCompletion { (completion: @escaping @Sendable (Result<Int, any Error>) -> Void) in
            onMainQueue.record(MainQueue.isCurrent)
            completion(.success(1))
            completion(.failure(TestError(2)))
        }
        #expect(try await value(of: twice) as? Int == 1)
        #expect(onMainQueue.all == [true])
        let throwing = AYPromise.withCompletion { (_: @escaping @Sendable (Result<Int, any Error>) -> Void) in
            throw TestError(5)
        }
        #expect(try await error(of: throwing) as? TestError == TestError(5))
    }
}
